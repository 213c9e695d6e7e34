// The contract a proxy node pulls (docs/node-api.md, GET /node/v2/contract): leases on its exits, the users holding
// them (active flag, white list, proxy account verifier, limits), as a full snapshot or as a delta since a cursor.
// A node receives a salted verifier of each proxy password, never the password (docs/decisions/200).
// The delta is read from the node_changes feed (written with each change, src/server/db/node-feed.ts) plus the
// packages that ended since the previous pull, found by time (docs/decisions/044). Extraction leases come from the
// node's own object (src/server/objects/node-leases.ts, decision 245), with a seq of their own in the cursor; those
// D1 still holds (from before the objects) are read as before until they are moved.
import {
  type FeedChange,
  feedAfter,
  feedBounds,
  insertUsageBatch,
  type LeaseRow,
  fixedAllocationsOfUsage,
  refusalAttribution,
  type RefusalRow,
  type RefusalView,
  type UsageHour,
  leasesTouched,
  liveLeasesOfNode,
  listUserRefusals,
  packagesStillLive,
  packagesEndedSince,
  type UserRow,
  usersForContract,
  usersWithLiveLeases,
} from '../db/node-contract';
import { nodeIds } from '../db/archive-rows';
import type { ContractAnswer, ContractLease, ContractUser, UserLimits } from '../../lib/node-wire';
import { contractEgress, fullContractEgress } from './egress-rules';
import { isSealedProxyPassword, proxyPasswordVerifier } from './credential-secrets';
import {
  type KeptRefusal,
  type NodeLease,
  type NodeLeasesNamespace,
  nodeLeases,
  refusalNumber,
  type UsageBatch,
} from '../objects/node-leases';
import { USAGE_LEASE_GRACE_MS } from './node-usage';

/** The password-verifier scheme a node declares on every pull (`verifier=hs1`); older nodes are answered 426. */
export { CONTRACT_VERIFIER_SCHEME } from '../../lib/node-wire';

/** Heartbeat and pull intervals the portal asks nodes for; an exit unseen for STALE_INTERVALS heartbeats is down. */
export const NODE_HEARTBEAT_MS = 30_000;
export const NODE_PULL_MS = 5_000;
export const STALE_INTERVALS = 3;
/** Feed rows kept this long; a node whose cursor is older gets a full snapshot. */
export const FEED_RETENTION_MS = 24 * 3_600_000;
/** At most this many feed rows per delta; `more: true` asks the node to pull again at once. */
export const DELTA_PAGE = 5_000;
/** Package endings are looked up from the previous pull's time minus this margin (writes stamped before commit). */
export const PACKAGE_WINDOW_MARGIN_MS = 60_000;

/**
 * Per-user connection limits enforced by each node, by product type (10 short-lived dynamic, 40 long-lived static,
 * 30 fixed, 50 premium/enterprise). A user holding leases of several types gets the largest of each figure.
 */
export const NODE_USER_LIMITS: Record<10 | 30 | 40 | 50, UserLimits> = {
  10: { maxConcurrent: 200, newPerSecond: 50 },
  40: { maxConcurrent: 500, newPerSecond: 100 },
  30: { maxConcurrent: 1000, newPerSecond: 200 },
  50: { maxConcurrent: 2000, newPerSecond: 500 },
};

/** The limits for the product types a user holds on a node. */
export function limitsFor(types: number[]): UserLimits {
  let out: UserLimits = { maxConcurrent: 0, newPerSecond: 0 };
  for (const t of types) {
    const l = NODE_USER_LIMITS[t as 10 | 30 | 40 | 50] ?? NODE_USER_LIMITS[10];
    out = {
      maxConcurrent: Math.max(out.maxConcurrent, l.maxConcurrent),
      newPerSecond: Math.max(out.newPerSecond, l.newPerSecond),
    };
  }
  return out.maxConcurrent ? out : NODE_USER_LIMITS[10];
}

// The contract's types are the node wire protocol's (lib/node-wire.ts, shared with node/).
export type { ContractLease, ContractUser, UserLimits } from '../../lib/node-wire';
/** The contract as the portal serves it (`more` always set). */
export type Contract = ContractAnswer & { more: boolean };

const leaseId = (l: LeaseRow) => `${l.kind}${l.id}`;
const toLease = (l: LeaseRow): ContractLease => ({
  id: leaseId(l),
  ip: l.ip,
  port: l.port,
  userId: l.userId,
  packageId: l.packageId,
  productType: l.productType,
  exclusive: l.kind === 'f',
  startsAt: l.startsAt,
  expiresAt: l.expiresAt,
});
/** A lease from the node's object (an extraction lease, never exclusive). */
const objectLease = (l: NodeLease): ContractLease => ({
  id: l.id,
  ip: l.ip,
  port: l.port,
  userId: l.userId,
  packageId: l.packageId,
  productType: l.productType,
  exclusive: false,
  startsAt: l.startsAt,
  expiresAt: l.expiresAt,
});

