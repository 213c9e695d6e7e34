// Queries over proxy_packages for the personal centre (list, remark, delete, counts). Packages are created by
// commerce; delivery reads them and changes only remark and the user's own deletion (state 4).
import { RESERVATION_FREE } from './extract';
import { PACKAGE_STATE } from '../../lib/package-states';

export interface PackageRow {
  id: number;
  productType: number;
  billingMethod: number;
  name: string;
  durationMinutes: number;
  totalCount: number;
  remainingCount: number;
  dailyLimit: number;
  usedToday: number;
  usageDay: string;
  ipCount: number;
  startsAt: number;
  expiresAt: number;
  state: number;
  remark: string;
  source: string;
  createdAt: number;
  /** Reserved as a source of an unpaid upgrade/merge order (frozen until that order is paid or closed). */
  reserved?: boolean;
  /** Fixed/premium: dedicated IPs currently allocated (may be below ipCount while none of the region is free). */
  allocatedIps?: number;
}

/** The proxy_packages columns every reader of a package maps (the personal centre, commerce's terms view). */
export interface StoredPackageRow {
  id: number;
  product_type: number;
  billing_method: number;
  name: string;
  ip_duration_minutes: number;
  total_count: number;
  remaining_count: number;
  daily_limit: number;
  ip_count: number;
  starts_at: number;
  expires_at: number;
  state: number;
  remark: string;
}

interface Row extends StoredPackageRow {
  used_today: number;
  usage_day: string;
  source: string;
  created_at: number;
  reserved?: number;
  allocated_ips?: number;
}

const map = (r: Row): PackageRow => ({
  id: r.id,
  productType: r.product_type,
  billingMethod: r.billing_method,
  name: r.name,
  durationMinutes: r.ip_duration_minutes,
  totalCount: r.total_count,
  remainingCount: r.remaining_count,
  dailyLimit: r.daily_limit,
  usedToday: r.used_today,
  usageDay: r.usage_day,
  ipCount: r.ip_count,
  startsAt: r.starts_at,
  expiresAt: r.expires_at,
  state: r.state,
  remark: r.remark,
  source: r.source,
  createdAt: r.created_at,
  ...(r.reserved !== undefined ? { reserved: r.reserved === 1 } : {}),
  ...(r.allocated_ips !== undefined ? { allocatedIps: r.allocated_ips } : {}),
});

const COLUMNS = `id, product_type, billing_method, name, ip_duration_minutes, total_count, remaining_count, daily_limit,
  used_today, usage_day, ip_count, starts_at, expires_at, state, remark, source, created_at`;

/** A page of the user's packages of some types (deleted ones excluded), live ones first. */
export async function listPackages(
  db: D1Database,
  r: { userId: number; types: number[]; state: number | null; offset: number; limit: number },
): Promise<{ total: number; list: PackageRow[] }> {
  const filter = `user_id = ?1 AND product_type IN (SELECT value FROM json_each(?2)) AND state != ${PACKAGE_STATE.deleted}
    AND (?3 = 0 OR state = ?3)`;
  const types = JSON.stringify(r.types);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT count(*) AS n FROM proxy_packages WHERE ${filter}`).bind(r.userId, types, r.state ?? 0),
    db
      .prepare(
        `SELECT ${COLUMNS},
           EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = proxy_packages.id AND m.active = 1) AS reserved,
           (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = proxy_packages.id AND f.released_at = 0)
             AS allocated_ips
         FROM proxy_packages WHERE ${filter}
         ORDER BY CASE WHEN state = ${PACKAGE_STATE.active} THEN 0 ELSE 1 END, expires_at DESC, id DESC LIMIT ?4 + 0 OFFSET ?5`,
      )
      .bind(r.userId, types, r.state ?? 0, r.limit, r.offset),
  ]);
  return {
    total: (count?.results[0]?.n as number) ?? 0,
    list: ((rows?.results ?? []) as unknown as Row[]).map(map),
  };
}

/** The user's live (unexpired, active or used-up) packages, all types. */
export async function livePackages(db: D1Database, userId: number, now: number): Promise<PackageRow[]> {
  const { results } = await db
    .prepare(
      // Packages frozen by an unpaid upgrade are not usable, so they are not counted or offered (decision 031).
      `SELECT ${COLUMNS} FROM proxy_packages WHERE user_id = ? AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.usedUp}) AND expires_at > ? AND starts_at <= ?
         AND ${RESERVATION_FREE}
       ORDER BY expires_at, id`,
    )
    .bind(userId, now, now)
    .all<Row>();
  return results.map(map);
}

/** Set a package's remark; false when it is not the user's. */
export async function setPackageRemark(db: D1Database, userId: number, id: number, remark: string, now: number) {
  const res = await db
    .prepare(
      `UPDATE proxy_packages SET remark = ?, updated_at = ? WHERE id = ? AND user_id = ? AND state != ${PACKAGE_STATE.deleted}`,
    )
    .bind(remark, now, id, userId)
    .run();
  return res.meta.changes === 1;
}

/** Delete (state 4) those of the ids that are the user's and expired or used up; returns how many. */
export async function deleteFinishedPackages(db: D1Database, userId: number, ids: number[], now: number) {
  const res = await db
    .prepare(
      `UPDATE proxy_packages SET state = ${PACKAGE_STATE.deleted}, updated_at = ?1
       WHERE user_id = ?2 AND id IN (SELECT value FROM json_each(?3))
         AND (state IN (${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}, ${PACKAGE_STATE.disabled}) OR expires_at <= ?1) AND NOT (state = ${PACKAGE_STATE.usedUp} AND remaining_count > 0 AND expires_at > ?1)`,
    )
    .bind(now, userId, JSON.stringify(ids))
    .run();
  return res.meta.changes;
}

/** Move lapsed active packages to state 2 (expired). */
export async function expireLapsedPackages(db: D1Database, now: number): Promise<number> {
  const res = await db
    .prepare(
      `UPDATE proxy_packages SET state = ${PACKAGE_STATE.expired}, updated_at = ?1 WHERE state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.usedUp}) AND expires_at <= ?1`,
    )
    .bind(now)
    .run();
  return res.meta.changes;
}
