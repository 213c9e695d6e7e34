// The conditional statements of the order placement batch (composed, run and judged by domain/order-placement.ts):
// the coupon lock, the order insert under its conditions, items and merge sources, the coupon release and the re-read
// of the refusals, all in one transaction.
import 'server-only';
import { ORDER_STATE } from '../../lib/order-states';
import { PACKAGE_STATE } from '../../lib/package-states';
import { USER_COUPON_STATE } from '../../lib/coupon-states';

/** What every order carries: who, what, and the amounts in fen (list - discount - credit - coupon = pay). */
export interface OrderCore {
  orderNo: string;
  userId: number;
  kind: number;
  productType: number;
  title: string;
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  payFen: number;
  userCouponId: number | null;
}

export interface OrderItemDraft {
  packageId: number | null;
  productType: number;
  billingMethod: number;
  ipDurationMinutes: number;
  name: string;
  mealId: number;
  units: number;
  regionId: number | null;
  addCount: number;
  addDailyLimit: number;
  addIpCount: number;
  addDays: number;
  listFen: number;
  valueFen: number;
}

export interface OrderDraft extends OrderCore {
  sourceType: number;
  expiresAt: number;
  createdAt: number;
  items: OrderItemDraft[];
  mergeSources: MergeSource[];
}

/** A package an upgrade/merge order retires, with the snapshot its credit was computed from. */
export interface MergeSource {
  packageId: number;
  creditFen: number;
  remainingCount: number;
  expiresAt: number;
}

/** The two refusals the placement batch re-reads in its own transaction (see `placementRefusalStatement`). */
export interface PlacementRefusal {
  /** A package the order extends is reserved by an unpaid upgrade/merge order. */
  busy: boolean;
  /** A merge source is no longer active or changed since its credit was computed. */
  changed: boolean;
}

// Packages the order extends (renew, extra count, period change), bound as ?16: reserved by an unpaid merge?
const BUSY = `EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.active = 1
    AND m.package_id IN (SELECT value FROM json_each(?16)))`;
// The merge sources' snapshot [id, remaining, expiry] bound as ?17 (user ?2): gone, inactive or changed since?
const CHANGED = `EXISTS (SELECT 1 FROM json_each(?17) j LEFT JOIN proxy_packages p ON p.id = j.value ->> '$[0]'
    AND p.user_id = ?2 WHERE p.id IS NULL OR p.state != ${PACKAGE_STATE.active} OR p.remaining_count != j.value ->> '$[1]'
      OR p.expires_at != j.value ->> '$[2]')`;

const extendedIds = (o: OrderDraft) =>
  JSON.stringify(o.items.flatMap((i) => (i.packageId === null ? [] : [i.packageId])));
const mergeSnapshot = (o: OrderDraft) =>
  JSON.stringify(o.mergeSources.map((m) => [m.packageId, m.remainingCount, m.expiresAt]));

/** Lock the coupon for the order, only if it is the user's, unused and valid now (checked by affected rows). */
export function lockCouponStatement(db: D1Database, o: OrderDraft, userCouponId: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE user_coupons SET state = ${USER_COUPON_STATE.locked}, order_no = ?1
       WHERE id = ?2 AND user_id = ?3 AND state = ${USER_COUPON_STATE.unused} AND valid_from <= ?4 AND expires_at > ?4`,
    )
    .bind(o.orderNo, userCouponId, o.userId, o.createdAt);
}

/**
 * Insert the order only if its coupon lock (if any) is ours, the user has fewer than `maxUnpaid` live unpaid orders, no
 * package it extends is reserved by an unpaid merge, and every merge source is still active and unchanged.
 */
export function insertOrderStatement(db: D1Database, o: OrderDraft, maxUnpaid: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO orders (order_no, user_id, kind, product_type, title, list_fen, discount_fen, credit_fen, coupon_fen,
         pay_fen, user_coupon_id, state, source_type, expires_at, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ${ORDER_STATE.pending}, ?12, ?13, ?14
       WHERE (?11 IS NULL OR EXISTS (SELECT 1 FROM user_coupons WHERE id = ?11 AND order_no = ?1 AND state = ${USER_COUPON_STATE.locked}))
         AND (SELECT count(*) FROM orders WHERE user_id = ?2 AND state = ${ORDER_STATE.pending} AND expires_at > ?14) < ?15
         AND NOT ${BUSY} AND NOT ${CHANGED}`,
    )
    .bind(
      o.orderNo,
      o.userId,
      o.kind,
      o.productType,
      o.title,
      o.listFen,
      o.discountFen,
      o.creditFen,
      o.couponFen,
      o.payFen,
      o.userCouponId,
      o.sourceType,
      o.expiresAt,
      o.createdAt,
      maxUnpaid,
      extendedIds(o),
      mergeSnapshot(o),
    );
}