/**
 * A cursor: the last D1 feed seq the node has, the last seq of the node's object (its extraction leases) and the
 * server time of that answer.
 */
export interface Cursor {
  seq: number;
  objectSeq: number;
  at: number;
}

export const formatCursor = (c: Cursor) => `c${c.seq}.${c.objectSeq}.${c.at}`;

/** `c<seq>.<objectSeq>.<ms>` -> cursor, or null for anything else (the older `c<seq>.<ms>` too: a full snapshot). */
export function parseCursor(raw: string | undefined | null): Cursor | null {
  if (!raw) return null;
  const m = /^c(\d{1,15})\.(\d{1,15})\.(\d{1,15})$/.exec(raw);
  return m ? { seq: Number(m[1]), objectSeq: Number(m[2]), at: Number(m[3]) } : null;
}

/** Where a contract reads: D1 (feed, fixed allocations, leases from before the node objects, users) and the node's object. */
export interface ContractStores {
  db: D1Database;
  nodes: NodeLeasesNamespace;
}

/** The product types of each user's live leases (for their limits). */
function typesByUser(leases: { userId: number; productType: number }[], into = new Map<number, number[]>()) {
  for (const l of leases) into.set(l.userId, [...(into.get(l.userId) ?? []), l.productType]);
  return into;
}

/**
 * The verifier a node gets for a user: the stored one; for a row whose password is still plain (before the job
 * credentials-seal reached it) one computed now with a fresh salt.
 */
async function verifierOf(u: UserRow): Promise<string> {
  if (!u.username) return '';
  if (u.verifier) return u.verifier;
  return isSealedProxyPassword(u.password) ? '' : proxyPasswordVerifier(u.username, u.password);
}

async function userEntries(
  db: D1Database,
  now: number,
  live: Map<number, number[]>,
): Promise<{ users: ContractUser[]; missing: number[] }> {
  const { users, whiteList } = await usersForContract(db, now, [...live.keys()]);
  const entries = await Promise.all(
    users.map(async (u) => ({
      userId: u.userId,
      active: u.status === 1,
      whiteList: whiteList.get(u.userId) ?? [],
      username: u.username,
      passwordVerifier: await verifierOf(u),
      limits: limitsFor(live.get(u.userId) ?? []),
    })),
  );
  const found = new Set(users.map((u) => u.userId));
  return { users: entries, missing: [...live.keys()].filter((id) => !found.has(id)) };
}

/**
 * The full snapshot for a node: every live lease on its exits (the node object's extraction leases whose package
 * lives, D1's fixed allocations and the extraction leases D1 still holds) and the users holding them.
 */
export async function fullContract(s: ContractStores, nodeId: number, now: number): Promise<Contract> {
  // Read the feed position first: a change landing meanwhile is sent again in the next delta (harmless).
  const [{ maxSeq }, kept] = await Promise.all([feedBounds(s.db), nodeLeases(s.nodes, nodeId).live(now)]);
  const [d1Leases, live] = await Promise.all([
    liveLeasesOfNode(s.db, nodeId, now),
    packagesStillLive(s.db, [...new Set(kept.leases.map((l) => l.packageId))], now),
  ]);
  const objectLeases = kept.leases.filter((l) => live.has(l.packageId));
  const types = typesByUser(objectLeases, typesByUser(d1Leases));
  const { users } = await userEntries(s.db, now, types);
  return {
    cursor: formatCursor({ seq: maxSeq, objectSeq: kept.maxSeq, at: now }),
    full: true,
    more: false,
    serverTime: now,
    leases: [...objectLeases.map(objectLease), ...d1Leases.map(toLease)],
    endedLeases: [],
    users,
    removedUsers: [],
    egress: await fullContractEgress(s.db),
  };
}

/**
 * Whether a cursor can be served as a delta: its time inside the feed retention and not in the future, its seq not
 * pruned away and not beyond the feed (another database). The object's seq is checked by the object (deltaContract).
 */
export async function cursorUsable(db: D1Database, cursor: Cursor, now: number): Promise<boolean> {
  if (cursor.at > now + PACKAGE_WINDOW_MARGIN_MS || cursor.at < now - FEED_RETENTION_MS) return false;
  const { minSeq, maxSeq } = await feedBounds(db);
  if (cursor.seq > maxSeq) return false;
  if (maxSeq === 0) return cursor.seq === 0;
  return cursor.seq >= minSeq - 1;
}

