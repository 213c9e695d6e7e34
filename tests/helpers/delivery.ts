// Fixtures for the delivery suites: users with an extraction key, packages, white-list entries and the pool (nodes,
// exits), inserted directly so each test states exactly the quota and pool it races for; and the named, typed reads and
// forced states those suites check: leases, fixed allocations, extraction logs, rate windows, keys and scratch, the
// node feed, usage, refusals and secrets, the archive, retention runs, the egress policy, query plans. Accounts, audit,
// trust and package facts live in their own modules (accounts.ts, operators.ts, trust.ts, money.ts). SQL in tests lives
// in tests/helpers only: a suite calls a fixture named for what it does, with the stored states by their names.
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { PACKAGE_STATE, type PackageState } from '../../src/lib/package-states';
import { shanghaiDay } from '../../src/lib/time';
import type { CandidateFilter, OneBatchCall } from '../../src/server/db/extract';
import type { ExtractLogRow } from '../../src/server/db/records';
import { signNodeRequest } from '../../src/server/domain/node-auth';
import { regionKey } from '../../src/server/domain/regions';
import { customerRecords, type Receipt, type ReceiptBody } from '../../src/server/objects/customer-records';
import { leasesByNode, type NodeLease, nodeLeases } from '../../src/server/objects/node-leases';
import { giveExtractionKey } from './accounts';
import { BASE } from './api';
import { objectRows } from './receipts';
import { count, when } from './rows';

let seq = 0;

/** A user with an extraction key (stored as its hash, as the Worker stores it); returns the id and the key. */
export async function makeUser(opts: { rateLimit?: number } = {}): Promise<{ id: number; key: string; phone: string }> {
  seq++;
  const phone = `1390000${String(seq).padStart(4, '0')}`;
  const now = Date.now();
  const user = await env.DB.prepare(
    'INSERT INTO users (phone, is_identity_auth, created_at, updated_at) VALUES (?, 1, ?, ?) RETURNING id',
  )
    .bind(phone, now, now)
    .first<{ id: number }>();
  const id = user?.id ?? 0;
  const key = `testkey${String(id).padStart(6, '0')}${'x'.repeat(19)}`;
  await giveExtractionKey(id, key, { rateLimit: opts.rateLimit ?? 10 });
  return { id, key, phone };
}

export interface PackageSpec {
  type?: 10 | 30 | 40;
  billing?: 1 | 2;
  remaining?: number;
  dailyLimit?: number;
  usedToday?: number;
  usageDay?: string;
  minutes?: number;
  expiresAt?: number;
  state?: PackageState;
  ipCount?: number;
}

/** A package for a user; returns its id. */
export async function makePackage(userId: number, p: PackageSpec = {}): Promise<number> {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
       remaining_count, daily_limit, used_today, usage_day, ip_count, starts_at, expires_at, state, source, created_at, updated_at)
     VALUES (?, ?, ?, 'test', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'demo', ?, ?) RETURNING id`,
  )
    .bind(
      userId,
      p.type ?? 10,
      p.billing ?? 1,
      p.minutes ?? 5,
      p.remaining ?? 100,
      p.remaining ?? 100,
      p.dailyLimit ?? 0,
      p.usedToday ?? 0,
      p.usageDay ?? '',
      p.ipCount ?? 0,
      now - 60_000,
      p.expiresAt ?? now + 86_400_000,
      p.state ?? PACKAGE_STATE.active,
      now,
      now,
    )
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/** A white-list entry. */
export async function allowIp(userId: number, ip: string, opts: { enabled?: boolean; expiresAt?: number } = {}) {
  const now = Date.now();
  await env.DB.prepare(
    'INSERT INTO white_list (user_id, ip, enabled, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
    .bind(userId, ip, opts.enabled === false ? 0 : 1, opts.expiresAt ?? 0, now, now)
    .run();
}

export interface IpSpec {
  ip: string;
  pool?: 10 | 30 | 40;
  province?: string;
  city?: string;
  carrier?: '电信' | '联通' | '移动';
  protocols?: number;
  ttlSeconds?: number;
  /** The node the exit is on (1 unless told). */
  node?: number;
  /** The exit's port (40000 + its place in the list unless told). */
  port?: number;
  /** When it leaves the pool (now + ttlSeconds unless told). */
  expiresAt?: number;
  /** Healthy unless told. */
  healthy?: boolean;
  /** When its node last reported it (now unless told; 0: never checked yet). */
  checkedAt?: number;
}

/** The INSERT of one pool IP (its place in a list gives its default port). */
const exitStatement = (s: IpSpec, place: number, now: number) =>
  env.DB.prepare(
    `INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key, carrier,
       expires_at, healthy, checked_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).bind(
    s.node ?? 1,
    s.pool ?? 10,
    s.ip,
    s.port ?? 40000 + place,
    s.protocols ?? 7,
    s.province ?? '广东省',
    s.city ?? '深圳市',
    regionKey(s.province ?? '广东省'),
    regionKey(s.city ?? '深圳市'),
    s.carrier ?? '电信',
    s.expiresAt ?? now + (s.ttlSeconds ?? 3600) * 1000,
    s.healthy === false ? 0 : 1,
    s.checkedAt ?? now,
    now,
  );

/** A node (id 1, secret known to the tests) and pool IPs. */
export async function addPool(ips: IpSpec[]): Promise<void> {
  await addNode(1, 'n1', NODE_SECRET);
  if (ips.length === 0) return;
  const now = Date.now();
  await env.DB.batch(ips.map((s, i) => exitStatement(s, i, now)));
}

