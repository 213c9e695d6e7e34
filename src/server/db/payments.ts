// Queries for payment attempts and the statements of the one atomic batch that marks an order paid and fulfils it
// (domain/fulfilment.ts composes and runs it): the order changes from unpaid to paid at most once, and every
// fulfilment statement runs only while that order is paid by this attempt and not yet fulfilled, so a duplicate or
// concurrent callback changes nothing.
import 'server-only';
import { paymentNotes } from '../../lib/messages';
import { creditStatements } from './balance';
import type { OrderItemRecord } from './orders';
import { DAY_MS } from '../../lib/time';
import { ORDER_STATE } from '../../lib/order-states';
import { PACKAGE_STATE } from '../../lib/package-states';
import { USER_COUPON_STATE } from '../../lib/coupon-states';

export type PaymentState = 'creating' | 'pending' | 'paid' | 'closed' | 'failed';
/** How an attempt was opened (migration 0038): a QR code, Alipay's web cashier, or a phone's own payment. */
export type PaymentMode = 'qr' | 'page' | 'wap';

export interface PaymentRecord {
  outTradeNo: string;
  orderNo: string;
  userId: number;
  provider: string;
  amountFen: number;
  state: PaymentState;
  mode: PaymentMode;
  /** JSAPI (inside WeChat's browser): the payer the prepay_id in codeUrl was opened for; null otherwise. */
  payerOpenid: string | null;
  codeUrl: string | null;
  expiresAt: number;
  transactionId: string | null;
  refundNeeded: boolean;
  /** Why the attempt was flagged, and the refund that cleared the flag. */
  note: string;
  lastQueryAt: number;
  createdAt: number;
}

interface PaymentRow {
  out_trade_no: string;
  order_no: string;
  user_id: number;
  provider: string;
  amount_fen: number;
  state: PaymentState;
  mode: PaymentMode;
  payer_openid: string | null;
  code_url: string | null;
  expires_at: number;
  transaction_id: string | null;
  refund_needed: number;
  note: string;
  last_query_at: number;
  created_at: number;
}

const mapPayment = (r: PaymentRow): PaymentRecord => ({
  outTradeNo: r.out_trade_no,
  orderNo: r.order_no,
  userId: r.user_id,
  provider: r.provider,
  amountFen: r.amount_fen,
  state: r.state,
  mode: r.mode,
  payerOpenid: r.payer_openid ?? null,
  codeUrl: r.code_url,
  expiresAt: r.expires_at,
  transactionId: r.transaction_id,
  refundNeeded: r.refund_needed === 1,
  note: r.note ?? '',
  lastQueryAt: r.last_query_at,
  createdAt: r.created_at,
});

