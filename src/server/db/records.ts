// Queries for extraction records, IP records, charts, bandwidth and the hourly/daily roll-ups.
import { PACKAGE_STATE } from '../../lib/package-states';
import { DAY_MS, HOUR_MS, SHANGHAI_OFFSET_MS } from '../../lib/time';

/** A package that still gives its leases (active or used up: isPackageRunning), in SQL over `proxy_packages`. */
const RUNNING = `state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.usedUp})`;

/**
 * When each of the customer's packages `ids` stops its leases (decision 247): a running package at its expiry; one that
 * ended early (disabled by a refund or a suspension, deleted) when it changed to that state, or at its expiry if
 * sooner — the moment the node contract ends its leases (node-contract.ts PACKAGE_ENDED). Unknown ids are left out.
 */
export async function packageEnds(db: D1Database, userId: number, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT id, CASE WHEN ${RUNNING} THEN expires_at ELSE min(expires_at, updated_at) END AS ends_at
       FROM proxy_packages WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(userId, JSON.stringify([...new Set(ids)]))
    .all<{ id: number; ends_at: number }>();
  return new Map(results.map((r) => [r.id, r.ends_at]));
}

/** The customer's packages that ended early and would still run at `at`: none of their leases is live then. */
export async function packagesEndedBefore(db: D1Database, userId: number, at: number): Promise<number[]> {
  const { results } = await db
    .prepare(`SELECT id FROM proxy_packages WHERE user_id = ?1 AND expires_at > ?2 AND NOT ${RUNNING}`)
    .bind(userId, at)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/**
 * How a window [from, to) splits for the hourly counters (extract_hour_counts, docs/decisions/185 and 187): the calls
 * logged in [from, headEnd) and [tailStart, to) are read from the log; the whole hours in between from the counters. A
 * window that reaches past `now` ends on the counters (the current hour's counter holds every call logged so far), so
 * the log is read only for the part of the first hour before the window's first full hour.
 */
export function counterSplit(from: number, to: number, now: number): { headEnd: number; tailStart: number } {
  const hour = Math.floor(from / HOUR_MS) * HOUR_MS;
  const firstHour = hour === from ? from : hour + HOUR_MS;
  const tailStart = to > now ? to : Math.floor(to / HOUR_MS) * HOUR_MS;
  return { headEnd: Math.min(firstHour, tailStart), tailStart: Math.max(tailStart, from) };
}

/** The log's rows of a window's head and tail, the counters' hours between (?1 user, ?2 from, ?3 headEnd, ?4 tailStart, ?5 to). */
const SPLIT_LOG_HEAD = 'user_id = ?1 AND created_at >= ?2 AND created_at < ?3';
const SPLIT_COUNTERS = 'user_id = ?1 AND hour_start >= ?3 AND hour_start < ?4';
const SPLIT_LOG_TAIL = 'user_id = ?1 AND created_at >= ?4 AND created_at < ?5';

export interface ExtractLogRow {
  id: number;
  packageId: number | null;
  productType: number;
  clientIp: string;
  requested: number;
  returned: number;
  code: number;
  query: string;
  createdAt: number;
}

/** A page of the user's extraction calls in [from, to); the total adds the hourly counters of the whole hours. */
export async function listExtractLogs(
  db: D1Database,
  r: { userId: number; from: number; to: number; now: number; offset: number; limit: number },
): Promise<{ total: number; list: ExtractLogRow[] }> {
  const { headEnd, tailStart } = counterSplit(r.from, r.to, r.now);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT (SELECT count(*) FROM extract_logs WHERE ${SPLIT_LOG_HEAD})
              + (SELECT coalesce(sum(calls), 0) FROM extract_hour_counts WHERE ${SPLIT_COUNTERS})
              + (SELECT count(*) FROM extract_logs WHERE ${SPLIT_LOG_TAIL}) AS n`,
      )
      .bind(r.userId, r.from, headEnd, tailStart, r.to),
    db
      .prepare(
        `SELECT id, package_id, product_type, client_ip, requested, returned, code, query, created_at FROM extract_logs
         WHERE user_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ? + 0 OFFSET ?`,
      )
      .bind(r.userId, r.from, r.to, r.limit, r.offset),
  ]);
  return {
    total: (count?.results[0]?.n as number) ?? 0,
    list: (rows?.results ?? []).map((x) => ({
      id: x.id as number,
      packageId: (x.package_id as number | null) ?? null,
      productType: x.product_type as number,
      clientIp: x.client_ip as string,
      requested: x.requested as number,
      returned: x.returned as number,
      code: x.code as number,
      query: x.query as string,
      createdAt: x.created_at as number,
    })),
  };
}

/**
 * Calls and IPs per bucket (hour, or Asia/Shanghai day) in [from, to), live: whole hours from the hourly counters, the
 * log read only for a partial first or last hour.
 */
export async function extractChart(
  db: D1Database,
  r: { userId: number; from: number; to: number; now: number; bucket: 'hour' | 'day' },
): Promise<{ at: number; calls: number; ips: number }[]> {
  const { headEnd, tailStart } = counterSplit(r.from, r.to, r.now);
  // Constants are inlined: bound JS numbers may arrive as REAL, which would turn this into float division.
  const bucket = (t: string) =>
    r.bucket === 'day'
      ? `((${t} + ${SHANGHAI_OFFSET_MS}) / ${DAY_MS}) * ${DAY_MS} - ${SHANGHAI_OFFSET_MS}`
      : `(${t} / ${HOUR_MS}) * ${HOUR_MS}`;
  const { results } = await db
    .prepare(
      `SELECT at, sum(calls) AS calls, sum(ips) AS ips FROM (
         SELECT ${bucket('created_at')} AS at, 1 AS calls, returned AS ips FROM extract_logs WHERE ${SPLIT_LOG_HEAD}
         UNION ALL
         SELECT ${bucket('hour_start')}, calls, ips FROM extract_hour_counts WHERE ${SPLIT_COUNTERS}
         UNION ALL
         SELECT ${bucket('created_at')}, 1, returned FROM extract_logs WHERE ${SPLIT_LOG_TAIL}
       ) WHERE true GROUP BY at ORDER BY at`,
    )
    .bind(r.userId, r.from, headEnd, tailStart, r.to)
    .all<{ at: number; calls: number; ips: number }>();
  return results;
}

/**
 * The usage row `n` belongs to the lease `a` (docs/decisions/222): every byte a node reports goes to exactly one lease,
 * the one of that customer and exit that started last at or before the end of the row's period (ties: the higher id).
 * Overlapping re-extractions of one exit no longer each count the same bytes, so the IP records add up to the
 * bandwidth page. `a` must expose id, user_id, ip_id, ip, port and assigned_at. (`+b.assigned_at`: the later lease is
 * looked up by customer and exit, never by a range over the customer's whole history.)
 */
export const USAGE_OF_LEASE = `n.user_id = a.user_id AND n.ip = a.ip AND n.port = a.port AND n.period_end >= a.assigned_at
  AND NOT EXISTS (SELECT 1 FROM ip_assignments b WHERE b.user_id = a.user_id AND b.ip_id = a.ip_id
    AND +b.assigned_at <= n.period_end
    AND (+b.assigned_at > a.assigned_at OR (+b.assigned_at = a.assigned_at AND +b.id > a.id)))`;

export interface AssignmentRecord {
  id: number;
  ip: string;
  port: number;
  protocol: string;
  region: string;
  carrier: string;
  productType: number;
  packageId: number;
  assignedAt: number;
  expiresAt: number;
  remark: string;
  /** Bytes both ways and connections the nodes reported for this user through this exit that belong to this lease. */
  bytes: number;
  connections: number;
}

/**
 * The most leases a total counts: past it the list says "10000+" (`totalCapped`). Counting is a walk of the customer's
 * index entries, and a busy API customer takes tens of thousands of IPs a day; no one pages that far (docs/decisions/186).
 */
export const IP_RECORDS_COUNT_CAP = 10_000;

/**
 * A page of the IPs handed to the user (optionally one product type, only unexpired, or one address); the total
 * counts at most IP_RECORDS_COUNT_CAP of them.
 */
export async function listAssignments(
  db: D1Database,
  r: {
    userId: number;
    productType: number | null;
    liveAt: number | null;
    ip: string | null;
    /** Packages whose leases are left out (those that ended early, for a list of live leases). */
    endedPackages?: number[];
    offset: number;
    limit: number;
  },
): Promise<{ total: number; totalCapped: boolean; list: AssignmentRecord[] }> {
  // Only the filters in use go into the statement: with none, the total is a count of the customer's entries in one
  // index, with no row read (a heavy customer has tens of thousands of leases; `(?2 = 0 OR product_type = ?2)` made
  // SQLite evaluate every filter on every one of them).
  const terms: [string, unknown][] = [['user_id = ?', r.userId]];
  if (r.productType) terms.push(['product_type = ?', r.productType]);
  if (r.liveAt) terms.push(['expires_at > ?', r.liveAt]);
  if (r.ip) terms.push(['ip = ?', r.ip]);
  if (r.endedPackages?.length)
    terms.push(['package_id NOT IN (SELECT value FROM json_each(?))', JSON.stringify(r.endedPackages)]);
  const where = terms.map(([t], i) => t.replace('?', `?${i + 1}`)).join(' AND ');
  const binds = terms.map(([, v]) => v);
  const page = `?${binds.length + 1} + 0 OFFSET ?${binds.length + 2}`;
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ip_assignments WHERE ${where} LIMIT ${IP_RECORDS_COUNT_CAP + 1})`,
      )
      .bind(...binds),
    db
      .prepare(
        `SELECT a.*, coalesce(sum(n.bytes_in + n.bytes_out), 0) AS bytes, coalesce(sum(n.connections), 0) AS connections
         FROM (SELECT id, user_id, ip_id, ip, port, protocol, region, carrier, product_type, package_id, assigned_at,
                      expires_at, remark
               FROM ip_assignments WHERE ${where} ORDER BY assigned_at DESC, id DESC LIMIT ${page}) a
         LEFT JOIN node_usage n ON ${USAGE_OF_LEASE}
         GROUP BY a.id ORDER BY a.assigned_at DESC, a.id DESC`,
      )
      .bind(...binds, r.limit, r.offset),
  ]);
  const counted = (count?.results[0]?.n as number) ?? 0;
  return {
    total: Math.min(counted, IP_RECORDS_COUNT_CAP),
    totalCapped: counted > IP_RECORDS_COUNT_CAP,
    list: (rows?.results ?? []).map((x) => ({
      id: x.id as number,
      ip: x.ip as string,
      port: x.port as number,
      protocol: x.protocol as string,
      region: x.region as string,
      carrier: x.carrier as string,
      productType: x.product_type as number,
      packageId: x.package_id as number,
      assignedAt: x.assigned_at as number,
      expiresAt: x.expires_at as number,
      remark: x.remark as string,
      bytes: x.bytes as number,
      connections: x.connections as number,
    })),
  };
}

