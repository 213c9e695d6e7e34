// Queries behind /node/v2 (docs/node-api.md): the change feed, the leases and users of one node's contract, usage
// v2 and refusal batches (idempotent per node and batch id), the stale-exit sweep and the customer's refusal list.

export interface LeaseRow {
  kind: 'a' | 'f';
  id: number;
  ip: string;
  port: number;
  userId: number;
  packageId: number;
  productType: number;
  startsAt: number;
  expiresAt: number;
  /** false when the lease ended early (refund, release, package disabled or expired). */
  live: boolean;
}

export interface UserRow {
  userId: number;
  status: number;
  username: string;
  /** The stored proxy password: sealed, or plain in a row from before migration 0029. */
  password: string;
  /** The stored verifier ('' while the password is plain). */
  verifier: string;
}

export interface FeedChange {
  seq: number;
  kind: 'a' | 'f' | 'u' | 'p';
  ref: number;
}

const ids = (xs: number[]) => JSON.stringify([...new Set(xs)]);

// Extraction leases on node ?1 (live column computed at ?2); callers add the row filter as `AND …`.
const ASSIGNMENT_SELECT = `SELECT 'a' AS kind, a.id, a.ip, a.port, a.user_id, a.package_id, a.product_type,
    a.assigned_at AS starts_at, a.expires_at, (a.expires_at > ?2 AND p.state IN (1, 3) AND p.expires_at > ?2) AS live
  FROM ip_assignments a JOIN proxy_ips i ON i.id = a.ip_id AND i.node_id = ?1
    JOIN proxy_packages p ON p.id = a.package_id
  WHERE true`;
// Fixed/premium allocations on node ?1.
const FIXED_SELECT = `SELECT 'f' AS kind, f.id, f.ip, f.port, f.user_id, f.package_id, p.product_type,
    f.allocated_at AS starts_at, f.expires_at, (f.released_at = 0 AND f.expires_at > ?2 AND p.state = 1) AS live
  FROM fixed_allocations f JOIN proxy_ips i ON i.id = f.ip_id AND i.node_id = ?1
    JOIN proxy_packages p ON p.id = f.package_id
  WHERE true`;

interface RawLease {
  kind: 'a' | 'f';
  id: number;
  ip: string;
  port: number;
  user_id: number;
  package_id: number;
  product_type: number;
  starts_at: number;
  expires_at: number;
  live: number;
}

const mapLease = (r: RawLease): LeaseRow => ({
  kind: r.kind,
  id: r.id,
  ip: r.ip,
  port: r.port,
  userId: r.user_id,
  packageId: r.package_id,
  productType: r.product_type,
  startsAt: r.starts_at,
  expiresAt: r.expires_at,
  live: r.live === 1,
});

/** The feed's bounds: the oldest retained and the newest seq (0 and 0 when empty). */
export async function feedBounds(db: D1Database): Promise<{ minSeq: number; maxSeq: number }> {
  const row = await db
    .prepare('SELECT coalesce(min(seq), 0) AS lo, coalesce(max(seq), 0) AS hi FROM node_changes')
    .first<{ lo: number; hi: number }>();
  return { minSeq: row?.lo ?? 0, maxSeq: row?.hi ?? 0 };
}

