// Queries for the console's campaigns: coupon rules with their use (issued, locked by unpaid orders, used, stock left),
// issuing coupons to customers within stock and the per-user limit, and red-packet launches with their use (received,
// used, budget left). Stock and budget are only ever taken by conditional statements checked by affected rows.
import { type CouponDbRow, type CouponTerms, couponTermsOf } from './coupons';
import { mapRedLaunch, type RedLaunch, type RedLaunchDbRow } from './red-packets';
import { DAY_MS } from '../../lib/time';
import { USER_COUPON_STATE } from '../../lib/coupon-states';
import { ON_OFF, otherOnOff } from '../../lib/on-off-states';
import { RED_RECORD_STATE } from '../../lib/trust-states';

export interface CouponAdminRow extends CouponTerms {
  /** 0 = unlimited. */
  totalStock: number;
  claimable: boolean;
  startsAt: number;
  endsAt: number;
  state: number;
  issued: number;
  locked: number;
  used: number;
  /** null = unlimited. */
  remaining: number | null;
}

interface CouponRow extends CouponDbRow {
  n_issued: number;
  n_locked: number;
  n_used: number;
}

const COUPON_SELECT = `SELECT c.*,
    (SELECT count(*) FROM user_coupons u WHERE u.coupon_id = c.id) AS n_issued,
    (SELECT count(*) FROM user_coupons u WHERE u.coupon_id = c.id AND u.state = ${USER_COUPON_STATE.locked}) AS n_locked,
    (SELECT count(*) FROM user_coupons u WHERE u.coupon_id = c.id AND u.state = ${USER_COUPON_STATE.used}) AS n_used
  FROM coupons c`;

const mapCoupon = (r: CouponRow): CouponAdminRow => ({
  ...couponTermsOf(r),
  totalStock: r.total_stock,
  claimable: r.claimable === 1,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  state: r.state,
  issued: r.n_issued,
  locked: r.n_locked,
  used: r.n_used,
  remaining: r.total_stock > 0 ? Math.max(0, r.total_stock - r.n_issued) : null,
});

export async function listCouponsForAdmin(db: D1Database): Promise<CouponAdminRow[]> {
  const { results } = await db.prepare(`${COUPON_SELECT} ORDER BY c.state, c.id DESC`).all<CouponRow>();
  return results.map(mapCoupon);
}

export async function findCouponForAdmin(db: D1Database, id: number): Promise<CouponAdminRow | null> {
  const row = await db.prepare(`${COUPON_SELECT} WHERE c.id = ?`).bind(id).first<CouponRow>();
  return row ? mapCoupon(row) : null;
}

/** What the console edits on a coupon rule: its terms plus stock, claimability and window. */
export interface CouponFields extends Omit<CouponTerms, 'id'> {
  totalStock: number;
  claimable: boolean;
  startsAt: number;
  endsAt: number;
}

const couponBinds = (c: CouponFields) => [
  c.name,
  c.kind,
  c.value,
  c.thresholdFen,
  c.productTypes.join(','),
  c.validDays,
  c.perUserLimit,
  c.totalStock,
  c.claimable ? 1 : 0,
  c.startsAt,
  c.endsAt,
];

export const insertCouponStatement = (db: D1Database, c: CouponFields) =>
  db
    .prepare(
      `INSERT INTO coupons (name, kind, value, threshold_fen, product_types, valid_days, per_user_limit, total_stock,
         claimable, starts_at, ends_at, issued, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1)`,
    )
    .bind(...couponBinds(c));

/**
 * Edit a rule; the stock may not fall below what was already issued (checked inside the statement, so a coupon issued
 * meanwhile is counted). Coupons already held keep their validity; the rule's amounts apply when they are used.
 */
export const updateCouponStatement = (db: D1Database, id: number, c: CouponFields) =>
  db
    .prepare(
      `UPDATE coupons SET name = ?1, kind = ?2, value = ?3, threshold_fen = ?4, product_types = ?5, valid_days = ?6,
         per_user_limit = ?7, total_stock = ?8, claimable = ?9, starts_at = ?10, ends_at = ?11
       WHERE id = ?12 AND (?8 = 0 OR (SELECT count(*) FROM user_coupons WHERE coupon_id = ?12) <= ?8)`,
    )
    .bind(...couponBinds(c), id);

export const setCouponStateStatement = (db: D1Database, id: number, state: 1 | 2) =>
  db.prepare('UPDATE coupons SET state = ? WHERE id = ? AND state = ?').bind(state, id, otherOnOff(state));

/**
 * One customer's coupon, issued by an operator: only while the rule is enabled and not ended, within the stock
 * (counted in the statement itself, so statements in one batch or concurrent batches cannot oversell) and under the
 * per-user limit. Claimable or not does not matter: the operator chooses who gets it.
 */
