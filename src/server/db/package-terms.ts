// Commerce's view of the shared proxy_packages table: a user's packages with the terms an order gave them (meal,
// units, region, money paid), for renewal, extra count, period change and upgrade/merge.

import type { StoredPackageRow } from './packages';
import { PACKAGE_STATE } from '../../lib/package-states';

export interface PackageWithTerms {
  id: number;
  userId: number;
  productType: number;
  billingMethod: number;
  name: string;
  ipDurationMinutes: number;
  totalCount: number;
  remainingCount: number;
  dailyLimit: number;
  ipCount: number;
  startsAt: number;
  expiresAt: number;
  state: number;
  remark: string;
  /** Null for packages that did not come from an order (welfare, red packets, demo). */
  mealId: number | null;
  units: number;
  regionId: number | null;
  paidFen: number;
  /** Reserved as a source of an unpaid upgrade/merge order (order_merge_sources, active). */
  reserved: boolean;
  /** Dedicated IPs held now (fixed_allocations not released): fewer than ipCount while some wait for allocation. */
  allocatedIps: number;
}

interface Row extends StoredPackageRow {
  user_id: number;
  meal_id: number | null;
  units: number | null;
  region_id: number | null;
  paid_fen: number | null;
  reserved: number;
  allocated_ips: number;
}

const SELECT = `SELECT p.id, p.user_id, p.product_type, p.billing_method, p.name, p.ip_duration_minutes, p.total_count,
  p.remaining_count, p.daily_limit, p.ip_count, p.starts_at, p.expires_at, p.state, p.remark,
  t.meal_id, t.units, t.region_id, t.paid_fen,
  EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = p.id AND m.active = 1) AS reserved,
  (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id AND f.released_at = 0) AS allocated_ips
  FROM proxy_packages p LEFT JOIN package_terms t ON t.package_id = p.id`;

const map = (r: Row): PackageWithTerms => ({
  id: r.id,
  userId: r.user_id,
  productType: r.product_type,
  billingMethod: r.billing_method,
  name: r.name,
  ipDurationMinutes: r.ip_duration_minutes,
  totalCount: r.total_count,
  remainingCount: r.remaining_count,
  dailyLimit: r.daily_limit,
  ipCount: r.ip_count,
  startsAt: r.starts_at,
  expiresAt: r.expires_at,
  state: r.state,
  remark: r.remark,
  mealId: r.meal_id,
  units: r.units ?? 0,
  regionId: r.region_id,
  paidFen: r.paid_fen ?? 0,
  reserved: r.reserved === 1,
  allocatedIps: r.allocated_ips,
});

/** One of the user's packages (not deleted), with its terms. */
export async function findUserPackage(db: D1Database, userId: number, id: number): Promise<PackageWithTerms | null> {
  const row = await db
    .prepare(`${SELECT} WHERE p.id = ? AND p.user_id = ? AND p.state != ${PACKAGE_STATE.deleted}`)
    .bind(id, userId)
    .first<Row>();
  return row ? map(row) : null;
}

/** The user's packages of a type that are not deleted or disabled, newest first. */
export async function listUserPackages(
  db: D1Database,
  userId: number,
  productType: number,
): Promise<PackageWithTerms[]> {
  const { results } = await db
    .prepare(
      `${SELECT} WHERE p.user_id = ? AND p.product_type = ? AND p.state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}) ORDER BY p.id DESC LIMIT 200`,
    )
    .bind(userId, productType)
    .all<Row>();
  return results.map(map);
}

/** Several of the user's packages by id. */
export async function findUserPackages(db: D1Database, userId: number, ids: number[]): Promise<PackageWithTerms[]> {
  if (ids.length === 0) return [];
  const marks = ids.map((_, i) => `?${i + 2}`).join(', ');
  const { results } = await db
    .prepare(`${SELECT} WHERE p.user_id = ?1 AND p.state != ${PACKAGE_STATE.deleted} AND p.id IN (${marks})`)
    .bind(userId, ...ids)
    .all<Row>();
  return results.map(map);
}