/** A node with its (plain) secret, unless one with that id exists; `status` 1 on, 0 off. */
export async function addNode(
  id: number,
  name: string,
  secret: string,
  o: { status?: 0 | 1; createdAt?: number } = {},
) {
  await env.DB.prepare(
    'INSERT INTO proxy_nodes (id, name, secret, status, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING',
  )
    .bind(id, name, secret, o.status ?? 1, o.createdAt ?? Date.now())
    .run();
}

/** One exit (default: node 1, pool 10, port 40000, Shenzhen, healthy, a day to live); returns its id. */
export async function addExit(s: IpSpec): Promise<number> {
  const row = await exitStatement({ ttlSeconds: 86_400, ...s }, 0, Date.now()).first<{ id: number }>();
  return row?.id ?? 0;
}

/** How many proxy nodes are registered. */
export const nodeCount = () => count('proxy_nodes');

/** Every node claims the given contract version (ignored where the column does not exist). */
export async function setNodesContractVersion(version: number): Promise<void> {
  await env.DB.prepare('UPDATE proxy_nodes SET contract_version = ?')
    .bind(version)
    .run()
    .catch(() => undefined);
}

/** n pool IPs 203.0.113.1.. in Shenzhen. */
export const simplePool = (n: number, from = 1) =>
  addPool(Array.from({ length: n }, (_, i) => ({ ip: `203.0.113.${from + i}` })));

export const NODE_SECRET = 'test-node-secret-0123456789abcdef';