export const issueCouponStatement = (db: D1Database, r: { couponId: number; userId: number; now: number }) =>
  db
    .prepare(
      `INSERT INTO user_coupons (user_id, coupon_id, state, valid_from, expires_at, received_at)
       SELECT ?1, c.id, ${USER_COUPON_STATE.unused}, ?3, ?3 + c.valid_days * ${DAY_MS}, ?3 FROM coupons c
       WHERE c.id = ?2 AND c.state = ${ON_OFF.on} AND c.ends_at > ?3
         AND (c.total_stock = 0 OR (SELECT count(*) FROM user_coupons WHERE coupon_id = ?2) < c.total_stock)
         AND (SELECT count(*) FROM user_coupons WHERE coupon_id = ?2 AND user_id = ?1) < c.per_user_limit`,
    )
    .bind(r.userId, r.couponId, r.now);

/** Bring the issued counter to the truth; changes a row only when coupons were issued since it was last set. */
export const syncCouponIssuedStatement = (db: D1Database, couponId: number) =>
  db
    .prepare(
      `UPDATE coupons SET issued = (SELECT count(*) FROM user_coupons WHERE coupon_id = ?1)
       WHERE id = ?1 AND issued <> (SELECT count(*) FROM user_coupons WHERE coupon_id = ?1)`,
    )
    .bind(couponId);

/** Resolve customer references (phone numbers or user ids) to existing user ids, in the order given. */
export async function resolveCustomers(
  db: D1Database,
  refs: { phones: string[]; ids: number[] },
): Promise<{ id: number; phone: string }[]> {
  const out: { id: number; phone: string }[] = [];
  if (refs.phones.length) {
    const { results } = await db
      .prepare(`SELECT id, phone FROM users WHERE phone IN (${refs.phones.map(() => '?').join(',')})`)
      .bind(...refs.phones)
      .all<{ id: number; phone: string }>();
    out.push(...results);
  }
  if (refs.ids.length) {
    const { results } = await db
      .prepare(`SELECT id, phone FROM users WHERE id IN (${refs.ids.map(() => '?').join(',')})`)
      .bind(...refs.ids)
      .all<{ id: number; phone: string }>();
    out.push(...results);
  }
  return [...new Map(out.map((u) => [u.id, u])).values()];
}

export interface RedLaunchAdminRow extends RedLaunch {
  used: number;
  remaining: number;
  enabled: boolean;
}

interface LaunchRow extends RedLaunchDbRow {
  n_used: number;
  enabled: number;
}

const LAUNCH_SELECT = `SELECT l.*, (SELECT count(*) FROM red_records r WHERE r.launch_id = l.id AND r.state = ${RED_RECORD_STATE.used}) AS n_used
  FROM red_launches l`;

const mapLaunch = (r: LaunchRow): RedLaunchAdminRow => ({
  ...mapRedLaunch(r),
  used: r.n_used,
  remaining: Math.max(0, r.budget - r.received),
  enabled: r.enabled === 1,
});

export async function listLaunchesForAdmin(db: D1Database): Promise<RedLaunchAdminRow[]> {
  const { results } = await db.prepare(`${LAUNCH_SELECT} ORDER BY l.enabled DESC, l.starts_at DESC`).all<LaunchRow>();
  return results.map(mapLaunch);
}

export async function findLaunchForAdmin(db: D1Database, id: number): Promise<RedLaunchAdminRow | null> {
  const row = await db.prepare(`${LAUNCH_SELECT} WHERE l.id = ?`).bind(id).first<LaunchRow>();
  return row ? mapLaunch(row) : null;
}

/** What the console edits on a red-packet launch (its received count is the customers'). */
export type LaunchFields = Omit<RedLaunch, 'id' | 'received'>;

const launchBinds = (l: LaunchFields) => [
  l.title,
  l.description,
  l.productType,
  l.ipDurationMinutes,
  l.ipCount,
  l.validDays,
  l.budget,
  l.startsAt,
  l.endsAt,
];

export const insertLaunchStatement = (db: D1Database, l: LaunchFields) =>
  db
    .prepare(
      `INSERT INTO red_launches (title, description, product_type, ip_duration_minutes, ip_count, valid_days, budget,
         starts_at, ends_at, received, enabled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1)`,
    )
    .bind(...launchBinds(l));

/**
 * Edit a launch. The budget may not fall below the packets already received, and once a packet was received the
 * packet's content (type, duration, IPs, validity) stays as received: both checked in the statement itself.
 */
export const updateLaunchStatement = (db: D1Database, id: number, l: LaunchFields) =>
  db
    .prepare(
      `UPDATE red_launches SET title = ?1, description = ?2, product_type = ?3, ip_duration_minutes = ?4, ip_count = ?5,
         valid_days = ?6, budget = ?7, starts_at = ?8, ends_at = ?9
       WHERE id = ?10 AND received <= ?7
         AND (received = 0 OR (product_type = ?3 AND ip_duration_minutes = ?4 AND ip_count = ?5 AND valid_days = ?6))`,
    )
    .bind(...launchBinds(l), id);

export const setLaunchEnabledStatement = (db: D1Database, id: number, enabled: boolean) =>
  db
    .prepare('UPDATE red_launches SET enabled = ? WHERE id = ? AND enabled = ?')
    .bind(enabled ? 1 : 0, id, enabled ? 0 : 1);