/**
 * The delta since `cursor` (which cursorUsable accepted), or null when the node's object has no such seq (then the
 * node needs a full snapshot). D1's feed gives the fixed allocations, the user changes and D1's own extraction leases;
 * the node's object the extraction leases kept since the cursor; packages that ended since the cursor's time end
 * their leases in both.
 */
export async function deltaContract(
  s: ContractStores,
  nodeId: number,
  cursor: Cursor,
  now: number,
): Promise<Contract | null> {
  const db = s.db;
  const { changes, maxSeq } = await feedAfter(db, nodeId, cursor.seq, DELTA_PAGE);
  const feedMore = changes.length === DELTA_PAGE;
  const pick = (k: FeedChange['kind']) => changes.filter((c) => c.kind === k).map((c) => c.ref);
  // While paging through a backlog (`more`), package endings wait for the last page, which carries the time.
  const packagesSince = feedMore ? null : cursor.at - PACKAGE_WINDOW_MARGIN_MS;
  const [touched, ended] = await Promise.all([
    leasesTouched(db, nodeId, now, { assignments: pick('a'), allocations: pick('f'), packagesSince }),
    packagesSince === null ? [] : packagesEndedSince(db, packagesSince, now),
  ]);
  const kept = await nodeLeases(s.nodes, nodeId).changes({
    after: cursor.objectSeq,
    now,
    limit: DELTA_PAGE,
    packageIds: ended,
    userIds: [...pick('u'), ...touched.map((l) => l.userId)],
  });
  if (kept === null) return null;
  const more = feedMore || kept.more;
  const live = await packagesStillLive(
    db,
    [...new Set([...kept.leases, ...kept.ofUsers].map((l) => l.packageId))],
    now,
  );
  const endedSet = new Set(ended);
  const isLive = (l: Pick<NodeLease, 'packageId'>) => live.has(l.packageId) && !endedSet.has(l.packageId);
  const affected = new Set<number>([
    ...pick('u'),
    ...touched.map((l) => l.userId),
    ...kept.leases.map((l) => l.userId),
    ...kept.ofPackages.map((l) => l.userId),
  ]);
  const liveUsers = typesByUser(kept.ofUsers.filter(isLive), await usersWithLiveLeases(db, nodeId, now, [...affected]));
  const { users, missing } = await userEntries(db, now, liveUsers);
  const removed = [...affected].filter((id) => !liveUsers.has(id)).concat(missing);
  // Rule changes are found by time like package endings (the same margin covers a write stamped before its commit).
  const egress = await contractEgress(db, cursor.at - PACKAGE_WINDOW_MARGIN_MS);
  const endedIds = new Set([
    ...touched.filter((l) => !l.live).map(leaseId),
    ...kept.ofPackages.map((l) => l.id),
    ...kept.leases.filter((l) => !isLive(l)).map((l) => l.id),
  ]);
  return {
    // A page cut short keeps the old time, so the next page still looks for package endings since then.
    cursor: formatCursor({
      seq: feedMore ? (changes.at(-1) as FeedChange).seq : Math.max(cursor.seq, maxSeq),
      objectSeq: kept.last,
      at: more ? cursor.at : now,
    }),
    full: false,
    more,
    serverTime: now,
    leases: [...kept.leases.filter(isLive).map(objectLease), ...touched.filter((l) => l.live).map(toLease)],
    endedLeases: [...endedIds],
    users,
    removedUsers: [...new Set(removed)].sort((a, b) => a - b),
    ...(egress ? { egress } : {}),
  };
}

/** The contract for a node: a delta when the cursor is usable, else a full snapshot. */
export async function nodeContract(
  s: ContractStores,
  nodeId: number,
  rawCursor: string | null,
  now: number,
): Promise<Contract> {
  const cursor = parseCursor(rawCursor);
  if (cursor !== null && (await cursorUsable(s.db, cursor, now))) {
    const delta = await deltaContract(s, nodeId, cursor, now);
    if (delta) return delta;
  }
  return fullContract(s, nodeId, now);
}

/**
 * Store a node's usage batch (decision 249): the node's object keeps the rows of the leases it holds, each on one lease
 * (idempotent by batch id: a batch sent again gets the object's first answer), then D1 takes, in one transaction marked
 * by the batch id, the object's hourly totals and the rows the object holds no lease for (fixed allocations, D1's
 * leases from before the objects). D1's marker makes the roll-up count once however often this runs; a call that dies
 * between the two stores is repaired by the node sending the batch again, or by the object's alarm (`repairUsage`).
 */