/** GET /extract with a query and caller IP. */
export async function extractCall(query: Record<string, string | number>, ip = '192.0.2.50') {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await SELF.fetch(`${BASE}/extract?${qs}`, { headers: { 'cf-connecting-ip': ip } });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

/**
 * What a plain `/extract` call (type 10, http, no package, no min_ttl) passes to extractInOneBatch for `filter` at
 * `now` from `callerIp`, for the tests that call the batch directly.
 */
export const oneBatchCall = (filter: CandidateFilter, now: number, callerIp = '192.0.2.50'): OneBatchCall => ({
  second: Math.floor(now / 1000),
  callerIp,
  productType: 10,
  packageId: null,
  now,
  day: shanghaiDay(now),
  protocol: 'http',
  query: '',
  requested: filter.limit,
  minTtlSeconds: 0,
  filter,
});

/** A signed node call. */
export async function nodeCall(
  method: 'GET' | 'POST',
  path: string,
  body = '',
  opts: { secret?: string; nodeId?: number; headers?: Record<string, string>; timestamp?: number } = {},
) {
  const timestamp = String(opts.timestamp ?? Date.now());
  const signature = await signNodeRequest(opts.secret ?? NODE_SECRET, { method, path, timestamp, body });
  return SELF.fetch(`${BASE}${path}`, {
    method,
    headers: {
      'x-node-id': String(opts.nodeId ?? 1),
      'x-node-timestamp': timestamp,
      'x-node-signature': signature,
      'content-type': 'application/json',
      ...opts.headers,
    },
    ...(method === 'POST' ? { body } : {}),
  });
}

// ---- Packages (what extraction reads of them; their money facts: money.ts) ----

/** The count left in all packages of a user, or of every package when no user is named. */
export async function remainingCount(userId?: number): Promise<number> {
  const row = await (userId === undefined
    ? env.DB.prepare('SELECT coalesce(sum(remaining_count), 0) AS n FROM proxy_packages')
    : env.DB.prepare('SELECT coalesce(sum(remaining_count), 0) AS n FROM proxy_packages WHERE user_id = ?').bind(userId)
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Move a package's end to `at` (just past by default): it has reached its end, no job has run yet. */
export async function endPackageAt(id: number, at = Date.now() - 1): Promise<void> {
  await env.DB.prepare('UPDATE proxy_packages SET expires_at = ? WHERE id = ?').bind(at, id).run();
}

/** Set the Shanghai day a package's daily count belongs to (an old day: the count starts afresh today). */
export async function setUsageDay(id: number, day: string): Promise<void> {
  await env.DB.prepare('UPDATE proxy_packages SET usage_day = ? WHERE id = ?').bind(day, id).run();
}

// ---- The pool ----

/** An exit as stored. */
export interface ExitFacts {
  id: number;
  nodeId: number;
  pool: number;
  port: number;
  province: string;
  healthy: boolean;
  expiresAt: number;
  /** The protocols it serves, as the node's bit mask. */
  protocols: number;
}

/** The exit with address `ip`, or null. */
export async function exitFacts(ip: string): Promise<ExitFacts | null> {
  const row = await env.DB.prepare(
    `SELECT id, node_id AS nodeId, pool, port, province, healthy, expires_at AS expiresAt, protocols FROM proxy_ips
     WHERE ip = ?`,
  )
    .bind(ip)
    .first<Omit<ExitFacts, 'healthy'> & { healthy: number }>();
  return row ? { ...row, healthy: row.healthy === 1 } : null;
}

/** The id of the exit `ip` (throws when there is none). */
export async function exitId(ip: string): Promise<number> {
  const exit = await exitFacts(ip);
  if (!exit) throw new Error(`no exit ${ip}`);
  return exit.id;
}

/** How many healthy exits a node has. */
export const healthyExitCount = (nodeId: number) =>
  count('proxy_ips', [when('node_id = ?', nodeId), ['healthy = 1', []]]);

/** Every pool IP, in id order. */
export async function poolExits(): Promise<{ id: number; ip: string }[]> {
  return (await env.DB.prepare('SELECT id, ip FROM proxy_ips ORDER BY id').all<{ id: number; ip: string }>()).results;
}

/** How many different random keys the pool's IPs carry. */
export async function distinctRandomKeys(): Promise<number> {
  return (await env.DB.prepare('SELECT count(DISTINCT rnd) AS n FROM proxy_ips').first<{ n: number }>())?.n ?? 0;
}

/** Mark an exit healthy or unhealthy, as a node's health check would. */
export async function setExitHealthy(ip: string, healthy: boolean): Promise<void> {
  await env.DB.prepare('UPDATE proxy_ips SET healthy = ? WHERE ip = ?')
    .bind(healthy ? 1 : 0, ip)
    .run();
}

/** Set when an exit (or every exit) was last reported by its node. */
export async function setExitLastSeen(at: number, ip?: string): Promise<void> {
  await (ip === undefined
    ? env.DB.prepare('UPDATE proxy_ips SET checked_at = ?').bind(at)
    : env.DB.prepare('UPDATE proxy_ips SET checked_at = ? WHERE ip = ?').bind(at, ip)
  ).run();
}

/** Move every pool IP into `pool` (and give them `expiresAt` when told). */
export async function moveWholePool(pool: 10 | 30 | 40, expiresAt?: number): Promise<void> {
  await (expiresAt === undefined
    ? env.DB.prepare('UPDATE proxy_ips SET pool = ?').bind(pool)
    : env.DB.prepare('UPDATE proxy_ips SET pool = ?, expires_at = ?').bind(pool, expiresAt)
  ).run();
}

// ---- Leases (extraction assignments) ----

export interface LeaseSpec {
  userId: number;
  /** 1 unless told. */
  packageId?: number;
  /** The pool IP's id; found from `ip` when left out. */
  ipId?: number;
  /** The address; the pool IP's when left out. */
  ip?: string;
  /** The port; the pool IP's when left out. */
  port?: number;
  productType?: 10 | 30 | 40;
  region?: string;
  /** The Shanghai day of the extraction; that of `from` when left out. */
  day?: string;
  from: number;
  to: number;
}

/** Record leases as extractions would have written them (http, 电信). */
export async function addLeases(specs: LeaseSpec[]): Promise<void> {
  await leaseInsert(specs).run();
}

/** One lease; returns its id. */
export async function addLease(spec: LeaseSpec): Promise<number> {
  return (await leaseInsert([spec]).first<{ id: number }>())?.id ?? 0;
}

const leaseInsert = (specs: LeaseSpec[]) =>
  env.DB.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day,
       assigned_at, expires_at)
     SELECT j.value ->> 'userId', j.value ->> 'packageId', coalesce(j.value ->> 'ipId', i.id), j.value ->> 'productType',
       coalesce(j.value ->> 'ip', i.ip), coalesce(j.value ->> 'port', i.port), 'http', j.value ->> 'region', '电信',
       j.value ->> 'day', j.value ->> 'from', j.value ->> 'to'
     FROM json_each(?1) j
       LEFT JOIN proxy_ips i ON i.id = j.value ->> 'ipId' OR (j.value ->> 'ipId' IS NULL AND i.ip = j.value ->> 'ip')
     ORDER BY j.key
     RETURNING id`,
  ).bind(
    JSON.stringify(
      specs.map((s) => ({
        packageId: 1,
        productType: 10,
        region: '广东省深圳市',
        day: shanghaiDay(s.from),
        ...s,
      })),
    ),
  );

/** `n` one-minute leases of one exit (203.0.113.9:40000) for a user, the i-th (1-based) from `from + i`. */
export async function addMinuteLeases(userId: number, n: number, from: number): Promise<void> {
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
     INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day,
                                 assigned_at, expires_at)
     SELECT ?1, 1, 1, 10, '203.0.113.9', 40000, 'http', '广东省深圳市', '电信', ?4, ?3 + i, ?3 + i + 60000
     FROM s`,
  )
    .bind(userId, n, from, shanghaiDay(from))
    .run();
}

/** How many leases there are (of a user, of a package, or all): D1's older rows and the customers' objects'. */
export async function leaseCount(where: { userId?: number; packageId?: number } = {}): Promise<number> {
  const row = await env.DB.prepare(
    'SELECT count(*) AS n FROM ip_assignments WHERE (?1 IS NULL OR user_id = ?1) AND (?2 IS NULL OR package_id = ?2)',
  )
    .bind(where.userId ?? null, where.packageId ?? null)
    .first<{ n: number }>();
  const kept = await objectRows<{ n: number }>(
    'SELECT count(*) AS n FROM leases WHERE (?1 IS NULL OR package_id = ?1)',
    [where.packageId ?? null],
    where.userId === undefined ? undefined : [where.userId],
  );
  return (row?.n ?? 0) + kept.reduce((s, r) => s + Number(r.n), 0);
}

/** The leases of a user: address and length (D1's older rows first, then the object's, each in order). */
export async function leasesOf(userId: number): Promise<{ ip: string; packageId: number; lengthMs: number }[]> {
  const legacy = (
    await env.DB.prepare(
      'SELECT ip, package_id AS packageId, expires_at - assigned_at AS lengthMs FROM ip_assignments WHERE user_id = ? ORDER BY id',
    )
      .bind(userId)
      .all<{ ip: string; packageId: number; lengthMs: number }>()
  ).results;
  const kept = await objectRows<{ ip: string; packageId: number; lengthMs: number }>(
    'SELECT ip, package_id AS packageId, expires_at - assigned_at AS lengthMs FROM leases ORDER BY id',
    [],
    [userId],
  );
  return [...legacy, ...kept.map(({ ip, packageId, lengthMs }) => ({ ip, packageId, lengthMs }))];
}