/** Bytes per hour (from usage_hourly) or per day (usage_daily) in [from, to). */
export async function bandwidthSeries(
  db: D1Database,
  r: { userId: number; from: number; to: number; bucket: 'hour' | 'day'; fromDay: string; toDay: string },
): Promise<{ at: string | number; bytesIn: number; bytesOut: number; ips: number }[]> {
  const stmt =
    r.bucket === 'hour'
      ? db
          .prepare(
            `SELECT hour_start AS at, bytes_in, bytes_out, extract_ips FROM usage_hourly
             WHERE user_id = ? AND hour_start >= ? AND hour_start < ? ORDER BY hour_start`,
          )
          .bind(r.userId, r.from, r.to)
      : db
          .prepare(
            `SELECT day AS at, bytes_in, bytes_out, extract_ips FROM usage_daily
             WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day`,
          )
          .bind(r.userId, r.fromDay, r.toDay);
  const { results } = await stmt.all<{
    at: string | number;
    bytes_in: number;
    bytes_out: number;
    extract_ips: number;
  }>();
  return results.map((x) => ({ at: x.at, bytesIn: x.bytes_in, bytesOut: x.bytes_out, ips: x.extract_ips }));
}

// Byte totals are summed as floats (total() never overflows, where sum() fails the whole statement with "integer
// overflow") and capped at 2^53-1, so no report, however large, can stop a roll-up (docs/decisions/198).
const capped = (column: string) => `CAST(min(total(${column}), ${Number.MAX_SAFE_INTEGER}) AS INTEGER)`;

