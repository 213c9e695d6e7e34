// Queries for coupons: rules, a user's coupons, receiving one within the per-user limit and stock, all atomic.
import type { CouponOffer } from '../domain/pricing';
import { DAY_MS } from '../../lib/time';
import { USER_COUPON_STATE } from '../../lib/coupon-states';
import { ON_OFF } from '../../lib/on-off-states';

export interface CouponRule extends CouponTerms {
  remaining: number | null;
  endsAt: number;
}

export interface UserCoupon extends CouponOffer {
  couponId: number;
  state: 1 | 2 | 3;
  orderNo: string | null;
  receivedAt: number;
  usedAt: number | null;
}

/** A rule's product types as stored ("10,40") -> [10, 40]. */
export const productTypesOf = (csv: string): number[] =>
  csv
    ? csv
        .split(',')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0)
    : [];
const types = productTypesOf;

/** A coupons row as `SELECT c.*` reads it (every reader of rules shares these columns). */
export interface CouponDbRow {
  id: number;
  name: string;
  kind: 1 | 2;
  value: number;
  threshold_fen: number;
  product_types: string;
  valid_days: number;
  per_user_limit: number;
  total_stock: number;
  issued: number;
  claimable: number;
  starts_at: number;
  ends_at: number;
  state: number;
}

export interface CouponTerms {
  id: number;
  name: string;
  kind: 1 | 2;
  value: number;
  thresholdFen: number;
  productTypes: number[];
  validDays: number;
  perUserLimit: number;
}

/** The rule's terms as the pricing engine and the screens name them. */
export const couponTermsOf = (r: CouponDbRow): CouponTerms => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  value: r.value,
  thresholdFen: r.threshold_fen,
  productTypes: productTypesOf(r.product_types),
  validDays: r.valid_days,
  perUserLimit: r.per_user_limit,
});

interface UserCouponRow {
  id: number;
  coupon_id: number;
  name: string;
  kind: 1 | 2;
  value: number;
  threshold_fen: number;
  product_types: string;
  state: 1 | 2 | 3;
  order_no: string | null;
  valid_from: number;
  expires_at: number;
  received_at: number;
  used_at: number | null;
}

const mapUserCoupon = (r: UserCouponRow): UserCoupon => ({
  userCouponId: r.id,
  couponId: r.coupon_id,
  name: r.name,
  kind: r.kind,
  value: r.value,
  thresholdFen: r.threshold_fen,
  productTypes: types(r.product_types),
  validFrom: r.valid_from,
  expiresAt: r.expires_at,
  state: r.state,
  orderNo: r.order_no,
  receivedAt: r.received_at,
  usedAt: r.used_at,
});

const USER_COUPON_SELECT = `SELECT uc.id, uc.coupon_id, c.name, c.kind, c.value, c.threshold_fen, c.product_types, uc.state,
  uc.order_no, uc.valid_from, uc.expires_at, uc.received_at, uc.used_at
  FROM user_coupons uc JOIN coupons c ON c.id = uc.coupon_id`;

/** A user's coupons: 'unused' (state 1, still valid), 'used' (locked or used), 'expired' (unused past validity). */
export async function listUserCoupons(
  db: D1Database,
  userId: number,
  filter: 'unused' | 'used' | 'expired',
  now: number,
): Promise<UserCoupon[]> {
  const where =
    filter === 'unused'
      ? `uc.state = ${USER_COUPON_STATE.unused} AND uc.expires_at > ?2`
      : filter === 'used'
        ? `uc.state IN (${USER_COUPON_STATE.locked}, ${USER_COUPON_STATE.used}) AND ?2 = ?2`
        : `uc.state = ${USER_COUPON_STATE.unused} AND uc.expires_at <= ?2`;
  const { results } = await db
    .prepare(`${USER_COUPON_SELECT} WHERE uc.user_id = ?1 AND ${where} ORDER BY uc.expires_at, uc.id LIMIT 200`)
    .bind(userId, now)
    .all<UserCouponRow>();
  return results.map(mapUserCoupon);
}

/** One of the user's coupons by id, or null. */
export async function findUserCoupon(db: D1Database, userId: number, id: number): Promise<UserCoupon | null> {
  const row = await db
    .prepare(`${USER_COUPON_SELECT} WHERE uc.user_id = ? AND uc.id = ?`)
    .bind(userId, id)
    .first<UserCouponRow>();
  return row ? mapUserCoupon(row) : null;
}

interface CouponRow extends CouponDbRow {
  mine: number;
}

/** Coupons the user may receive now, with how many they already hold. */
export async function listClaimableCoupons(
  db: D1Database,
  userId: number,
  now: number,
): Promise<(CouponRule & { received: number })[]> {
  const { results } = await db
    .prepare(
      `SELECT c.*, (SELECT count(*) FROM user_coupons uc WHERE uc.coupon_id = c.id AND uc.user_id = ?1) AS mine
       FROM coupons c WHERE c.state = ${ON_OFF.on} AND c.claimable = 1 AND c.starts_at <= ?2 AND c.ends_at > ?2
       ORDER BY c.id`,
    )
    .bind(userId, now)
    .all<CouponRow>();
  return results.map((r) => ({
    ...couponTermsOf(r),
    remaining: r.total_stock > 0 ? Math.max(0, r.total_stock - r.issued) : null,
    endsAt: r.ends_at,
    received: r.mine,
  }));
}

/**
 * Give a user one coupon if the rule is live, claimable, in stock and under the per-user limit. One statement for the
 * grant, so concurrent requests cannot exceed either limit. Returns the new user coupon id or null.
 */
export async function receiveCoupon(
  db: D1Database,
  userId: number,
  couponId: number,
  now: number,
  opts: { requireClaimable: boolean },
): Promise<number | null> {
  const [grant] = await db.batch([
    db
      .prepare(
        `INSERT INTO user_coupons (user_id, coupon_id, state, valid_from, expires_at, received_at)
         SELECT ?1, c.id, ${USER_COUPON_STATE.unused}, ?3, ?3 + c.valid_days * ${DAY_MS}, ?3 FROM coupons c
         WHERE c.id = ?2 AND c.state = ${ON_OFF.on} AND (c.claimable = 1 OR ?4 = 0) AND c.starts_at <= ?3 AND c.ends_at > ?3
           AND (c.total_stock = 0 OR c.issued < c.total_stock)
           AND (SELECT count(*) FROM user_coupons WHERE coupon_id = ?2 AND user_id = ?1) < c.per_user_limit
         RETURNING id`,
      )
      .bind(userId, couponId, now, opts.requireClaimable ? 1 : 0),
    db
      .prepare('UPDATE coupons SET issued = (SELECT count(*) FROM user_coupons WHERE coupon_id = ?1) WHERE id = ?1')
      .bind(couponId),
  ]);
  const row = (grant?.results as { id: number }[] | undefined)?.[0];
  return row?.id ?? null;
}