/** Tell the nodes about a lease, as an extraction announces the leases it wrote. */
export async function announceLease(leaseId: number): Promise<void> {
  await leaseAnnouncement(leaseId).run();
}

const leaseAnnouncement = (leaseId: number) =>
  env.DB.prepare("INSERT INTO node_changes (kind, ref, node_id, created_at) VALUES ('a', ?, NULL, ?)").bind(
    leaseId,
    Date.now(),
  );

/** Cut a lease short: its end moved to `at` and the nodes told in the same batch. */
export async function cutLeaseShort(leaseId: number, at: number): Promise<void> {
  await env.DB.batch([
    env.DB.prepare('UPDATE ip_assignments SET expires_at = ? WHERE id = ?').bind(at, leaseId),
    leaseAnnouncement(leaseId),
  ]);
}

/** Move every lease to an old Shanghai day (yesterday's extractions, as far as the daily dedup goes). */
export async function moveLeasesToDay(day: string): Promise<void> {
  await env.DB.prepare('UPDATE ip_assignments SET day = ?').bind(day).run();
  await objectRows('UPDATE leases SET day = ?', [day]);
}

/** End the first `n` leases (their IPs are free again for the holder's "not in use" dedup). */
export async function endFirstLeases(n: number): Promise<void> {
  const ended = await env.DB.prepare(
    'UPDATE ip_assignments SET expires_at = 0 WHERE id IN (SELECT id FROM ip_assignments ORDER BY id LIMIT ?)',
  )
    .bind(n)
    .run();
  // Then the customers' objects (each user's first leases, users in id order), for the rest.
  let left = n - ended.meta.changes;
  for (const { userId } of await objectRows<{ n: number }>('SELECT 1 AS n', [])) {
    if (left <= 0) break;
    const rows = await objectRows<{ id: number }>(
      'UPDATE leases SET expires_at = 0 WHERE id IN (SELECT id FROM leases ORDER BY id LIMIT ?) RETURNING id',
      [left],
      [userId],
    );
    left -= rows.length;
  }
}

/** Forget the leases written by charged calls (they carry a log id), leaving the ones recorded by hand. */
export async function forgetChargedLeases(): Promise<void> {
  await env.DB.prepare('DELETE FROM ip_assignments WHERE log_id IS NOT NULL').run();
}