/** The order's items, each inserted only if the order was. */
export function orderItemStatements(db: D1Database, o: OrderDraft): D1PreparedStatement[] {
  return o.items.map((i, seq) =>
    db
      .prepare(
        `INSERT INTO order_items (order_no, seq, package_id, product_type, billing_method, ip_duration_minutes, name,
           meal_id, units, region_id, add_count, add_daily_limit, add_ip_count, add_days, list_fen, value_fen)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
         WHERE EXISTS (SELECT 1 FROM orders WHERE order_no = ?1)`,
      )
      .bind(
        o.orderNo,
        seq,
        i.packageId,
        i.productType,
        i.billingMethod,
        i.ipDurationMinutes,
        i.name,
        i.mealId,
        i.units,
        i.regionId,
        i.addCount,
        i.addDailyLimit,
        i.addIpCount,
        i.addDays,
        i.listFen,
        i.valueFen,
      ),
  );
}

/**
 * The order's merge sources, each inserted (active) only if the order was. A source already in another unpaid order
 * violates a unique index, which rolls the whole batch back (`isUniqueViolation`).
 */
export function mergeSourceStatements(db: D1Database, o: OrderDraft): D1PreparedStatement[] {
  return o.mergeSources.map((m) =>
    db
      .prepare(
        `INSERT INTO order_merge_sources (order_no, package_id, credit_fen, active)
         SELECT ?1, ?2, ?3, 1 WHERE EXISTS (SELECT 1 FROM orders WHERE order_no = ?1)`,
      )
      .bind(o.orderNo, m.packageId, m.creditFen),
  );
}

/** Release a coupon locked for an order that was not inserted (run later in the same batch). */
export function releaseUnplacedCouponStatement(
  db: D1Database,
  o: OrderDraft,
  userCouponId: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE user_coupons SET state = ${USER_COUPON_STATE.unused}, order_no = NULL
       WHERE id = ?1 AND order_no = ?2 AND NOT EXISTS (SELECT 1 FROM orders WHERE order_no = ?2)`,
    )
    .bind(userCouponId, o.orderNo);
}

/** Read in the same transaction: was an extended package reserved, or a merge source changed? (`readPlacementRefusal`) */
export function placementRefusalStatement(db: D1Database, o: OrderDraft): D1PreparedStatement {
  return db
    .prepare(`SELECT ${BUSY} AS busy, ${CHANGED} AS changed`)
    .bind(null, o.userId, ...Array<null>(13).fill(null), extendedIds(o), mergeSnapshot(o));
}

/** The answer of `placementRefusalStatement`. */
export function readPlacementRefusal(result: D1Result | undefined): PlacementRefusal {
  const row = result?.results[0] as { busy?: number; changed?: number } | undefined;
  return { busy: row?.busy === 1, changed: row?.changed === 1 };
}

/** Whether a batch failed on a unique index (the whole batch was rolled back). */
export function isUniqueViolation(err: unknown): boolean {
  return /UNIQUE/i.test(String(err));
}