/**
 * Recompute usage_hourly for the hours in [from, to) from the extraction log and the node reports (v1, v2 in D1, and
 * the hourly totals of the rows the node objects keep: decision 249).
 */
export async function rollupHours(db: D1Database, from: number, to: number): Promise<number> {
  const res = await db
    .prepare(
      `INSERT INTO usage_hourly (user_id, hour_start, extract_calls, extract_ips, bytes_in, bytes_out)
       SELECT user_id, h, sum(calls), sum(ips), ${capped('bi')}, ${capped('bo')} FROM (
         SELECT user_id, (created_at / ${HOUR_MS}) * ${HOUR_MS} AS h, 1 AS calls, returned AS ips, 0 AS bi, 0 AS bo
           FROM extract_logs WHERE created_at >= ?1 AND created_at < ?2
         UNION ALL
         SELECT user_id, (period_start / ${HOUR_MS}) * ${HOUR_MS}, 0, 0, bytes_in, bytes_out
           FROM node_usage_reports WHERE period_start >= ?1 AND period_start < ?2
         UNION ALL
         SELECT user_id, (period_start / ${HOUR_MS}) * ${HOUR_MS}, 0, 0, bytes_in, bytes_out
           FROM node_usage WHERE period_start >= ?1 AND period_start < ?2
         UNION ALL
         SELECT user_id, hour_start, 0, 0, bytes_in, bytes_out
           FROM node_usage_hours WHERE hour_start >= ?1 AND hour_start < ?2
       ) WHERE true GROUP BY user_id, h
       ON CONFLICT(user_id, hour_start) DO UPDATE SET extract_calls = excluded.extract_calls,
         extract_ips = excluded.extract_ips, bytes_in = excluded.bytes_in, bytes_out = excluded.bytes_out`,
    )
    .bind(from, to)
    .run();
  return res.meta.changes;
}