/** How many of a user's leases were written by a logged call charged to the lease's own package. */
export async function leasesChargedToTheirPackage(userId: number): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT count(*) AS n FROM ip_assignments a JOIN extract_logs l ON l.id = a.log_id
     WHERE a.user_id = ? AND l.package_id = a.package_id`,
  )
    .bind(userId)
    .first<{ n: number }>();
  const kept = await objectRows<{ n: number }>(
    'SELECT count(*) AS n FROM leases a JOIN logs l ON l.id = a.log_id WHERE l.package_id = a.package_id',
    [],
    [userId],
  );
  return (row?.n ?? 0) + Number(kept[0]?.n ?? 0);
}

// ---- Leases in the node objects (decision 245) ----

/**
 * STAND-IN for the customer object's forward (decision 243 item 2, the lead's part): the receipts still in D1 are
 * kept by their customers' objects (`customerRecords(…).record`, idempotent) and each call's leases by the objects
 * of their exits' nodes (`nodeLeases(…).keep`), as the forward will do. Call it right after the extraction (the
 * receipts leave D1 about 0.75 s later). Returns how many leases the node objects took as new (0 for those the
 * forward, once built, has already delivered).
 */
export async function handOverReceiptsToNodes(): Promise<number> {
  const { results } = await env.DB.prepare(
    'SELECT id, user_id, created_at, body FROM extract_receipts ORDER BY id',
  ).all<{ id: number; user_id: number; created_at: number; body: string }>();
  let fresh = 0;
  for (const row of results) {
    const receipt: Receipt = {
      id: row.id,
      userId: row.user_id,
      createdAt: row.created_at,
      body: JSON.parse(row.body) as ReceiptBody,
    };
    await customerRecords(env.CUSTOMER_RECORDS, receipt.userId).record([receipt]);
    for (const [nodeId, leases] of leasesByNode(receipt)) fresh += await keepNodeLeases(nodeId, leases);
  }
  return fresh;
}

/** Hand leases to a node's object (as the customer object's forward does); returns how many were new. */
export const keepNodeLeases = (nodeId: number, leases: NodeLease[]): Promise<number> =>
  nodeLeases(env.NODE_LEASES, nodeId).keep(leases);

/**
 * Empty the node objects of these nodes (the suites reset D1 before each test; the objects keep their storage for the
 * whole file). Their seq goes on, as after a trim.
 */
export async function forgetNodeLeases(...nodeIds: number[]): Promise<void> {
  for (const id of nodeIds) {
    await runInDurableObject(nodeLeases(env.NODE_LEASES, id), (_, state) => {
      state.storage.sql.exec('DELETE FROM leases');
      state.storage.sql.exec('DELETE FROM lease_usage');
      state.storage.sql.exec('DELETE FROM usage_batches');
      state.storage.sql.exec('DELETE FROM refusals');
      state.storage.sql.exec('DELETE FROM refusal_batches');
      state.storage.sql.exec('DELETE FROM fixed_usage');
    });
  }
}

/** A refusal row as a node's object keeps it: one client, exit, customer and code, `count` times (decision 251). */
export type NodeRefusalRow = {
  userId: number;
  attributed: number;
  clientIp: string;
  ip: string;
  code: string;
  count: number;
};

/** The fixed allocations' usage a node's object keeps (decision 252): per allocation, day and client address. */
export async function nodeFixedUsageRows(
  nodeId: number,
): Promise<
  { allocationId: number; dayStart: number; userId: number; clientIp: string; bytesIn: number; bytesOut: number }[]
> {
  return runInDurableObject(nodeLeases(env.NODE_LEASES, nodeId), (_, state) =>
    state.storage.sql
      .exec<{
        allocationId: number;
        dayStart: number;
        userId: number;
        clientIp: string;
        bytesIn: number;
        bytesOut: number;
      }>(
        `SELECT allocation_id AS allocationId, day_start AS dayStart, user_id AS userId, client_ip AS clientIp,
                bytes_in AS bytesIn, bytes_out AS bytesOut
         FROM fixed_usage ORDER BY allocation_id, day_start, client_ip`,
      )
      .toArray(),
  );
}

/** The refusals a node's object keeps (decision 250), oldest first. */
export async function nodeRefusalRows(nodeId: number): Promise<NodeRefusalRow[]> {
  return runInDurableObject(nodeLeases(env.NODE_LEASES, nodeId), (_, state) =>
    state.storage.sql
      .exec<NodeRefusalRow>(
        `SELECT user_id AS userId, attributed, client_ip AS clientIp, ip, code, count FROM refusals ORDER BY at, seq`,
      )
      .toArray(),
  );
}

/** The usage a node's object keeps (decision 249): per lease and client address, by lease id then client. */
export async function nodeUsageRows(
  nodeId: number,
): Promise<{ leaseId: string; clientIp: string; bytesIn: number; bytesOut: number; connections: number }[]> {
  return runInDurableObject(nodeLeases(env.NODE_LEASES, nodeId), (_, state) =>
    state.storage.sql
      .exec<{ leaseId: string; clientIp: string; bytesIn: number; bytesOut: number; connections: number }>(
        `SELECT lease_id AS leaseId, client_ip AS clientIp, bytes_in AS bytesIn, bytes_out AS bytesOut, connections
         FROM lease_usage ORDER BY lease_id, client_ip`,
      )
      .toArray(),
  );
}

/** The usage batches a node's object remembers and whether their D1 step is confirmed. */
export async function nodeUsageBatches(nodeId: number): Promise<{ batchId: string; rolled: number }[]> {
  return runInDurableObject(nodeLeases(env.NODE_LEASES, nodeId), (_, state) =>
    state.storage.sql
      .exec<{ batchId: string; rolled: number }>(
        'SELECT batch_id AS batchId, rolled FROM usage_batches ORDER BY batch_id',
      )
      .toArray(),
  );
}

/** Backdate a node object's usage batches (so the alarm's repair takes those whose D1 step never ran). */
export async function backdateNodeUsageBatches(nodeId: number, ms: number): Promise<void> {
  await runInDurableObject(nodeLeases(env.NODE_LEASES, nodeId), (_, state) => {
    state.storage.sql.exec('UPDATE usage_batches SET received_at = received_at - ?', ms);
  });
}

/** Run a node object's alarm now (it trims leases past the hot window); false when none was set. */
export const runNodeLeasesAlarm = (nodeId: number): Promise<boolean> =>
  runDurableObjectAlarm(nodeLeases(env.NODE_LEASES, nodeId));

let nodeLeaseSeq = 0;

/** A lease of a user's package on an exit, as the node object holds it (id `r<n>.0`, unique in the test file). */
export function nodeLease(l: Omit<NodeLease, 'id' | 'ipId'> & { ipId?: number }): NodeLease {
  nodeLeaseSeq += 1;
  return { id: `r${900_000 + nodeLeaseSeq}.0`, ipId: 0, ...l };
}

// ---- Fixed (dedicated) allocations ----

/**
 * Allocate pool IPs (the one at `ip`, or every pool IP) to a package from `allocatedAt` until `expiresAt` (the
 * package's end when left out), with a remark.
 */
export async function allocateFixed(a: {
  userId: number;
  packageId: number;
  ip?: string;
  remark?: string;
  allocatedAt: number;
  expiresAt?: number;
}): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier, remark, allocated_at,
       expires_at)
     SELECT ?1, ?2, id, ip, port, province, city, carrier, ?3, ?4,
       coalesce(?5, (SELECT expires_at FROM proxy_packages WHERE id = ?2)) FROM proxy_ips WHERE ?6 IS NULL OR ip = ?6`,
  )
    .bind(a.userId, a.packageId, a.remark ?? '', a.allocatedAt, a.expiresAt ?? null, a.ip ?? null)
    .run();
}

/** A user's (first) fixed allocation: its id and exit port; null when there is none. */
export async function fixedAllocationOf(userId: number): Promise<{ id: number; port: number } | null> {
  return env.DB.prepare('SELECT id, port FROM fixed_allocations WHERE user_id = ? ORDER BY id LIMIT 1')
    .bind(userId)
    .first<{ id: number; port: number }>();
}

