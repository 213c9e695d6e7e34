// Queries for orders and their items: reading, closing (returning the coupon), the bill list and deletion by the user.
// The statements that place an order are in ./order-placement.ts.
import 'server-only';
import type { OrderCore, OrderItemDraft } from './order-placement';
import { ORDER_STATE, type OrderState } from '../../lib/order-states';
import { USER_COUPON_STATE } from '../../lib/coupon-states';

export interface OrderRecord extends OrderCore {
  state: OrderState;
  expiresAt: number;
  paidAt: number | null;
  paidOutTradeNo: string | null;
  fulfilledAt: number | null;
  closedAt: number | null;
  createdAt: number;
}

interface OrderRow {
  order_no: string;
  user_id: number;
  kind: number;
  product_type: number;
  title: string;
  list_fen: number;
  discount_fen: number;
  credit_fen: number;
  coupon_fen: number;
  pay_fen: number;
  user_coupon_id: number | null;
  state: OrderState;
  expires_at: number;
  paid_at: number | null;
  paid_out_trade_no: string | null;
  fulfilled_at: number | null;
  closed_at: number | null;
  created_at: number;
}

export const mapOrder = (r: OrderRow): OrderRecord => ({
  orderNo: r.order_no,
  userId: r.user_id,
  kind: r.kind,
  productType: r.product_type,
  title: r.title,
  listFen: r.list_fen,
  discountFen: r.discount_fen,
  creditFen: r.credit_fen,
  couponFen: r.coupon_fen,
  payFen: r.pay_fen,
  userCouponId: r.user_coupon_id,
  state: r.state,
  expiresAt: r.expires_at,
  paidAt: r.paid_at,
  paidOutTradeNo: r.paid_out_trade_no,
  fulfilledAt: r.fulfilled_at,
  closedAt: r.closed_at,
  createdAt: r.created_at,
});

/** An order by number (any user), or null. */
export async function findOrder(db: D1Database, orderNo: string): Promise<OrderRecord | null> {
  const row = await db.prepare('SELECT * FROM orders WHERE order_no = ?').bind(orderNo).first<OrderRow>();
  return row ? mapOrder(row) : null;
}

/** The user's own order (deleted ones excluded), or null. */
export async function findUserOrder(db: D1Database, userId: number, orderNo: string): Promise<OrderRecord | null> {
  const row = await db
    .prepare('SELECT * FROM orders WHERE order_no = ? AND user_id = ? AND deleted_at IS NULL')
    .bind(orderNo, userId)
    .first<OrderRow>();
  return row ? mapOrder(row) : null;
}

export interface OrderItemRecord extends OrderItemDraft {
  seq: number;
}

/** The items of an order, in order. */
export async function listOrderItems(db: D1Database, orderNo: string): Promise<OrderItemRecord[]> {
  const { results } = await db
    .prepare('SELECT * FROM order_items WHERE order_no = ? ORDER BY seq')
    .bind(orderNo)
    .all<Record<string, number | string | null>>();
  return results.map((r) => ({
    seq: r.seq as number,
    packageId: r.package_id as number | null,
    productType: r.product_type as number,
    billingMethod: r.billing_method as number,
    ipDurationMinutes: r.ip_duration_minutes as number,
    name: r.name as string,
    mealId: r.meal_id as number,
    units: r.units as number,
    regionId: r.region_id as number | null,
    addCount: r.add_count as number,
    addDailyLimit: r.add_daily_limit as number,
    addIpCount: r.add_ip_count as number,
    addDays: r.add_days as number,
    listFen: r.list_fen as number,
    valueFen: r.value_fen as number,
  }));
}

/**
 * Close an unpaid order: the state change is conditional; the coupon, merge sources and open payment attempts are
 * released only when this statement closed it. True when this call closed the order.
 */