/** Changes after `cursor` that concern node `nodeId` (its own lease rows and every user/package row), oldest first. */
export async function feedAfter(
  db: D1Database,
  nodeId: number,
  cursor: number,
  limit: number,
): Promise<{ changes: FeedChange[]; maxSeq: number }> {
  const [rows, hi] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT seq, kind, ref FROM node_changes WHERE seq > ?1 AND (node_id IS NULL OR node_id = ?2)
         ORDER BY seq LIMIT ?3 + 0`,
      )
      .bind(cursor, nodeId, limit),
    db.prepare('SELECT coalesce(max(seq), 0) AS hi FROM node_changes'),
  ]);
  return {
    changes: (rows?.results ?? []) as unknown as FeedChange[],
    maxSeq: (hi?.results[0]?.hi as number) ?? 0,
  };
}

/** Every live lease on the node's exits (the full snapshot). */
export async function liveLeasesOfNode(db: D1Database, nodeId: number, now: number): Promise<LeaseRow[]> {
  const [a, f] = await db.batch<RawLease>([
    db
      .prepare(`${ASSIGNMENT_SELECT} AND a.expires_at > ?2 AND p.state IN (1, 3) AND p.expires_at > ?2`)
      .bind(nodeId, now),
    db.prepare(`${FIXED_SELECT} AND f.released_at = 0 AND f.expires_at > ?2 AND p.state = 1`).bind(nodeId, now),
  ]);
  return [...(a?.results ?? []), ...(f?.results ?? [])].map(mapLease);
}

// Packages whose life ended in the window: a state change away from active/used-up (refund 5, delete 4, expiry 2:
// every such write sets updated_at) or an end passing, since ?3. Busy live packages never match.
const PACKAGE_ENDED = `p.id IN (SELECT id FROM proxy_packages WHERE updated_at > ?3 AND state NOT IN (1, 3)
  UNION SELECT id FROM proxy_packages WHERE state IN (1, 3) AND expires_at > ?3 AND expires_at <= ?2)`;

/**
 * The leases a set of changes touches on this node, live or ended: assignments and allocations by id, and every
 * unexpired assignment and allocation of packages that ended since `packagesSince`. A touched assignment already past
 * its end comes back ended (so a lease cut short by moving its end is revoked at the node); untouched expired ones are
 * left out (the node expires them by its clock).
 */
export async function leasesTouched(
  db: D1Database,
  nodeId: number,
  now: number,
  t: { assignments: number[]; allocations: number[]; packagesSince: number | null },
): Promise<LeaseRow[]> {
  const stmts: D1PreparedStatement[] = [];
  if (t.assignments.length) {
    stmts.push(
      db
        .prepare(`${ASSIGNMENT_SELECT} AND a.id IN (SELECT value FROM json_each(?3))`)
        .bind(nodeId, now, ids(t.assignments)),
    );
  }
  if (t.allocations.length) {
    stmts.push(
      db.prepare(`${FIXED_SELECT} AND f.id IN (SELECT value FROM json_each(?3))`).bind(nodeId, now, ids(t.allocations)),
    );
  }
  if (t.packagesSince !== null) {
    stmts.push(
      db.prepare(`${ASSIGNMENT_SELECT} AND a.expires_at > ?2 AND ${PACKAGE_ENDED}`).bind(nodeId, now, t.packagesSince),
      db.prepare(`${FIXED_SELECT} AND f.released_at = 0 AND ${PACKAGE_ENDED}`).bind(nodeId, now, t.packagesSince),
    );
  }
  if (stmts.length === 0) return [];
  const results = await db.batch<RawLease>(stmts);
  const seen = new Map<string, LeaseRow>();
  for (const r of results.flatMap((x) => x.results)) seen.set(`${r.kind}${r.id}`, mapLease(r));
  return [...seen.values()];
}

/** The packages among `packageIds` whose leases live at `now` (active or used up, and unexpired). */
export async function packagesStillLive(db: D1Database, packageIds: number[], now: number): Promise<Set<number>> {
  if (packageIds.length === 0) return new Set();
  const { results } = await db
    .prepare(
      `SELECT id FROM proxy_packages WHERE id IN (SELECT value FROM json_each(?1)) AND state IN (1, 3)
         AND expires_at > ?2`,
    )
    .bind(ids(packageIds), now)
    .all<{ id: number }>();
  return new Set(results.map((r) => r.id));
}

/** The packages that ended since `since` (PACKAGE_ENDED): the node objects end their leases of them. */
export async function packagesEndedSince(db: D1Database, since: number, now: number): Promise<number[]> {
  const { results } = await db
    .prepare(`SELECT p.id FROM proxy_packages p WHERE ${PACKAGE_ENDED}`)
    .bind(null, now, since)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The users among `userIds` with a live lease on the node, with their product types (for the limits). */
export async function usersWithLiveLeases(
  db: D1Database,
  nodeId: number,
  now: number,
  userIds: number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (userIds.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT DISTINCT a.user_id, a.product_type FROM ip_assignments a
         JOIN proxy_ips i ON i.id = a.ip_id AND i.node_id = ?1 JOIN proxy_packages p ON p.id = a.package_id
       WHERE a.user_id IN (SELECT value FROM json_each(?3)) AND a.expires_at > ?2 AND p.state IN (1, 3)
         AND p.expires_at > ?2
       UNION
       SELECT DISTINCT f.user_id, p.product_type FROM fixed_allocations f
         JOIN proxy_ips i ON i.id = f.ip_id AND i.node_id = ?1 JOIN proxy_packages p ON p.id = f.package_id
       WHERE f.user_id IN (SELECT value FROM json_each(?3)) AND f.released_at = 0 AND f.expires_at > ?2
         AND p.state = 1`,
    )
    .bind(nodeId, now, ids(userIds))
    .all<{ user_id: number; product_type: number }>();
  for (const r of results) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.product_type]);
  return out;
}