/** A live (unreleased) fixed allocation. */
export interface LiveAllocation {
  packageId: number;
  ip: string;
  city: string;
  remark: string;
  expiresAt: number;
}

/** The live allocations (of one package, or all), in id order. */
export async function liveAllocations(packageId?: number): Promise<LiveAllocation[]> {
  return (
    await env.DB.prepare(
      `SELECT package_id AS packageId, ip, city, remark, expires_at AS expiresAt FROM fixed_allocations
       WHERE released_at = 0 AND (?1 IS NULL OR package_id = ?1) ORDER BY id`,
    )
      .bind(packageId ?? null)
      .all<LiveAllocation>()
  ).results;
}

/** How many allocations (live and released, or only one of them) a user, a package or an address has had, or all. */
export const allocationCount = (
  where: { userId?: number; packageId?: number; ip?: string; released?: boolean } = {},
): Promise<number> =>
  count('fixed_allocations', [
    when('user_id = ?', where.userId),
    when('package_id = ?', where.packageId),
    when('ip = ?', where.ip),
    where.released === undefined ? undefined : [where.released ? 'released_at > 0' : 'released_at = 0', []],
  ]);

// ---- Extraction calls, rate and scratch ----

/** An extraction call as logged. */
export interface ExtractLogFacts extends Omit<ExtractLogRow, 'id' | 'productType'> {
  userId: number;
}

/** The logged extraction calls (of a user, a package or a calling IP, or all): D1's older rows and the objects'. */
export async function extractLogs(
  where: { userId?: number; packageId?: number; clientIp?: string } = {},
): Promise<ExtractLogFacts[]> {
  const legacy = (
    await env.DB.prepare(
      `SELECT user_id AS userId, package_id AS packageId, client_ip AS clientIp, requested, returned, code, query,
         created_at AS createdAt FROM extract_logs
       WHERE (?1 IS NULL OR user_id = ?1) AND (?2 IS NULL OR package_id = ?2) AND (?3 IS NULL OR client_ip = ?3)
       ORDER BY id`,
    )
      .bind(where.userId ?? null, where.packageId ?? null, where.clientIp ?? null)
      .all<ExtractLogFacts>()
  ).results;
  const kept = await objectRows<Omit<ExtractLogFacts, 'userId'>>(
    `SELECT package_id AS packageId, client_ip AS clientIp, requested, returned, code, query, created_at AS createdAt
     FROM logs WHERE (?1 IS NULL OR package_id = ?1) AND (?2 IS NULL OR client_ip = ?2) ORDER BY created_at, id`,
    [where.packageId ?? null, where.clientIp ?? null],
    where.userId === undefined ? undefined : [where.userId],
  );
  const mine = kept.map(({ userId, packageId, clientIp, requested, returned, code, query, createdAt }) => ({
    userId,
    packageId,
    clientIp,
    requested,
    returned,
    code,
    query,
    createdAt,
  }));
  return [...legacy, ...mine.sort((a, b) => a.createdAt - b.createdAt)];
}

/** Log `n` extraction calls of user 1 from 192.0.2.1 dated `at` (written 100 to a batch). */
export async function addExtractLogs(n: number, at: number): Promise<void> {
  const stmts = Array.from({ length: n }, () =>
    env.DB.prepare(
      "INSERT INTO extract_logs (user_id, client_ip, requested, returned, code, created_at) VALUES (1, '192.0.2.1', 1, 1, 0, ?)",
    ).bind(at),
  );
  for (let i = 0; i < stmts.length; i += 100) await env.DB.batch(stmts.slice(i, i + 100));
}

/** The per-user rate windows: the calls counted in each user's current window (user 0: the benchmark D1 floor's writes). */
export async function rateWindows(): Promise<{ userId: number; count: number }[]> {
  const { results } = await env.DB.prepare('SELECT user_id AS userId, count FROM extract_rate ORDER BY user_id').all<{
    userId: number;
    count: number;
  }>();
  return results;
}

/** The calls a user has made in the current rate window (0 without a window). */
export const rateWindowCount = async (userId: number): Promise<number> =>
  (await rateWindows()).find((w) => w.userId === userId)?.count ?? 0;

/** Fill a user's rate window: `count` calls counted in a window that lasts until `untilSecond`. */
export async function fillRateWindow(userId: number, count: number, untilSecond: number): Promise<void> {
  await env.DB.prepare('UPDATE extract_rate SET window_sec = ?, count = ? WHERE user_id = ?')
    .bind(untilSecond, count, userId)
    .run();
}

/** Wrong keys counted against a calling IP (0 when none). */
export async function keyFailures(clientIp: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count AS n FROM extract_key_failures WHERE client_ip = ?')
    .bind(clientIp)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** How many extraction tokens have been spent. */
export async function spentTokenCount(): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM extract_token_uses').first<{ n: number }>())?.n ?? 0;
}

