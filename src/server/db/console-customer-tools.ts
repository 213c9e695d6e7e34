// Queries for the console's customer tools: the per-customer extraction rate limit, packages granted by an operator,
// sellers and the customers assigned to them. Statements are returned for the caller's audited batch.
import { type DedicatedSource, enoughFreeDedicatedSql, freeDedicatedBinds } from './fixed';
import type { PackageWithTerms } from './package-terms';
import { PACKAGE_STATE } from '../../lib/package-states';
import { DAY_MS } from '../../lib/time';
import { ORDER_STATE } from '../../lib/order-states';
import { ACCOUNT_STATUS } from '../../lib/console-states';
import { ON_OFF } from '../../lib/on-off-states';

export async function findRateLimit(db: D1Database, userId: number): Promise<number | null> {
  const row = await db
    .prepare('SELECT rate_limit FROM proxy_api_credentials WHERE user_id = ?')
    .bind(userId)
    .first<{ rate_limit: number }>();
  return row?.rate_limit ?? null;
}

/** /extract reads rate_limit on every call, so the new limit holds from the next call. */
export const setRateLimitStatement = (db: D1Database, r: { userId: number; rateLimit: number; now: number }) =>
  db
    .prepare('UPDATE proxy_api_credentials SET rate_limit = ?, updated_at = ? WHERE user_id = ?')
    .bind(r.rateLimit, r.now, r.userId);

/** A granted package's terms are a package's own; the grant adds its length, the operator's note and the time. */
export interface GrantFields
  extends Pick<
    PackageWithTerms,
    'userId' | 'productType' | 'billingMethod' | 'name' | 'ipDurationMinutes' | 'totalCount' | 'dailyLimit'
  > {
  days: number;
  sourceRef: string;
  now: number;
}

/** A package given by an operator (source 'operator'), only to an existing customer. */
export const grantPackageStatement = (db: D1Database, g: GrantFields) =>
  db
    .prepare(
      `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
         remaining_count, daily_limit, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
       SELECT id, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?8 + ?9 * ${DAY_MS}, ${PACKAGE_STATE.active}, 'operator', ?10, ?8, ?8
       FROM users WHERE id = ?1`,
    )
    .bind(
      g.userId,
      g.productType,
      g.billingMethod,
      g.name,
      g.ipDurationMinutes,
      g.totalCount,
      g.dailyLimit,
      g.now,
      g.days,
      g.sourceRef,
    );

/**
 * A dedicated-IP package (30/50, 包天, ip_count IPs) given by an operator, only to an existing customer and only when
 * the source has ip_count free IPs now (the allocation statements that follow in the batch take exactly those).
 */
export const grantDedicatedPackageStatement = (
  db: D1Database,
  g: {
    userId: number;
    productType: number;
    name: string;
    ipCount: number;
    expiresAt: number;
    sourceRef: string;
    now: number;
  },
  source: DedicatedSource,
) =>
  db
    .prepare(
      `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
         remaining_count, daily_limit, ip_count, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
       SELECT id, ?2, 2, ?3, 0, 0, 0, 0, ?4, ?5, ?6, ${PACKAGE_STATE.active}, 'operator', ?7, ?5, ?5
       FROM users WHERE id = ?1 AND ${enoughFreeDedicatedSql(8, 4)}`,
    )
    .bind(
      g.userId,
      g.productType,
      g.name,
      g.ipCount,
      g.now,
      g.expiresAt,
      g.sourceRef,
      ...freeDedicatedBinds(source, g.expiresAt),
    );

/** A region offered (enabled) for a dedicated type, with the keys its IPs are matched by. */
export async function findGrantRegion(db: D1Database, id: number, productType: number) {
  return db
    .prepare(
      `SELECT name, province_key AS provinceKey, city_key AS cityKey FROM meal_regions
       WHERE id = ? AND state = ${ON_OFF.on} AND (',' || product_types || ',') LIKE ?`,
    )
    .bind(id, `%,${productType},%`)
    .first<{ name: string; provinceKey: string; cityKey: string }>();
}

/** The live IPs (ip:port) allocated to one of the customer's packages. */
export async function packageAllocationIps(db: D1Database, userId: number, packageId: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      'SELECT ip, port FROM fixed_allocations WHERE user_id = ? AND package_id = ? AND released_at = 0 ORDER BY id',
    )
    .bind(userId, packageId)
    .all<{ ip: string; port: number }>();
  return results.map((r) => `${r.ip}:${r.port}`);
}

