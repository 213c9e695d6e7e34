// Queries behind GET /extract: the per-user rate counter, the white-list check, the packages to charge, the IP
// candidates, the conditional quota updates and the log/assignment writes.
import { extractionLeasesStatement } from './node-feed';

export interface PackageForExtract {
  id: number;
  billingMethod: 1 | 2;
  remainingCount: number;
  dailyLimit: number;
  usedToday: number;
  usageDay: string;
  durationMinutes: number;
  state: number;
  startsAt: number;
  expiresAt: number;
}

export interface CandidateIp {
  id: number;
  ip: string;
  port: number;
  province: string;
  city: string;
  carrier: string;
  expiresAt: number;
}

export interface CandidateFilter {
  pool: 10 | 40;
  protocolBit: number;
  minExpiresAt: number;
  regions: string[];
  excludes: string[];
  carriers: string[];
  limit: number;
  /** dedup 1: skip IPs handed to this user on this Shanghai day. */
  excludeDay: string | null;
  /** dedup 2: skip IPs this user still holds at this instant. */
  excludeInUseAt: number | null;
  userId: number;
}

/**
 * A package reserved as a source of an unpaid upgrade/merge order is frozen until that order is paid (retired) or
 * closed (released): its credit was fixed when the order was placed (docs/decisions/031).
 */
export const RESERVATION_FREE =
  'NOT EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = proxy_packages.id AND m.active = 1)';

/** One batch: count this call against the rate limit, check the caller's IP, load packages and candidate IPs. */
export async function loadExtractionState(
  db: D1Database,
  r: {
    userId: number;
    second: number;
    rateLimit: number;
    callerIp: string;
    productType: number;
    packageId: number | null;
    now: number;
    filter: CandidateFilter;
  },
): Promise<{ allowed: boolean; whiteListed: boolean; packages: PackageForExtract[]; candidates: CandidateIp[] }> {
  const f = r.filter;
  const where = ['pool = ?1', 'healthy = 1', 'expires_at >= ?2', '(protocols & ?3) != 0'];
  if (f.regions.length) {
    where.push('(province_key IN (SELECT value FROM json_each(?4)) OR city_key IN (SELECT value FROM json_each(?4)))');
  }
  if (f.excludes.length) {
    where.push(
      'province_key NOT IN (SELECT value FROM json_each(?5)) AND city_key NOT IN (SELECT value FROM json_each(?5))',
    );
  }
  if (f.carriers.length) where.push('carrier IN (SELECT value FROM json_each(?6))');
  if (f.excludeDay) where.push('id NOT IN (SELECT ip_id FROM ip_assignments WHERE user_id = ?7 AND day = ?8)');
  if (f.excludeInUseAt !== null) {
    where.push('id NOT IN (SELECT ip_id FROM ip_assignments WHERE user_id = ?7 AND expires_at > ?9)');
  }
  const candidates = db
    .prepare(
      `SELECT id, ip, port, province, city, carrier, expires_at FROM proxy_ips WHERE ${where.join(' AND ')}
       ORDER BY random() LIMIT ?10`,
    )
    .bind(
      f.pool,
      f.minExpiresAt,
      f.protocolBit,
      JSON.stringify(f.regions),
      JSON.stringify(f.excludes),
      JSON.stringify(f.carriers),
      f.userId,
      f.excludeDay ?? '',
      f.excludeInUseAt ?? 0,
      f.limit,
    );
  const [rate, white, packages, ips] = await db.batch<Record<string, unknown>>([
    // One conditional upsert per call: a new second starts at 1; within the second only while count < limit.
    db
      .prepare(
        `INSERT INTO extract_rate (user_id, window_sec, count) VALUES (?1, ?2, 1)
         ON CONFLICT(user_id) DO UPDATE SET
           count = CASE WHEN excluded.window_sec > window_sec THEN 1 ELSE count + 1 END,
           window_sec = max(window_sec, excluded.window_sec)
         WHERE excluded.window_sec > window_sec OR count < ?3`,
      )
      .bind(r.userId, r.second, r.rateLimit),
    db
      .prepare(
        'SELECT 1 AS ok FROM white_list WHERE user_id = ? AND ip = ? AND enabled = 1 AND (expires_at = 0 OR expires_at > ?)',
      )
      .bind(r.userId, r.callerIp, r.now),
    db
      .prepare(
        `SELECT id, billing_method, remaining_count, daily_limit, used_today, usage_day, ip_duration_minutes, state,
                starts_at, expires_at
         FROM proxy_packages
         WHERE user_id = ? AND product_type = ? AND state IN (1, 3) AND expires_at > ? AND (?4 = 0 OR id = ?4)
           AND ${RESERVATION_FREE}
         ORDER BY expires_at, id`,
      )
      .bind(r.userId, r.productType, r.now, r.packageId ?? 0),
    candidates,
  ]);
  return {
    allowed: (rate?.meta.changes ?? 0) === 1,
    whiteListed: (white?.results.length ?? 0) > 0,
    packages: (packages?.results ?? []).map((p) => ({
      id: p.id as number,
      billingMethod: p.billing_method as 1 | 2,
      remainingCount: p.remaining_count as number,
      dailyLimit: p.daily_limit as number,
      usedToday: p.used_today as number,
      usageDay: p.usage_day as string,
      durationMinutes: p.ip_duration_minutes as number,
      state: p.state as number,
      startsAt: p.starts_at as number,
      expiresAt: p.expires_at as number,
    })),
    candidates: (ips?.results ?? []).map((c) => ({
      id: c.id as number,
      ip: c.ip as string,
      port: c.port as number,
      province: c.province as string,
      city: c.city as string,
      carrier: c.carrier as string,
      expiresAt: c.expires_at as number,
    })),
  };
}