/** Account status, proxy account and the white list in force of each user. */
export async function usersForContract(
  db: D1Database,
  now: number,
  userIds: number[],
): Promise<{ users: UserRow[]; whiteList: Map<number, { ip: string; expiresAt: number }[]> }> {
  const whiteList = new Map<number, { ip: string; expiresAt: number }[]>();
  if (userIds.length === 0) return { users: [], whiteList };
  const json = ids(userIds);
  const [u, w] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT u.id, u.status, coalesce(c.proxy_username, '') AS username, coalesce(c.proxy_password, '') AS password,
           coalesce(c.proxy_password_verifier, '') AS verifier
         FROM users u LEFT JOIN proxy_api_credentials c ON c.user_id = u.id
         WHERE u.id IN (SELECT value FROM json_each(?1)) ORDER BY u.id`,
      )
      .bind(json),
    db
      .prepare(
        `SELECT user_id, ip, expires_at FROM white_list WHERE user_id IN (SELECT value FROM json_each(?1))
           AND enabled = 1 AND (expires_at = 0 OR expires_at > ?2) ORDER BY user_id, ip`,
      )
      .bind(json, now),
  ]);
  for (const r of w?.results ?? []) {
    const id = r.user_id as number;
    whiteList.set(id, [...(whiteList.get(id) ?? []), { ip: r.ip as string, expiresAt: r.expires_at as number }]);
  }
  return {
    users: (u?.results ?? []).map((r) => ({
      userId: r.id as number,
      status: r.status as number,
      username: r.username as string,
      password: r.password as string,
      verifier: r.verifier as string,
    })),
    whiteList,
  };
}

/** Drop feed rows older than `before`, always keeping the newest (so cursors stay comparable). */
export async function pruneFeed(db: D1Database, before: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM node_changes WHERE created_at < ? AND seq < (SELECT max(seq) FROM node_changes)')
    .bind(before)
    .run();
  return res.meta.changes;
}

/** Mark v2 exits not heartbeated since `staleBefore` unhealthy (all nodes, or one). Returns exits marked. */
export async function markStaleExits(db: D1Database, staleBefore: number, nodeId: number | null = null) {
  const res = await db
    .prepare(
      `UPDATE proxy_ips SET healthy = 0 WHERE healthy = 1 AND checked_at < ?1 AND (?2 = 0 OR node_id = ?2)
         AND node_id IN (SELECT id FROM proxy_nodes WHERE api_version = 2)`,
    )
    .bind(staleBefore, nodeId ?? 0)
    .run();
  return res.meta.changes;
}

/** Record that the node speaks v2 (its silent exits are swept). */
export async function markNodeV2(db: D1Database, nodeId: number): Promise<void> {
  await db.prepare('UPDATE proxy_nodes SET api_version = 2 WHERE id = ? AND api_version != 2').bind(nodeId).run();
}

export interface UsageRow {
  userId: number;
  ip: string;
  port: number;
  clientIp: string;
  bytesIn: number;
  bytesOut: number;
  connections: number;
}

const batchSeen = `EXISTS (SELECT 1 FROM node_batches WHERE node_id = ?1 AND kind = ?5 AND batch_id = ?2)`;

/** A customer's usage in one hour that a node's object kept (decision 249): [userId, hourStart, in, out, connections]. */
export type UsageHour = [userId: number, hourStart: number, bytesIn: number, bytesOut: number, connections: number];

/**
 * For each row of a usage batch: the fixed (dedicated) allocation of that user on that exit of this node that ran
 * during the period (or up to `leaseGraceMs` before it), as insertUsageBatch accepted it (decision 252: the node's
 * object keeps those rows under the allocation); null when there is none. A read.
 */
export async function fixedAllocationsOfUsage(
  db: D1Database,
  nodeId: number,
  b: { periodStart: number; periodEnd: number; rows: { userId: number; ip: string; port: number }[] },
  leaseGraceMs: number,
): Promise<(number | null)[]> {
  const out = b.rows.map((): number | null => null);
  if (b.rows.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT j.key AS k, (SELECT f.id FROM proxy_ips i JOIN fixed_allocations f ON f.ip_id = i.id
           WHERE i.ip = j.value ->> '$[1]' AND i.port = j.value ->> '$[2]' AND i.node_id = ?1
             AND f.user_id = j.value ->> '$[0]' AND f.allocated_at <= ?3 AND f.expires_at > ?2 - ?4
             AND (f.released_at = 0 OR f.released_at > ?2 - ?4)
           ORDER BY f.allocated_at DESC, f.id DESC LIMIT 1) AS f
       FROM json_each(?5) j`,
    )
    .bind(nodeId, b.periodStart, b.periodEnd, leaseGraceMs, JSON.stringify(b.rows.map((r) => [r.userId, r.ip, r.port])))
    .all<{ k: number; f: number | null }>();
  for (const r of results) if (r.f !== null) out[Number(r.k)] = Number(r.f);
  return out;
}

