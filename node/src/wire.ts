// The node wire protocol (docs/node-api.md): zod schemas and types of what a proxy node and the portal send each
// other over /node/v2. ONE module for both sides: the node (this package) validates the contract it pulls and types
// the reports it pushes with it; the portal (src/lib/node-wire.ts re-exports it) parses the node's reports and types
// the contract it serves with it. It lives in node/ because the node is deployed as that folder alone
// (docs/node-operations.md copies node/), and it imports nothing but zod, so it runs under Node's type stripping and
// in the Worker bundle alike (erasable TypeScript only: no enums, no parameter properties).
// What the schemas check is the SHAPE of a message; each side adds its own rules on top (the portal canonicalizes
// every address and bounds usage by the line's capacity, the node checks verifiers when a client authenticates).
import { z } from 'zod';

// ---- shared pieces -------------------------------------------------------------------------------------------------

/** An IPv4 or IPv6 address as text (its exact form is checked by the receiver; the portal canonicalizes it). */
export const wireIp = z
  .string()
  .min(2)
  .max(45)
  .regex(/^[0-9A-Fa-f:.]+$/);
export const wirePort = z.number().int().min(1).max(65535);
/** Milliseconds since the epoch. */
export const wireEpochMs = z.number().int().positive().max(9_999_999_999_999);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const userId = z.number().int().positive();
/** A report batch's id: stable across retries and restarts, the portal stores each (node, batchId) once. */
export const wireBatchId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);

/** Most rows in one usage or refusal batch; most exits in one heartbeat. */
export const MAX_BATCH_ROWS = 5000;
/**
 * Most bytes of a node request's body the portal reads (a larger one is answered 413). 5,000 usage rows are ≈ 575 KB,
 * so a node cuts its batches by bytes as well as by rows (reports.ts).
 */
export const MAX_NODE_BODY_BYTES = 512 * 1024;
export const MAX_HEARTBEAT_EXITS = 1000;