/** The node feed learns of the customer's new package (only when the customer exists). */
export const grantFeedStatement = (db: D1Database, userId: number, now: number) =>
  db
    .prepare(
      `INSERT INTO node_changes (kind, ref, created_at) SELECT 'u', id, ? FROM users WHERE id = ? AND status = ${ACCOUNT_STATUS.active}`,
    )
    .bind(now, userId);

export interface SellerRow {
  id: number;
  code: string;
  name: string;
  phone: string;
  enabled: boolean;
  customers: number;
  /** Paid (not refunded) order amounts of the seller's customers, all time. */
  paidFen: number;
}

export async function listSellers(db: D1Database): Promise<SellerRow[]> {
  const { results } = await db
    .prepare(
      `SELECT s.*, (SELECT count(*) FROM users u WHERE u.seller_id = s.id) AS customers,
         (SELECT COALESCE(SUM(o.pay_fen), 0) FROM orders o JOIN users u ON u.id = o.user_id
          WHERE u.seller_id = s.id AND o.state = ${ORDER_STATE.paid}) AS paid_fen
       FROM sellers s ORDER BY s.enabled DESC, s.id`,
    )
    .all<{
      id: number;
      code: string;
      name: string;
      phone: string;
      enabled: number;
      customers: number;
      paid_fen: number;
    }>();
  return results.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    phone: r.phone,
    enabled: r.enabled === 1,
    customers: r.customers,
    paidFen: r.paid_fen,
  }));
}

export async function findSeller(db: D1Database, id: number) {
  return db.prepare('SELECT id, code, name, phone, enabled FROM sellers WHERE id = ?').bind(id).first<{
    id: number;
    code: string;
    name: string;
    phone: string;
    enabled: number;
  }>();
}

export async function sellerCodeTaken(db: D1Database, code: string, exceptId: number): Promise<boolean> {
  return (
    (await db.prepare('SELECT 1 AS x FROM sellers WHERE code = ? AND id <> ?').bind(code, exceptId).first()) !== null
  );
}

export const insertSellerStatement = (db: D1Database, s: { code: string; name: string; phone: string }) =>
  db.prepare('INSERT INTO sellers (code, name, phone, enabled) VALUES (?, ?, ?, 1)').bind(s.code, s.name, s.phone);

export const updateSellerStatement = (
  db: D1Database,
  id: number,
  s: { code: string; name: string; phone: string; enabled: boolean },
) =>
  db
    .prepare('UPDATE sellers SET code = ?, name = ?, phone = ?, enabled = ? WHERE id = ?')
    .bind(s.code, s.name, s.phone, s.enabled ? 1 : 0, id);

/** Assign customers to a seller (or none); only to an enabled seller. */
export const assignSellerStatement = (db: D1Database, sellerId: number | null, userIds: number[], now: number) =>
  sellerId === null
    ? db
        .prepare(`UPDATE users SET seller_id = NULL, updated_at = ? WHERE id IN (${userIds.map(() => '?').join(',')})`)
        .bind(now, ...userIds)
    : db
        .prepare(
          `UPDATE users SET seller_id = ?, updated_at = ?
           WHERE id IN (${userIds.map(() => '?').join(',')}) AND EXISTS (SELECT 1 FROM sellers WHERE id = ? AND enabled = 1)`,
        )
        .bind(sellerId, now, ...userIds, sellerId);

/** Customers assigned to a seller, newest first. */
export async function sellerCustomers(db: D1Database, sellerId: number, limit: number) {
  const { results } = await db
    .prepare('SELECT id, phone, created_at FROM users WHERE seller_id = ? ORDER BY id DESC LIMIT ? + 0')
    .bind(sellerId, limit)
    .all<{ id: number; phone: string; created_at: number }>();
  return results.map((r) => ({ id: r.id, phone: r.phone, createdAt: r.created_at }));
}

/** The seller a customer is assigned to, if any. */
export async function findSellerOfUser(db: D1Database, userId: number) {
  return db
    .prepare('SELECT s.id, s.code, s.name FROM users u JOIN sellers s ON s.id = u.seller_id WHERE u.id = ?')
    .bind(userId)
    .first<{ id: number; code: string; name: string }>();
}