/**
 * Store D1's part of a usage batch once (decision 249): the rows the node's object did not take (`b.rows`: usage of
 * fixed allocations and of D1's leases from before the objects) when they are of exits of this node, for users who held
 * a lease on that exit during the period (or up to `leaseGraceMs` before it) in D1; the hourly totals of the rows the
 * object kept (`fromObject.hours`, added to `node_usage_hours`); the batch marker last; all in one transaction. A batch
 * id already marked changes nothing, so the object's hours are added exactly once however often the step runs (the
 * route, a node's retry, the object's repair). Returns D1's rows stored (plus the object's count), rows refused, and
 * whether it was a duplicate.
 */
export async function insertUsageBatch(
  db: D1Database,
  nodeId: number,
  b: { batchId: string; periodStart: number; periodEnd: number; rows: UsageRow[] },
  now: number,
  leaseGraceMs: number,
  fromObject: { stored: number; hours: UsageHour[] } = { stored: 0, hours: [] },
): Promise<{ stored: number; duplicate: boolean; refused: number }> {
  const payload = JSON.stringify(
    b.rows.map((r) => [r.userId, r.ip, r.port, r.clientIp, r.bytesIn, r.bytesOut, r.connections]),
  );
  const [rows, , marker] = await db.batch([
    db
      .prepare(
        `INSERT INTO node_usage (node_id, batch_id, user_id, ip, port, client_ip, period_start, period_end, bytes_in,
                                 bytes_out, connections, received_at)
         SELECT ?1, ?2, j.value ->> '$[0]', j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]', ?3, ?4,
                j.value ->> '$[4]', j.value ->> '$[5]', j.value ->> '$[6]', ?6
         FROM json_each(?7) j
         WHERE NOT ${batchSeen} AND EXISTS (SELECT 1 FROM proxy_ips i
           WHERE i.ip = j.value ->> '$[1]' AND i.port = j.value ->> '$[2]' AND i.node_id = ?1 AND (
             EXISTS (SELECT 1 FROM ip_assignments a WHERE a.ip_id = i.id AND a.expires_at > ?3 - ?8
               AND a.user_id = j.value ->> '$[0]' AND a.assigned_at <= ?4)
             OR EXISTS (SELECT 1 FROM fixed_allocations f WHERE f.ip_id = i.id AND f.user_id = j.value ->> '$[0]'
               AND f.allocated_at <= ?4 AND f.expires_at > ?3 - ?8 AND (f.released_at = 0 OR f.released_at > ?3 - ?8))))`,
      )
      .bind(nodeId, b.batchId, b.periodStart, b.periodEnd, 'usage', now, payload, leaseGraceMs),
    db
      .prepare(
        `INSERT INTO node_usage_hours (user_id, hour_start, bytes_in, bytes_out, connections)
         SELECT h.value ->> 0, h.value ->> 1, h.value ->> 2, h.value ->> 3, h.value ->> 4 FROM json_each(?3) h
         WHERE NOT ${batchSeen}
         ON CONFLICT(user_id, hour_start) DO UPDATE SET bytes_in = bytes_in + excluded.bytes_in,
           bytes_out = bytes_out + excluded.bytes_out, connections = connections + excluded.connections`,
      )
      .bind(nodeId, b.batchId, JSON.stringify(fromObject.hours), 0, 'usage'),
    db
      .prepare(
        `INSERT INTO node_batches (node_id, kind, batch_id, rows, received_at)
         VALUES (?1, ?5, ?2, (SELECT count(*) FROM node_usage WHERE node_id = ?1 AND batch_id = ?2) + ?4, ?3)
         ON CONFLICT DO NOTHING`,
      )
      .bind(nodeId, b.batchId, now, fromObject.stored, 'usage'),
  ]);
  const duplicate = (marker?.meta.changes ?? 0) === 0;
  const stored = duplicate ? 0 : (rows?.meta.changes ?? 0);
  return {
    stored: duplicate ? 0 : stored + fromObject.stored,
    duplicate,
    refused: duplicate ? 0 : b.rows.length - stored,
  };
}