export async function storeUsageBatch(
  s: { db: D1Database; nodes: NodeLeasesNamespace },
  nodeId: number,
  b: UsageBatch,
  now: number,
): Promise<{ stored: number; duplicate: boolean; refused: number }> {
  const object = nodeLeases(s.nodes, nodeId);
  // Rows of fixed (dedicated) allocations are kept by the object under the allocation too (decision 252).
  const fixed = await fixedAllocationsOfUsage(s.db, nodeId, b, USAGE_LEASE_GRACE_MS);
  const kept = await object.ingestUsage(nodeId, b, USAGE_LEASE_GRACE_MS, now, fixed);
  const res = await insertUsageBatch(s.db, nodeId, { ...b, rows: kept.rest }, now, USAGE_LEASE_GRACE_MS, {
    stored: kept.stored,
    hours: kept.hours as UsageHour[],
  });
  await object.usageRolled(b.batchId);
  return res;
}

/** For each refused connection: the users the node's object says held that exit at that instant. */
export async function refusalHoldersInObject(
  nodes: NodeLeasesNamespace,
  nodeId: number,
  rows: { at: number; ip: string; port: number; userId: number | null }[],
): Promise<number[][]> {
  if (!rows.some((r) => r.userId === null)) return rows.map(() => []);
  return nodeLeases(nodes, nodeId).usersHolding(rows.map((r): [number, string, number] => [r.at, r.ip, r.port]));
}

/**
 * Store a node's refusal batch (decision 250) in the node's object, once by batch id; D1 only reads (which exits are
 * the node's, and who held an exit per its older leases and fixed allocations). A row naming a user is kept for that
 * user; a row naming nobody once per user holding the exit at that instant (D1's holders and the object's, attributed
 * 1), or once for nobody (user 0) when no one did. Rows for exits of other nodes are ignored.
 */
export async function storeRefusalBatch(
  s: { db: D1Database; nodes: NodeLeasesNamespace },
  nodeId: number,
  b: { batchId: string; rows: RefusalRow[] },
  now: number,
): Promise<{ stored: number; duplicate: boolean }> {
  const [inD1, inObject] = await Promise.all([
    refusalAttribution(s.db, nodeId, b.rows),
    refusalHoldersInObject(s.nodes, nodeId, b.rows),
  ]);
  const kept: KeptRefusal[] = b.rows.flatMap((r, k) => {
    if (!inD1[k]?.own) return [];
    const row = {
      at: r.at,
      lastAt: r.lastAt ?? r.at,
      count: r.count ?? 1,
      clientIp: r.clientIp,
      ip: r.ip,
      port: r.port,
      code: r.code,
    };
    if (r.userId !== null) return [{ ...row, userId: r.userId, attributed: 0 }];
    const holders = [...new Set([...(inD1[k]?.holders ?? []), ...(inObject[k] ?? [])])];
    return holders.length === 0
      ? [{ ...row, userId: 0, attributed: 0 }]
      : holders.map((userId) => ({ ...row, userId, attributed: 1 }));
  });
  return nodeLeases(s.nodes, nodeId).ingestRefusals(b.batchId, kept, now);
}

/**
 * A page of the refused connections attributed to a customer since `since`, newest first (decision 250): the node
 * objects' (one call per node: there are few) and D1's rows from before the switch, merged by time. Each store gives
 * its count and its newest `offset + limit` rows, so the page is exact.
 */
export async function customerRefusals(
  s: { db: D1Database; nodes: NodeLeasesNamespace },
  r: { userId: number; since: number; offset: number; limit: number },
): Promise<{ total: number; list: RefusalView[] }> {
  const want = r.offset + r.limit;
  const [older, inNodes] = await Promise.all([
    listUserRefusals(s.db, { userId: r.userId, since: r.since, offset: 0, limit: want }),
    nodeIds(s.db).then((ids) =>
      Promise.all(
        ids.map(async (nodeId) => {
          const found = await nodeLeases(s.nodes, nodeId).refusalsOf(r.userId, r.since, want);
          return {
            total: found.total,
            list: found.rows.map(
              (x): RefusalView => ({
                id: refusalNumber(nodeId, x.seq),
                at: x.at,
                lastAt: x.lastAt,
                count: x.count,
                clientIp: x.clientIp,
                ip: x.ip,
                port: x.port,
                code: x.code,
              }),
            ),
          };
        }),
      ),
    ),
  ]);
  const all = [older, ...inNodes];
  const list = all
    .flatMap((p) => p.list)
    .sort((a, b) => b.at - a.at || Math.abs(b.id) - Math.abs(a.id))
    .slice(r.offset, want);
  return { total: all.reduce((n, p) => n + p.total, 0), list };
}