/** The scratch rows of extraction batches (picks and charges) left behind. */
export async function scratchRowCount(): Promise<number> {
  const row = await env.DB.prepare(
    'SELECT (SELECT count(*) FROM extract_picks) + (SELECT count(*) FROM extract_charges) AS n',
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

/** The picks one draw left in the scratch table: all of them and the chosen ones. */
export async function picksOf(callId: string): Promise<{ all: number; chosen: number }> {
  const row = await env.DB.prepare(
    'SELECT count(*) AS "all", coalesce(sum(chosen = 1), 0) AS chosen FROM extract_picks WHERE call_id = ?',
  )
    .bind(callId)
    .first<{ all: number; chosen: number }>();
  return row ?? { all: 0, chosen: 0 };
}

/**
 * Run draw statements (drawStatement) in one batch and return the pool IP ids each chose; their scratch rows are
 * cleared in the same batch unless `keepPicks`.
 */
export async function runDraws(draws: D1PreparedStatement[], o: { keepPicks?: boolean } = {}): Promise<number[][]> {
  const results = await env.DB.batch<{ ip_id: number }>([
    ...draws,
    ...(o.keepPicks ? [] : [env.DB.prepare('DELETE FROM extract_picks')]),
  ]);
  return results.slice(0, draws.length).map((r) => r.results.map((x) => x.ip_id));
}

/** Clear the draw scratch table. */
export async function clearPicks(): Promise<void> {
  await env.DB.prepare('DELETE FROM extract_picks').run();
}

// ---- What the nodes hear and send ----

/** Rows in the node change feed (of a kind: 'a' leases, 'f' fixed allocations, 'u' customers, 'p' policy; about one
 * ref when named). */
export const feedCount = (kind?: 'a' | 'f' | 'u' | 'p', ref?: number) =>
  count('node_changes', [when('kind = ?', kind), when('ref = ?', ref)]);

/** A stored usage row (usage v2). */
export interface UsageFacts {
  userId: number;
  ip: string;
  bytesIn: number;
  bytesOut: number;
  connections: number;
}

/** The stored usage rows (of one user, or all), in id order. */
export async function usageRows(userId?: number): Promise<UsageFacts[]> {
  return (
    await env.DB.prepare(
      `SELECT user_id AS userId, ip, bytes_in AS bytesIn, bytes_out AS bytesOut, connections FROM node_usage
       WHERE ?1 IS NULL OR user_id = ?1 ORDER BY id`,
    )
      .bind(userId ?? null)
      .all<UsageFacts>()
  ).results;
}

/** Usage node 1 reported for a user's traffic through `ip:port` from `client`. */
export interface UsageSpec {
  userId: number;
  ip: string;
  port: number;
  client: string;
  /** The period's start. */
  at: number;
  /** The period's end (10 s after `at` unless told). */
  periodEnd?: number;
  /** When the Worker received it (15 s after `at` unless told). */
  receivedAt?: number;
  bytesIn: number;
  bytesOut?: number;
  /** 3 unless told. */
  connections?: number;
  /** 'b' unless told. */
  batchId?: string;
}

/** Store a usage row straight away, past the bounds the usage route checks (so also rows from before them). */
export async function addUsage(r: UsageSpec): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO node_usage (node_id, batch_id, user_id, ip, port, client_ip, period_start, period_end, bytes_in,
                             bytes_out, connections, received_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      r.batchId ?? 'b',
      r.userId,
      r.ip,
      r.port,
      r.client,
      r.at,
      r.periodEnd ?? r.at + 10_000,
      r.bytesIn,
      r.bytesOut ?? 0,
      r.connections ?? 3,
      r.receivedAt ?? r.at + 15_000,
    )
    .run();
}

/** A refusal node 1 reported at `at` for a connection to `ip`:40000 named to a user (not attributed). */
export async function addRefusal(userId: number, ip: string, at: number): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO node_refusals (node_id, batch_id, at, client_ip, ip, port, user_id, attributed, code, received_at)
     VALUES (1, 'r', ?, '198.51.100.77', ?, 40000, ?, 0, 'not_allowed', ?)`,
  )
    .bind(at, ip, userId, at)
    .run();
}

/** How many rows each delivery history table holds (hot data). */
export async function historyCounts(): Promise<{
  leases: number;
  calls: number;
  usage: number;
  refusals: number;
  exits: number;
  batches: number;
}> {
  const row = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM ip_assignments) AS leases, (SELECT count(*) FROM extract_logs) AS calls,
       (SELECT count(*) FROM node_usage) AS usage, (SELECT count(*) FROM node_refusals) AS refusals,
       (SELECT count(*) FROM proxy_ips) AS exits, (SELECT count(*) FROM node_batches) AS batches`,
  ).first<{ leases: number; calls: number; usage: number; refusals: number; exits: number; batches: number }>();
  if (!row) throw new Error('no counts');
  return row;
}

/** A node's stored secrets: the current one and the previous one with the end of its grace. */
export async function nodeSecrets(
  id: number,
): Promise<{ secret: string; previousSecret: string; previousUntil: number } | null> {
  return env.DB.prepare(
    'SELECT secret, previous_secret AS previousSecret, previous_until AS previousUntil FROM proxy_nodes WHERE id = ?',
  )
    .bind(id)
    .first<{ secret: string; previousSecret: string; previousUntil: number }>();
}

// ---- The archive ----