export async function closeUnpaidOrder(db: D1Database, orderNo: string, now: number): Promise<boolean> {
  const closedByUs = `EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND state = ${ORDER_STATE.closed} AND closed_at = ?2)`;
  const [closed] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET state = ${ORDER_STATE.closed}, closed_at = ?2 WHERE order_no = ?1 AND state = ${ORDER_STATE.pending}`,
      )
      .bind(orderNo, now),
    db
      .prepare(
        `UPDATE user_coupons SET state = ${USER_COUPON_STATE.unused}, order_no = NULL WHERE order_no = ?1 AND state = ${USER_COUPON_STATE.locked} AND ${closedByUs}`,
      )
      .bind(orderNo, now),
    db.prepare(`UPDATE order_merge_sources SET active = 0 WHERE order_no = ?1 AND ${closedByUs}`).bind(orderNo, now),
    db
      .prepare(
        `UPDATE payments SET state = 'closed' WHERE order_no = ?1 AND state IN ('creating', 'pending') AND ${closedByUs}`,
      )
      .bind(orderNo, now),
  ]);
  return closed?.meta.changes === 1;
}

/** Unpaid orders past their expiry (oldest first). */
export async function listExpiredUnpaid(db: D1Database, now: number, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT order_no FROM orders WHERE state = ${ORDER_STATE.pending} AND expires_at <= ? ORDER BY expires_at LIMIT ? + 0`,
    )
    .bind(now, limit)
    .all<{ order_no: string }>();
  return results.map((r) => r.order_no);
}

export interface BillFilter {
  state: number;
  kind: number;
  productType: number;
  orderNo: string;
  from: number;
  to: number;
  page: number;
  pageSize: number;
}

/**
 * The user's bills, newest first, with the total for paging and each order's refunded amount (partial refunds
 * included). Unpaid orders past expiry count as closed.
 */
export async function listBills(
  db: D1Database,
  userId: number,
  f: BillFilter,
  now: number,
): Promise<{ total: number; list: (OrderRecord & { refundedFen: number })[] }> {
  const where = ['user_id = ?1', 'deleted_at IS NULL'];
  if (f.state === ORDER_STATE.pending) where.push(`state = ${ORDER_STATE.pending} AND expires_at > ?2`);
  else if (f.state === ORDER_STATE.closed)
    where.push(`(state = ${ORDER_STATE.closed} OR (state = ${ORDER_STATE.pending} AND expires_at <= ?2))`);
  else if (f.state === ORDER_STATE.paid) where.push(`state = ${ORDER_STATE.paid}`);
  else where.push('?2 = ?2');
  if (f.kind) where.push('kind = ?3');
  else where.push('?3 = ?3');
  if (f.productType) where.push('product_type = ?4');
  else where.push('?4 = ?4');
  if (f.orderNo) where.push('order_no = ?5');
  else where.push('?5 = ?5');
  if (f.from) where.push('created_at >= ?6');
  else where.push('?6 = ?6');
  if (f.to) where.push('created_at < ?7');
  else where.push('?7 = ?7');
  const sql = where.join(' AND ');
  const binds = [userId, now, f.kind, f.productType, f.orderNo, f.from, f.to];
  const [count, rows] = await db.batch([
    db.prepare(`SELECT count(*) AS n FROM orders WHERE ${sql}`).bind(...binds),
    db
      .prepare(
        // refunded_fen: what the order's live refunds returned (partial refunds leave the order paid; decision 205).
        `SELECT *, (SELECT coalesce(sum(r.amount_fen), 0) FROM refunds r
             WHERE r.order_no = orders.order_no AND r.kind = 'order' AND r.status != 'FAILED') AS refunded_fen
         FROM orders WHERE ${sql} ORDER BY created_at DESC, order_no LIMIT ?8 + 0 OFFSET ?9`,
      )
      .bind(...binds, f.pageSize, (f.page - 1) * f.pageSize),
  ]);
  return {
    total: (count?.results[0] as { n: number } | undefined)?.n ?? 0,
    list: ((rows?.results ?? []) as (OrderRow & { refunded_fen: number })[]).map((r) => ({
      ...mapOrder(r),
      refundedFen: r.refunded_fen,
    })),
  };
}

/** How many of the user's orders await payment (the payNoCount badge). */
export async function countUnpaid(db: D1Database, userId: number, now: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM orders WHERE user_id = ? AND state = ${ORDER_STATE.pending} AND expires_at > ? AND deleted_at IS NULL`,
    )
    .bind(userId, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Hide closed orders of the user from the bill list; returns how many were hidden. */
export async function hideClosedOrders(
  db: D1Database,
  userId: number,
  orderNos: string[],
  now: number,
): Promise<number> {
  if (orderNos.length === 0) return 0;
  const marks = orderNos.map((_, i) => `?${i + 3}`).join(', ');
  const res = await db
    .prepare(
      `UPDATE orders SET deleted_at = ?2 WHERE user_id = ?1 AND state = ${ORDER_STATE.closed} AND deleted_at IS NULL AND order_no IN (${marks})`,
    )
    .bind(userId, now, ...orderNos)
    .run();
  return res.meta.changes;
}