/** Why a node refused a connection (docs/node-api.md "Refusal codes"). */
export const REFUSAL_CODES = [
  'not_whitelisted',
  'bad_credentials',
  'exit_not_leased',
  'lease_expired',
  'account_suspended',
  'over_rate',
  'over_concurrency',
  'contract_stale',
  // The egress policy (docs/node-api.md "Egress policy"; decision 193)
  'target_invalid',
  'target_port_forbidden',
  'target_not_public',
  'target_blocked',
  'target_resolves_private',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Exit pools a node may register: 10 dynamic, 40 static, 30 dedicated. */
export const EXIT_POOLS = [10, 30, 40] as const;
export const EXIT_PROTOCOLS = ['http', 'https', 'socks5'] as const;

// ---- node → portal: POST /node/v2/heartbeat ------------------------------------------------------------------------

export const wireExitSchema = z.object({
  ip: wireIp,
  port: wirePort,
  pool: z.union([z.literal(10), z.literal(30), z.literal(40)]),
  protocols: z.array(z.enum(EXIT_PROTOCOLS)).min(1),
  province: z.string().min(2).max(20),
  city: z.string().min(2).max(20),
  /** The portal's carrier names (电信, 联通, 移动); the portal checks the list. */
  carrier: z.string().min(1).max(20),
  expiresAt: wireEpochMs,
  healthy: z.boolean().default(true),
});

export const heartbeatSchema = z.object({
  version: z.string().max(64).default(''),
  /** Higher than every sequence the node sent before (the portal refuses replays). */
  seq: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  exits: z.array(wireExitSchema).max(MAX_HEARTBEAT_EXITS),
});
export type Heartbeat = z.input<typeof heartbeatSchema>;
export type HeartbeatExit = z.input<typeof wireExitSchema>;

export const heartbeatAnswerSchema = z.object({
  accepted: count,
  ignored: count,
  serverTime: wireEpochMs,
  heartbeatMs: z.number().int().positive().optional(),
  pullMs: z.number().int().positive().optional(),
});
export type HeartbeatAnswer = z.infer<typeof heartbeatAnswerSchema>;

// ---- node → portal: POST /node/v2/usage and /node/v2/refusals ------------------------------------------------------

export const usageRowSchema = z.object({
  userId,
  ip: wireIp,
  port: wirePort,
  clientIp: wireIp,
  bytesIn: count,
  bytesOut: count,
  connections: count,
});
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageBatchSchema = z
  .object({
    batchId: wireBatchId,
    periodStart: wireEpochMs,
    periodEnd: wireEpochMs,
    rows: z.array(usageRowSchema).max(MAX_BATCH_ROWS),
  })
  .refine((b) => b.periodEnd >= b.periodStart);
export type UsageBatch = z.infer<typeof usageBatchSchema>;

/**
 * Most refused connections one refusal row counts. A row counts the refusals of one client address, exit, user and
 * code within one report period (the node collapses them, decision 251); a node refuses far fewer in a period (a
 * million connections a second for a default 10 s period is 10⁷), sums over the 7-day hot window stay far inside
 * SQLite's integers and JavaScript's exact ones, and a node that reaches the bound starts another row.
 */
export const MAX_REFUSAL_COUNT = 1_000_000_000;

export const refusalRowSchema = z
  .object({
    /** The first refusal the row counts. */
    at: wireEpochMs,
    clientIp: wireIp,
    ip: wireIp,
    port: wirePort,
    userId: userId.nullable().default(null),
    code: z.enum(REFUSAL_CODES),
    /** How many refused connections the row counts; a node from before decision 251 sends none: one. */
    count: z.number().int().min(1).max(MAX_REFUSAL_COUNT).default(1),
    /** The last refusal the row counts (absent: `at`, the row's only one). */
    lastAt: wireEpochMs.optional(),
  })
  .refine((r) => r.lastAt === undefined || r.lastAt >= r.at);
export type RefusalRow = z.infer<typeof refusalRowSchema>;
/** One refused connection as the node notes it, before it is collapsed into a row. */
export type RefusedConnection = Omit<RefusalRow, 'count' | 'lastAt'>;

export const refusalBatchSchema = z.object({
  batchId: wireBatchId,
  rows: z.array(refusalRowSchema).max(MAX_BATCH_ROWS),
});
export type RefusalBatch = z.infer<typeof refusalBatchSchema>;

/** The portal's answer to a report batch. */
export const reportAnswerSchema = z.object({ stored: count.optional(), duplicate: z.boolean().optional() });
export type ReportAnswer = z.infer<typeof reportAnswerSchema>;

// ---- portal → node: GET /node/v2/contract --------------------------------------------------------------------------

/** The password-verifier scheme a node declares on every pull (`verifier=hs1`); older nodes are answered 426. */
export const CONTRACT_VERIFIER_SCHEME = 'hs1';

export const contractLeaseSchema = z.object({
  /** `a<assignment id>` or `f<fixed allocation id>`. */
  id: z.string().min(1).max(64),
  ip: wireIp,
  port: wirePort,
  userId,
  packageId: z.number().int().positive(),
  productType: z.number().int(),
  exclusive: z.boolean(),
  startsAt: z.number().int().min(0),
  expiresAt: z.number().int().min(0),
});
export type ContractLease = z.infer<typeof contractLeaseSchema>;

export const userLimitsSchema = z.object({
  maxConcurrent: z.number().int().min(0),
  newPerSecond: z.number().int().min(0),
});
export type UserLimits = z.infer<typeof userLimitsSchema>;

export const contractUserSchema = z.object({
  userId,
  active: z.boolean(),
  /** expiresAt 0: no end. */
  whiteList: z.array(z.object({ ip: wireIp, expiresAt: z.number().int().min(0) })),
  username: z.string().max(64),
  /** 'hs1$' + salt (32 hex) + '$' + hex HMAC-SHA256(key = salt bytes, username ':' password); '' without an account. */
  passwordVerifier: z.string().max(200).optional(),
  /**
   * Legacy (a portal from before decision 200 sends it instead of passwordVerifier): hex SHA-256(username ':'
   * password). Read by nodes only so they can be upgraded before the portal; the portal never sends it.
   */
  passwordSha256: z.string().max(64).optional(),
  limits: userLimitsSchema,
});
export type ContractUser = z.infer<typeof contractUserSchema>;

/** The operator's egress rules (docs/node-api.md "Egress policy"). */
export const contractEgressSchema = z.object({
  blockedDomains: z.array(z.string().max(253)),
  blockedCidrs: z.array(z.string().max(49)),
  blockedPorts: z.array(wirePort),
  /** Product types whose leases may reach the SMTP ports. */
  smtpProductTypes: z.array(z.number().int()),
});
export type ContractEgress = z.infer<typeof contractEgressSchema>;

export const contractSchema = z.object({
  cursor: z.string().min(1).max(64),
  full: z.boolean(),
  /** The delta was cut short: pull again at once with the new cursor. */
  more: z.boolean().default(false),
  serverTime: wireEpochMs,
  leases: z.array(contractLeaseSchema),
  endedLeases: z.array(z.string().min(1).max(64)),
  users: z.array(contractUserSchema),
  removedUsers: z.array(userId),
  /** Always in a full snapshot; in a delta only when the rules changed (then whole). */
  egress: contractEgressSchema.optional(),
});
/** The contract as the node holds it after parsing. */
export type Contract = z.infer<typeof contractSchema>;
/** The contract as the portal serves it. */
export type ContractAnswer = z.input<typeof contractSchema>;

/** The contract pull path (with the cursor when there is one). */
export const contractPath = (cursor: string | null): string =>
  `/node/v2/contract?${cursor ? `cursor=${encodeURIComponent(cursor)}&` : ''}verifier=${CONTRACT_VERIFIER_SCHEME}`;

/** Where a message broke its schema, in one line for a log (`users.3.limits.maxConcurrent: expected number`). */
export const wireProblem = (e: z.ZodError): string =>
  e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