/** Recompute usage_daily for the Shanghai days whose hours start in [from, to) from usage_hourly. */
export async function rollupDays(db: D1Database, from: number, to: number): Promise<number> {
  const res = await db
    .prepare(
      `INSERT INTO usage_daily (user_id, day, extract_calls, extract_ips, bytes_in, bytes_out)
       SELECT user_id, strftime('%Y-%m-%d', (hour_start + ${SHANGHAI_OFFSET_MS}) / 1000, 'unixepoch') AS d, sum(extract_calls),
              sum(extract_ips), ${capped('bytes_in')}, ${capped('bytes_out')}
       FROM usage_hourly WHERE hour_start >= ?1 AND hour_start < ?2 GROUP BY user_id, d
       ON CONFLICT(user_id, day) DO UPDATE SET extract_calls = excluded.extract_calls,
         extract_ips = excluded.extract_ips, bytes_in = excluded.bytes_in, bytes_out = excluded.bytes_out`,
    )
    .bind(from, to)
    .run();
  return res.meta.changes;
}

/** The user's calls in [from, to): the log's head and tail hours and the hourly counters between (docs/decisions/187). */
export async function countExtractCalls(
  db: D1Database,
  r: { userId: number; from: number; to: number; now: number },
): Promise<number> {
  if (r.to <= r.from) return 0;
  const { headEnd, tailStart } = counterSplit(r.from, r.to, r.now);
  const row = await db
    .prepare(
      `SELECT (SELECT count(*) FROM extract_logs WHERE ${SPLIT_LOG_HEAD})
            + (SELECT coalesce(sum(calls), 0) FROM extract_hour_counts WHERE ${SPLIT_COUNTERS})
            + (SELECT count(*) FROM extract_logs WHERE ${SPLIT_LOG_TAIL}) AS n`,
    )
    .bind(r.userId, r.from, headEnd, tailStart, r.to)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A lease in D1 with the usage it owns (USAGE_OF_LEASE) and the client addresses the nodes saw through it. */
export interface LeaseWithUsage extends AssignmentRecord {
  userId: number;
  nodeId: number | null;
  clients: string[];
}

const leaseWithUsage = (x: Record<string, unknown>): LeaseWithUsage => {
  const owned = JSON.parse(String(x.owned ?? '{}')) as { bytes?: number; connections?: number; clients?: string[] };
  return {
    id: x.id as number,
    userId: x.user_id as number,
    nodeId: (x.node_id as number | null) ?? null,
    ip: x.ip as string,
    port: x.port as number,
    protocol: x.protocol as string,
    region: x.region as string,
    carrier: x.carrier as string,
    productType: x.product_type as number,
    packageId: x.package_id as number,
    assignedAt: x.assigned_at as number,
    expiresAt: x.expires_at as number,
    remark: x.remark as string,
    bytes: owned.bytes ?? 0,
    connections: owned.connections ?? 0,
    clients: owned.clients ?? [],
  };
};

/** The user's leases handed out in [from, to), newest first, at most `limit`, with their usage (for downloads). */
export async function leasesBetween(
  db: D1Database,
  r: { userId: number; from: number; to: number; limit: number },
): Promise<LeaseWithUsage[]> {
  const { results } = await db
    .prepare(
      `SELECT a.*, (SELECT node_id FROM proxy_ips WHERE id = a.ip_id) AS node_id,
              (SELECT json_object('bytes', coalesce(sum(n.bytes_in + n.bytes_out), 0),
                                  'connections', coalesce(sum(n.connections), 0),
                                  'clients', json_group_array(DISTINCT n.client_ip))
                 FROM node_usage n WHERE ${USAGE_OF_LEASE}) AS owned
       FROM ip_assignments a WHERE a.user_id = ?1 AND a.assigned_at >= ?2 AND a.assigned_at < ?3
       ORDER BY a.assigned_at DESC, a.id DESC LIMIT ?4 + 0`,
    )
    .bind(r.userId, r.from, r.to, r.limit)
    .all<Record<string, unknown>>();
  return results.map(leaseWithUsage);
}

/** A lease row read with its owned usage (an `owned` JSON column) as a LeaseWithUsage. */
export const toLeaseWithUsage = leaseWithUsage;

/** The usage a lease owns: bytes both ways, connections, and the client addresses the nodes saw. */
export interface LeaseUsage {
  bytes: number;
  connections: number;
  clients: string[];
}

/**
 * The usage each lease of a page owns in D1's node reports, by the rule of USAGE_OF_LEASE (decision 222) for leases
 * kept outside D1 (the customer's object, decision 246): a usage row of this customer and exit belongs to the lease when
 * its period ends at or after the lease's start and before the start of the customer's next lease of that exit
 * (`until`, null when none). One query for the whole page; the answer is in the page's order.
 */
export async function usageOfLeases(
  db: D1Database,
  userId: number,
  leases: { ip: string; port: number; from: number; until: number | null }[],
): Promise<LeaseUsage[]> {
  if (leases.length === 0) return [];
  const page = leases.map((l) => [l.ip, l.port, l.from, l.until ?? Number.MAX_SAFE_INTEGER]);
  const { results } = await db
    .prepare(
      `SELECT p.key AS k,
              (SELECT json_object('bytes', coalesce(sum(n.bytes_in + n.bytes_out), 0),
                                  'connections', coalesce(sum(n.connections), 0),
                                  'clients', json_group_array(DISTINCT n.client_ip))
                 FROM node_usage n WHERE n.user_id = ?1 AND n.ip = p.value ->> 0 AND n.port = p.value ->> 1
                   AND n.period_end >= p.value ->> 2 AND n.period_end < p.value ->> 3) AS owned
       FROM json_each(?2) p`,
    )
    .bind(userId, JSON.stringify(page))
    .all<{ k: number; owned: string }>();
  const out: LeaseUsage[] = leases.map(() => ({ bytes: 0, connections: 0, clients: [] }));
  for (const row of results) {
    const owned = JSON.parse(row.owned) as Partial<LeaseUsage>;
    out[row.k] = { bytes: owned.bytes ?? 0, connections: owned.connections ?? 0, clients: owned.clients ?? [] };
  }
  return out;
}

/**
 * How many of the user's calls D1's own log holds in [from, to) (the calls logged there before the customer's object
 * kept them, decision 246), counted in the log itself: where D1's rows sit among the tiers a records page pages over.
 */
export async function countLoggedCalls(
  db: D1Database,
  r: { userId: number; from: number; to: number },
): Promise<number> {
  if (r.to <= r.from) return 0;
  const row = await db
    .prepare('SELECT count(*) AS n FROM extract_logs WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3')
    .bind(r.userId, r.from, r.to)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