/** Record a new payment attempt (state creating) if the order has fewer than `maxAttempts`; true when inserted. */
export async function insertPayment(
  db: D1Database,
  p: {
    outTradeNo: string;
    orderNo: string;
    userId: number;
    provider: string;
    amountFen: number;
    expiresAt: number;
    now: number;
    mode?: PaymentMode;
    payerOpenid?: string | null;
  },
  maxAttempts: number,
): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO payments (out_trade_no, order_no, user_id, provider, amount_fen, state, expires_at, created_at, mode, payer_openid)
       SELECT ?1, ?2, ?3, ?4, ?5, 'creating', ?6, ?7, ?9, ?10
       WHERE (SELECT count(*) FROM payments WHERE order_no = ?2) < ?8
         AND EXISTS (SELECT 1 FROM orders WHERE order_no = ?2 AND state = ${ORDER_STATE.pending} AND pay_fen = ?5)`,
    )
    .bind(
      p.outTradeNo,
      p.orderNo,
      p.userId,
      p.provider,
      p.amountFen,
      p.expiresAt,
      p.now,
      maxAttempts,
      p.mode ?? 'qr',
      p.payerOpenid ?? null,
    )
    .run();
  return res.meta.changes === 1;
}

/** The provider accepted the attempt: keep its code_url. */
export async function markPaymentPending(db: D1Database, outTradeNo: string, codeUrl: string): Promise<void> {
  await db
    .prepare("UPDATE payments SET state = 'pending', code_url = ? WHERE out_trade_no = ? AND state = 'creating'")
    .bind(codeUrl, outTradeNo)
    .run();
}

/** The provider refused or could not be reached: the attempt is dead. */
export async function markPaymentFailed(db: D1Database, outTradeNo: string, note: string): Promise<void> {
  await db
    .prepare("UPDATE payments SET state = 'failed', note = ? WHERE out_trade_no = ? AND state = 'creating'")
    .bind(note.slice(0, 200), outTradeNo)
    .run();
}

/** The attempt was closed at the provider. */
export async function markPaymentClosed(db: D1Database, outTradeNo: string): Promise<void> {
  await db
    .prepare("UPDATE payments SET state = 'closed' WHERE out_trade_no = ? AND state IN ('creating', 'pending')")
    .bind(outTradeNo)
    .run();
}

/**
 * Attempts that paid an order already paid by another attempt, or closed (flagNotPaidByAttempt's note, nothing else):
 * the money is ours to return, so the payments job refunds them to their rail (docs/decisions/223). Attempts flagged for
 * any other reason (a verified mismatch) stay for an operator.
 */
export async function listDuplicatePayments(db: D1Database, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT out_trade_no FROM payments
       WHERE refund_needed = 1 AND out_refund_no IS NULL AND transaction_id IS NOT NULL AND note = ?1
       ORDER BY created_at LIMIT ?2 + 0`,
    )
    .bind(paymentNotes.notPaidByAttempt, limit)
    .all<{ out_trade_no: string }>();
  return results.map((r) => r.out_trade_no);
}

/**
 * A verified SUCCESS that does not match our records (amount, currency, order): the money reached us but cannot pay
 * the order, so the attempt is flagged for an operator (the note is appended, never replaced). True when flagged.
 */
export async function flagMismatchedPayment(db: D1Database, outTradeNo: string, note: string): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE payments SET refund_needed = 1,
         note = substr(CASE WHEN note = '' THEN ?2 WHEN instr(note, ?2) > 0 THEN note ELSE note || '；' || ?2 END, 1, 1000)
       WHERE out_trade_no = ?1`,
    )
    .bind(outTradeNo, note)
    .run();
  return res.meta.changes === 1;
}

/** A payment attempt by its out_trade_no. */
export async function findPayment(db: D1Database, outTradeNo: string): Promise<PaymentRecord | null> {
  const row = await db.prepare('SELECT * FROM payments WHERE out_trade_no = ?').bind(outTradeNo).first<PaymentRow>();
  return row ? mapPayment(row) : null;
}

/** The order's attempts, newest first. */
export async function listOrderPayments(db: D1Database, orderNo: string): Promise<PaymentRecord[]> {
  const { results } = await db
    .prepare('SELECT * FROM payments WHERE order_no = ? ORDER BY created_at DESC, out_trade_no')
    .bind(orderNo)
    .all<PaymentRow>();
  return results.map(mapPayment);
}

/**
 * Claim the right to query an attempt at the provider (at most once per `intervalMs`), so pollers and the
 * reconcile job do not hammer it. True when this caller may query.
 */
export async function claimPaymentQuery(
  db: D1Database,
  outTradeNo: string,
  now: number,
  intervalMs: number,
): Promise<boolean> {
  const res = await db
    .prepare(
      "UPDATE payments SET last_query_at = ?2 WHERE out_trade_no = ?1 AND state IN ('creating', 'pending') AND last_query_at <= ?3",
    )
    .bind(outTradeNo, now, now - intervalMs)
    .run();
  return res.meta.changes === 1;
}

/** Open attempts of unpaid, unexpired orders older than `minAgeMs` (reconciliation candidates). */
export async function listOpenPayments(
  db: D1Database,
  now: number,
  minAgeMs: number,
  limit: number,
): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT p.out_trade_no FROM payments p JOIN orders o ON o.order_no = p.order_no
       WHERE p.state IN ('creating', 'pending') AND p.created_at <= ?1 AND o.state = ${ORDER_STATE.pending}
       ORDER BY p.last_query_at, p.created_at LIMIT ?2 + 0`,
    )
    .bind(now - minAgeMs, limit)
    .all<{ out_trade_no: string }>();
  return results.map((r) => r.out_trade_no);
}