export interface RefusalRow {
  /** The first refusal the row counts (a node's row counts one client, exit, user and code in a period: decision 251). */
  at: number;
  /** The last one; absent: `at`. */
  lastAt?: number | undefined;
  /** How many refused connections the row counts; absent: one (a node from before decision 251). */
  count?: number | undefined;
  clientIp: string;
  ip: string;
  port: number;
  userId: number | null;
  code: string;
}

const OWN_EXIT = `EXISTS (SELECT 1 FROM proxy_ips i WHERE i.node_id = ?1 AND i.ip = r.value ->> '$[2]'
  AND i.port = r.value ->> '$[3]')`;

/**
 * What D1 says of a refusal batch's rows (decision 250; reads only, the rows are kept in the node's object): for each
 * row, whether its exit is one of this node's (rows of other nodes' exits are ignored), and for a row naming nobody,
 * the users D1 knows held that exit at that instant (its leases from before the objects and fixed allocations).
 */
export async function refusalAttribution(
  db: D1Database,
  nodeId: number,
  rows: RefusalRow[],
): Promise<{ own: boolean; holders: number[] }[]> {
  const payload = JSON.stringify(rows.map((r) => [r.at, r.clientIp, r.ip, r.port, r.userId, r.code]));
  const [own, held] = await db.batch<{ k: number; u?: number }>([
    db.prepare(`SELECT r.key AS k FROM json_each(?2) r WHERE ${OWN_EXIT}`).bind(nodeId, payload),
    db
      .prepare(
        `SELECT r.key AS k, a.user_id AS u FROM json_each(?2) r
           JOIN proxy_ips i ON i.node_id = ?1 AND i.ip = r.value ->> '$[2]' AND i.port = r.value ->> '$[3]'
           JOIN ip_assignments a ON a.ip_id = i.id AND a.assigned_at <= r.value ->> '$[0]'
             AND a.expires_at > r.value ->> '$[0]'
         WHERE r.value ->> '$[4]' IS NULL
         UNION
         SELECT r.key, f.user_id FROM json_each(?2) r
           JOIN proxy_ips i ON i.node_id = ?1 AND i.ip = r.value ->> '$[2]' AND i.port = r.value ->> '$[3]'
           JOIN fixed_allocations f ON f.ip_id = i.id AND f.allocated_at <= r.value ->> '$[0]'
             AND f.expires_at > r.value ->> '$[0]' AND (f.released_at = 0 OR f.released_at > r.value ->> '$[0]')
         WHERE r.value ->> '$[4]' IS NULL`,
      )
      .bind(nodeId, payload),
  ]);
  const out = rows.map(() => ({ own: false, holders: [] as number[] }));
  for (const r of own?.results ?? []) {
    const o = out[Number(r.k)];
    if (o) o.own = true;
  }
  for (const r of held?.results ?? []) out[Number(r.k)]?.holders.push(Number(r.u));
  return out;
}