/** Take n IPs from a count package; false when another call got there first (never below zero). */
export async function chargeCountPackage(db: D1Database, packageId: number, n: number, now: number): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE proxy_packages
       SET remaining_count = remaining_count - ?2, state = CASE WHEN remaining_count - ?2 = 0 THEN 3 ELSE 1 END,
           updated_at = ?3
       WHERE id = ?1 AND billing_method = 1 AND state IN (1, 3) AND starts_at <= ?3 AND expires_at > ?3
         AND remaining_count >= ?2 AND ${RESERVATION_FREE}`,
    )
    .bind(packageId, n, now)
    .run();
  return res.meta.changes === 1;
}

/** Take n IPs from a time package's allowance for `day` (daily_limit 0 = unlimited); false when over the limit. */
export async function chargeTimePackage(
  db: D1Database,
  packageId: number,
  n: number,
  day: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE proxy_packages
       SET used_today = (CASE WHEN usage_day = ?3 THEN used_today ELSE 0 END) + ?2, usage_day = ?3, updated_at = ?4
       WHERE id = ?1 AND billing_method = 2 AND state = 1 AND starts_at <= ?4 AND expires_at > ?4
         AND (daily_limit = 0 OR (CASE WHEN usage_day = ?3 THEN used_today ELSE 0 END) + ?2 <= daily_limit)
         AND ${RESERVATION_FREE}`,
    )
    .bind(packageId, n, day, now)
    .run();
  return res.meta.changes === 1;
}

export interface ExtractLogEntry {
  userId: number;
  packageId: number | null;
  productType: number;
  clientIp: string;
  requested: number;
  returned: number;
  code: number;
  query: string;
  now: number;
}

const logStatement = (db: D1Database, e: ExtractLogEntry) =>
  db
    .prepare(
      `INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned, code, query, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(e.userId, e.packageId, e.productType, e.clientIp, e.requested, e.returned, e.code, e.query, e.now);

/** Log a failed call. */
export async function insertExtractLog(db: D1Database, e: ExtractLogEntry): Promise<void> {
  await logStatement(db, e).run();
}

export interface AssignmentRow {
  ipId: number;
  ip: string;
  port: number;
  region: string;
  carrier: string;
  expiresAt: number;
}

/**
 * Log a successful call and record each IP handed out, in one transaction (one statement for all IPs), with the
 * node change-feed rows announcing the new leases to their nodes.
 */
export async function recordExtraction(
  db: D1Database,
  e: ExtractLogEntry & { packageId: number; protocol: string; day: string },
  rows: AssignmentRow[],
): Promise<void> {
  const payload = JSON.stringify(rows.map((r) => [r.ipId, r.ip, r.port, r.region, r.carrier, r.expiresAt]));
  await db.batch([
    logStatement(db, e),
    db
      .prepare(
        `INSERT INTO ip_assignments (user_id, package_id, log_id, ip_id, product_type, ip, port, protocol, region, carrier,
                                     day, assigned_at, expires_at)
         SELECT ?1, ?2, (SELECT max(id) FROM extract_logs WHERE user_id = ?1), value ->> '$[0]', ?3, value ->> '$[1]',
                value ->> '$[2]', ?4, value ->> '$[3]', value ->> '$[4]', ?5, ?6, value ->> '$[5]'
         FROM json_each(?7)`,
      )
      .bind(e.userId, e.packageId, e.productType, e.protocol, e.day, e.now, payload),
    extractionLeasesStatement(db, e.userId, e.now),
  ]);
}