/**
 * The statements of the batch that marks an order paid by one attempt and fulfils it (composed and run by
 * domain/fulfilment.ts). Every fulfilment statement carries the guard "the order is paid by this attempt and not yet
 * fulfilled", so a duplicate or concurrent callback changes nothing.
 */
export function fulfilmentStatements(db: D1Database, orderNo: string, outTradeNo: string) {
  const O = orderNo;
  const T = outTradeNo;
  const guard = `EXISTS (SELECT 1 FROM orders WHERE order_no = '${sqlText(O)}' AND state = ${ORDER_STATE.paid} AND fulfilled_at IS NULL
    AND paid_out_trade_no = '${sqlText(T)}')`;
  return {
    /** The attempt is paid (once). */
    markAttemptPaid: (transactionId: string, now: number) =>
      db
        .prepare(
          "UPDATE payments SET state = 'paid', transaction_id = ?2, paid_at = ?3 WHERE out_trade_no = ?1 AND state != 'paid'",
        )
        .bind(T, transactionId, now),
    /** The order changes from unpaid to paid by this attempt, only for its exact amount; one affected row = paid now. */
    markOrderPaid: (transactionId: string, amountFen: number, now: number) =>
      db
        .prepare(
          `UPDATE orders SET state = ${ORDER_STATE.paid}, paid_at = ?3, paid_out_trade_no = ?2, transaction_id = ?4
           WHERE order_no = ?1 AND state = ${ORDER_STATE.pending} AND pay_fen = ?5
             AND EXISTS (SELECT 1 FROM payments WHERE out_trade_no = ?2 AND state = 'paid')`,
        )
        .bind(O, T, now, transactionId, amountFen),
    /** A top-up order (充值) credits the customer's balance, once (docs/decisions/224). */
    creditTopUp: (userId: number, amountFen: number, now: number) =>
      creditStatements(db, { userId, amountFen, kind: 'topup', ref: `topup:${O}`, orderNo: O, note: '', now }, guard),
    /** The coupon locked for the order is used. */
    spendCoupon: (now: number) =>
      db
        .prepare(
          `UPDATE user_coupons SET state = ${USER_COUPON_STATE.used}, used_at = ?2 WHERE order_no = ?1 AND state = ${USER_COUPON_STATE.locked} AND ${guard}`,
        )
        .bind(O, now),
    /** A new package with the item's grant from `now`, and its terms (meal, units, region, money paid). */
    createPackage: (userId: number, i: OrderItemRecord, now: number) => [
      db
        .prepare(
          `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
             remaining_count, daily_limit, ip_count, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?9 + ?10 * ${DAY_MS}, ${PACKAGE_STATE.active}, 'order', ?11, ?9, ?9 WHERE ${guard}`,
        )
        .bind(
          userId,
          i.productType,
          i.billingMethod,
          i.name,
          i.ipDurationMinutes,
          i.addCount,
          i.addDailyLimit,
          i.addIpCount,
          now,
          i.addDays,
          O,
        ),
      db
        .prepare(
          `INSERT INTO package_terms (package_id, order_no, meal_id, units, region_id, paid_fen)
           SELECT (SELECT max(id) FROM proxy_packages WHERE user_id = ?1 AND source = 'order' AND source_ref = ?2),
             ?2, ?3, ?4, ?5, ?6 WHERE ${guard}`,
        )
        .bind(userId, O, i.mealId, i.units, i.regionId, i.valueFen),
    ],
    /**
     * The item's count and days added to its package (re-activating an expired or used-up one), and its money to the
     * terms; only while the package is the user's, live, and not reserved by an unpaid merge.
     */
    extendPackage: (userId: number, i: OrderItemRecord & { packageId: number }, now: number) => [
      db
        .prepare(
          `UPDATE proxy_packages SET total_count = total_count + ?3, remaining_count = remaining_count + ?3,
             expires_at = max(expires_at, ?4) + ?5 * ${DAY_MS},
             state = CASE WHEN state = ${PACKAGE_STATE.expired} AND ?5 > 0 THEN ${PACKAGE_STATE.active} WHEN state = ${PACKAGE_STATE.usedUp} AND ?3 > 0 THEN ${PACKAGE_STATE.active} ELSE state END,
             updated_at = ?4
           WHERE id = ?1 AND user_id = ?2 AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}) AND ${guard}
             AND NOT EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = ?1 AND m.active = 1)`,
        )
        .bind(i.packageId, userId, i.addCount, now, i.addDays),
      db
        .prepare(
          `UPDATE package_terms SET paid_fen = paid_fen + ?2 WHERE package_id = ?1 AND ${guard}
             AND EXISTS (SELECT 1 FROM proxy_packages WHERE id = ?1 AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}))
             AND NOT EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = ?1 AND m.active = 1)`,
        )
        .bind(i.packageId, i.valueFen),
    ],
    /**
     * Flag the attempt for a refund when an extended package cannot take the money: retired by a merge or deleted (4),
     * disabled (5), not the user's, or reserved by an unpaid merge order.
     */
    flagUnextendable: (userId: number, packageIds: number[]) =>
      db
        .prepare(
          `UPDATE payments SET refund_needed = 1, note = ?4
           WHERE out_trade_no = ?1 AND ${guard} AND EXISTS (SELECT 1 FROM proxy_packages p
             WHERE p.id IN (SELECT value FROM json_each(?2)) AND (p.user_id != ?3 OR p.state NOT IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp})
               OR EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = p.id AND m.active = 1)))`,
        )
        .bind(T, JSON.stringify(packageIds), userId, paymentNotes.unextendable),
    /** The order's merge sources are retired (state 4) and released. */
    retireMergeSources: (userId: number, now: number) => [
      db
        .prepare(
          `UPDATE proxy_packages SET state = ${PACKAGE_STATE.deleted}, updated_at = ?3
           WHERE id IN (SELECT package_id FROM order_merge_sources WHERE order_no = ?1) AND user_id = ?2 AND ${guard}`,
        )
        .bind(O, userId, now),
      db.prepare(`UPDATE order_merge_sources SET active = 0 WHERE order_no = ?1 AND ${guard}`).bind(O),
    ],
    /** The order is fulfilled (last of the guarded statements). */
    markFulfilled: (now: number) =>
      db
        .prepare(
          `UPDATE orders SET fulfilled_at = ?2 WHERE order_no = ?1 AND state = ${ORDER_STATE.paid} AND fulfilled_at IS NULL AND paid_out_trade_no = ?3`,
        )
        .bind(O, now, T),
    /** Flag the attempt for a refund when the order is not paid by it (closed, or paid by another attempt). */
    flagNotPaidByAttempt: () =>
      db
        .prepare(
          `UPDATE payments SET refund_needed = 1, note = ?3
           WHERE out_trade_no = ?1 AND NOT EXISTS (SELECT 1 FROM orders WHERE order_no = ?2 AND state = ${ORDER_STATE.paid} AND paid_out_trade_no = ?1)`,
        )
        .bind(T, O, paymentNotes.notPaidByAttempt),
  };
}

/** Order numbers are [0-9A-Za-z]; the guard embeds them as literals (re-checked here anyway). */
function sqlText(v: string): string {
  if (!/^[0-9A-Za-z_-]{1,40}$/.test(v)) throw new Error('unexpected order number');
  return v;
}