/** How many archive objects are recorded (one key, or all). */
export async function archiveObjectCount(key?: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM archive_objects WHERE ?1 IS NULL OR key = ?1')
    .bind(key ?? null)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The rows the archive object `key` holds (-1 when it is not recorded). */
export async function archiveObjectRows(key: string): Promise<number> {
  const row = await env.DB.prepare('SELECT rows AS n FROM archive_objects WHERE key = ?')
    .bind(key)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

// ---- Retention of the delivery history (and login attempts) ----

export interface RetentionRun {
  retentionDays: number;
  rowsRemoved: number;
  finishedAt: number | null;
}

/** The newest retention run as recorded. */
export async function latestRetentionRun(): Promise<RetentionRun | null> {
  return env.DB.prepare(
    'SELECT retention_days AS retentionDays, rows_removed AS rowsRemoved, finished_at AS finishedAt FROM retention_runs ORDER BY id DESC LIMIT 1',
  ).first<RetentionRun>();
}

// ---- Breaking a table for a job run ----

/** The tables a test may break for the length of a run (to prove one failing step does not stop the others). */
export type BreakableTable = 'white_list';

/** Run `fn` with a table renamed away (every statement on it fails), and put it back afterwards. */
export async function withTableMissing<T>(table: BreakableTable, fn: () => Promise<T>): Promise<T> {
  await env.DB.prepare(`ALTER TABLE ${table} RENAME TO ${table}_away`).run();
  try {
    return await fn();
  } finally {
    await env.DB.prepare(`ALTER TABLE ${table}_away RENAME TO ${table}`).run();
  }
}

// ---- The egress policy ----

/** When the egress policy last changed (0 when never). */
export async function egressPolicyChangedAt(): Promise<number> {
  return (
    (await env.DB.prepare('SELECT coalesce(max(updated_at), 0) AS n FROM egress_policy').first<{ n: number }>())?.n ?? 0
  );
}

/** Date the egress policy's last change back to the epoch (older than any node cursor). */
export async function backdateEgressPolicy(): Promise<void> {
  await env.DB.prepare('UPDATE egress_policy SET updated_at = 1').run();
}

// ---- Query plans of the app's statements ----

/** A statement an app function asked a recording D1 to run, with its bindings. */
export interface RecordedStatement {
  sql: string;
  binds: unknown[];
}

/** A D1 stand-in that records every statement it is asked to run and answers with no rows. */
export function recordingDb(): { db: D1Database; seen: RecordedStatement[] } {
  const seen: RecordedStatement[] = [];
  const empty = { results: [], success: true, meta: { changes: 0, last_row_id: 0 } };
  const statement = (entry: RecordedStatement): D1PreparedStatement =>
    ({
      bind: (...binds: unknown[]) => {
        entry.binds = binds;
        return statement(entry);
      },
      first: async () => null,
      all: async () => empty,
      run: async () => empty,
      raw: async () => [],
    }) as unknown as D1PreparedStatement;
  const db = {
    prepare: (sql: string) => {
      const entry: RecordedStatement = { sql, binds: [] };
      seen.push(entry);
      return statement(entry);
    },
    batch: async (stmts: unknown[]) => stmts.map(() => empty),
    exec: async () => ({ count: 0, duration: 0 }),
  } as unknown as D1Database;
  return { db, seen };
}

/** A line of SQLite's EXPLAIN QUERY PLAN. */
export interface PlanLine {
  id: number;
  parent: number;
  detail: string;
}

/** How SQLite plans the app statement `statementText` with `binds` (EXPLAIN QUERY PLAN). */
export async function queryPlan(statementText: string, binds: unknown[]): Promise<PlanLine[]> {
  return (
    await env.DB.prepare(`EXPLAIN QUERY PLAN ${statementText}`)
      .bind(...binds)
      .all<PlanLine>()
  ).results;
}

/** A step of a statement's bytecode (EXPLAIN). */
export interface BytecodeStep {
  addr: number;
  opcode: string;
  p1: number;
  p2: number;
}

/** The bytecode SQLite runs for the app statement `statementText` with `binds` (EXPLAIN). */
export async function statementBytecode(statementText: string, binds: unknown[]): Promise<BytecodeStep[]> {
  return (
    await env.DB.prepare(`EXPLAIN ${statementText}`)
      .bind(...binds)
      .all<BytecodeStep>()
  ).results;
}

/** The root page of a table's B-tree (what the bytecode's OpenRead names). */
export async function tableRootPage(table: string): Promise<number> {
  const row = await env.DB.prepare("SELECT rootpage AS n FROM sqlite_master WHERE type = 'table' AND name = ?")
    .bind(table)
    .first<{ n: number }>();
  if (!row) throw new Error(`no table ${table}`);
  return row.n;
}

/** Hourly and daily bandwidth roll-up rows of a user, as the usage roll-up writes them (bytes in 10, out 20). */
export async function addUsageRollups(userId: number, r: { hours: number[]; days: string[] }): Promise<void> {
  await env.DB.batch([
    ...r.hours.map((h) =>
      env.DB.prepare(
        'INSERT INTO usage_hourly (user_id, hour_start, extract_calls, extract_ips, bytes_in, bytes_out) VALUES (?, ?, 1, 1, 10, 20)',
      ).bind(userId, h),
    ),
    ...r.days.map((d) =>
      env.DB.prepare(
        'INSERT INTO usage_daily (user_id, day, extract_calls, extract_ips, bytes_in, bytes_out) VALUES (?, ?, 1, 1, 10, 20)',
      ).bind(userId, d),
    ),
  ]);
}

/** The hours and days of a user's bandwidth roll-ups, oldest first. */
export async function usageRollupsOf(userId: number): Promise<{ hours: number[]; days: string[] }> {
  const [hours, days] = await env.DB.batch<{ at: number | string }>([
    env.DB.prepare('SELECT hour_start AS at FROM usage_hourly WHERE user_id = ? ORDER BY hour_start').bind(userId),
    env.DB.prepare('SELECT day AS at FROM usage_daily WHERE user_id = ? ORDER BY day').bind(userId),
  ]);
  return {
    hours: (hours?.results ?? []).map((r) => Number(r.at)),
    days: (days?.results ?? []).map((r) => String(r.at)),
  };
}