export interface RefusalView {
  id: number;
  /** The first and last refusal the row counts, and how many (D1's rows from before decision 251 count one). */
  at: number;
  lastAt: number;
  count: number;
  clientIp: string;
  ip: string;
  port: number;
  code: string;
}

/** A page of the refused connections attributed to a user since `since`, newest first. */
export async function listUserRefusals(
  db: D1Database,
  r: { userId: number; since: number; offset: number; limit: number },
): Promise<{ total: number; list: RefusalView[] }> {
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT count(*) AS n FROM node_refusals WHERE user_id = ? AND at >= ?').bind(r.userId, r.since),
    db
      .prepare(
        `SELECT id, at, client_ip, ip, port, code FROM node_refusals WHERE user_id = ? AND at >= ?
         ORDER BY at DESC, id DESC LIMIT ? + 0 OFFSET ?`,
      )
      .bind(r.userId, r.since, r.limit, r.offset),
  ]);
  return {
    total: (count?.results[0]?.n as number) ?? 0,
    list: (rows?.results ?? []).map((x) => ({
      id: x.id as number,
      at: x.at as number,
      lastAt: x.at as number,
      count: 1,
      clientIp: x.client_ip as string,
      ip: x.ip as string,
      port: x.port as number,
      code: x.code as string,
    })),
  };
}

/**
 * Drop usage rows, refusals, batch markers and the node objects' hourly totals (decision 249) received before
 * `before` (usage_hourly keeps the byte totals: the roll-up recomputes only the last hours) and extraction-token uses
 * that expired before `now`.
 */
export async function pruneNodeData(db: D1Database, before: number, now: number): Promise<number> {
  const res = await db.batch([
    db.prepare('DELETE FROM node_usage WHERE received_at < ?').bind(before),
    db.prepare('DELETE FROM node_refusals WHERE received_at < ?').bind(before),
    db.prepare('DELETE FROM node_batches WHERE received_at < ?').bind(before),
    db.prepare('DELETE FROM node_usage_hours WHERE hour_start < ?').bind(before),
    db.prepare('DELETE FROM extract_token_uses WHERE expires_at < ?').bind(now),
  ]);
  return res.reduce((s, r) => s + (r.meta.changes ?? 0), 0);
}
