// Refunds of paid orders (docs/decisions/032, 205, 206): reserving a refund row before WeChat is asked, capped by what
// is still refundable, then either committing it in one conditional batch (a final refund: order refunded, packages
// disabled, commission reversed, coupon returned while valid; a partial one: the order stays paid, packages disabled
// only when asked), each with the customer's notice, or failing the row.
// Refunds of one payment attempt flagged refund_needed (kind 'payment', docs/decisions/180) follow the same steps but
// commit on the attempt (flag cleared), never on the order.
import { paymentNotes } from '../../lib/messages';
import type { CouponOutcome } from '../../lib/refund-rules';
import { DAY_MS } from '../../lib/time';
import { creditStatements } from './balance';
import { runBatch } from './batch';
import { type AuditWrite, auditInsertStatement } from './console-audit';
import { ORDER_STATE } from '../../lib/order-states';
import { PACKAGE_STATE } from '../../lib/package-states';
import { USER_COUPON_STATE } from '../../lib/coupon-states';
import type { RefundStatus as RowStatus } from '../../lib/refund-rules';

/** A refund row's stored status: the one list in src/lib/refund-rules.ts. */
export type RefundRowStatus = RowStatus;
/** 'order': refunds a paid order (the order becomes refunded); 'payment': refunds one flagged attempt only. */
export type RefundKind = 'order' | 'payment';

export interface RefundRecord {
  id: number;
  outRefundNo: string;
  orderNo: string;
  outTradeNo: string;
  userId: number;
  amountFen: number;
  totalFen: number;
  status: RefundRowStatus;
  kind: RefundKind;
  refundId: string | null;
  operatorId: number;
  reason: string;
  note: string;
  /** The refund returned all that was still refundable: the order became refunded (decision 205). */
  endsOrder: boolean;
  /** The refund disabled the packages the order created. */
  endsPackages: boolean;
  /** What the refund did with the order's coupon ('' until committed, and for refunds before migration 0031). */
  couponOutcome: CouponOutcome | '';
  /** Where the money went: back to the paying rail, or to the account balance (migration 0040). */
  route: RefundRoute;
  createdAt: number;
  updatedAt: number;
}

/** 'original' back to the rail that paid, 'balance' to the customer's account balance (docs/decisions/224). */
export type RefundRoute = 'original' | 'balance';

interface RefundRow {
  id: number;
  out_refund_no: string;
  order_no: string;
  out_trade_no: string;
  user_id: number;
  amount_fen: number;
  total_fen: number;
  status: RefundRowStatus;
  kind: RefundKind;
  refund_id: string | null;
  operator_id: number;
  reason: string;
  note: string;
  ends_order: number;
  ends_packages: number;
  coupon_outcome: CouponOutcome | '';
  route?: RefundRoute;
  created_at: number;
  updated_at: number;
}

const mapRefund = (r: RefundRow): RefundRecord => ({
  id: r.id,
  outRefundNo: r.out_refund_no,
  orderNo: r.order_no,
  outTradeNo: r.out_trade_no,
  userId: r.user_id,
  amountFen: r.amount_fen,
  totalFen: r.total_fen,
  status: r.status,
  kind: r.kind,
  refundId: r.refund_id,
  operatorId: r.operator_id,
  reason: r.reason,
  note: r.note,
  endsOrder: r.ends_order === 1,
  endsPackages: r.ends_packages === 1,
  couponOutcome: r.coupon_outcome,
  route: r.route ?? 'original',
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The order's refund in flight (PENDING: WeChat not yet answered, or its answer unknown), if any. */
export async function findLiveRefund(db: D1Database, orderNo: string): Promise<RefundRecord | null> {
  const r = await db
    .prepare("SELECT * FROM refunds WHERE order_no = ? AND kind = 'order' AND status = 'PENDING'")
    .bind(orderNo)
    .first<RefundRow>();
  return r ? mapRefund(r) : null;
}

/** What an order's live (not FAILED) order refunds add up to: money returned or on its way back. */
const REFUNDED_SQL =
  "(SELECT coalesce(sum(amount_fen), 0) FROM refunds WHERE order_no = ?1 AND kind = 'order' AND status != 'FAILED')";

/** See REFUNDED_SQL. */
export async function orderRefundedFen(db: D1Database, orderNo: string): Promise<number> {
  const r = await db.prepare(`SELECT ${REFUNDED_SQL} AS n`).bind(orderNo).first<{ n: number }>();
  return r?.n ?? 0;
}

/** An order's order refunds, oldest first (FAILED ones included: the console shows them; customers do not see them). */
export async function listOrderRefunds(db: D1Database, orderNo: string): Promise<RefundRecord[]> {
  const { results } = await db
    .prepare("SELECT * FROM refunds WHERE order_no = ? AND kind = 'order' ORDER BY id")
    .bind(orderNo)
    .all<RefundRow>();
  return results.map(mapRefund);
}

/**
 * True when a package the order created was retired into a paid upgrade (its value lives on in the upgraded package)
 * or is reserved by an unpaid upgrade order (which would retire it, crediting the refunded money).
 */
const MERGED_SQL = `EXISTS (SELECT 1 FROM proxy_packages p JOIN order_merge_sources m ON m.package_id = p.id
  WHERE p.source = 'order' AND p.source_ref = ?1 AND (m.active = 1
    OR (p.state = ${PACKAGE_STATE.deleted} AND EXISTS (SELECT 1 FROM orders mo WHERE mo.order_no = m.order_no AND mo.state = ${ORDER_STATE.paid}))))`;

/** See MERGED_SQL. */
export async function orderPackageMerged(db: D1Database, orderNo: string): Promise<boolean> {
  const r = await db.prepare(`SELECT ${MERGED_SQL} AS n`).bind(orderNo).first<{ n: number }>();
  return r?.n === 1;
}

export interface RefundReservation {
  outRefundNo: string;
  orderNo: string;
  outTradeNo: string;
  userId: number;
  amountFen: number;
  operatorId: number;
  reason: string;
}

/**
 * Reserve a refund of `amountFen` of a paid order (the WeChat transaction's total is the order's pay_fen): the row is
 * inserted only while the order is paid by `outTradeNo` for `totalFen`, none of its packages is merged or reserved by
 * an upgrade, no other refund of it is in flight (partial unique index refunds_one_pending) and this amount plus the
 * order's live refunds stays within what was paid — all in the one INSERT, so concurrent refunds can never return
 * more than was paid. `endsOrder` must be true exactly when the amount is all that is left: the INSERT refuses a
 * reservation whose idea of that is stale. True when this call reserved it.
 */
export async function reserveRefund(
  db: D1Database,
  r: RefundReservation & { totalFen: number; endsOrder: boolean; endsPackages: boolean; route?: RefundRoute },
  now: number,
): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, operator_id,
         reason, ends_order, ends_packages, created_at, updated_at, route)
       SELECT ?2, ?1, ?3, ?4, ?5, ?9, 'PENDING', ?6, ?7, ?10, ?11, ?8, ?8, ?12
       WHERE EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND user_id = ?4 AND state = ${ORDER_STATE.paid} AND paid_out_trade_no = ?3
           AND pay_fen = ?9)
         AND ?5 + ${REFUNDED_SQL} <= ?9
         AND (?5 + ${REFUNDED_SQL} = ?9) = (?10 = 1)
         AND NOT ${MERGED_SQL}
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      r.orderNo,
      r.outRefundNo,
      r.outTradeNo,
      r.userId,
      r.amountFen,
      r.operatorId,
      r.reason,
      now,
      r.totalFen,
      r.endsOrder ? 1 : 0,
      r.endsPackages || r.endsOrder ? 1 : 0,
      r.route ?? 'original',
    )
    .run();
  return res.meta.changes === 1;
}

/**
 * Take over a refund left PENDING by an earlier call whose outcome was unknown (network error, 5xx, an unverifiable
 * answer), once it is older than `staleMs`: the order's refund (kind 'order', by order number) or a flagged attempt's
 * payment refund (kind 'payment', by out_trade_no). The caller re-sends the same out_refund_no, which WeChat never
 * refunds twice. Null when there is no such refund or another caller took it first.
 */
export async function claimStaleRefund(
  db: D1Database,
  of: { kind: 'order'; orderNo: string } | { kind: 'payment'; outTradeNo: string },
  now: number,
  staleMs: number,
): Promise<RefundRecord | null> {
  const column = of.kind === 'order' ? 'order_no' : 'out_trade_no';
  const r = await db
    .prepare(
      `UPDATE refunds SET updated_at = ?2 WHERE ${column} = ?1 AND kind = ?4 AND status = 'PENDING'
         AND updated_at <= ?3
       RETURNING *`,
    )
    .bind(of.kind === 'order' ? of.orderNo : of.outTradeNo, now, now - staleMs, of.kind)
    .first<RefundRow>();
  return r ? mapRefund(r) : null;
}

/** WeChat refused the refund (nothing was refunded): PENDING -> FAILED; the order stays paid. */
export async function failRefund(db: D1Database, outRefundNo: string, note: string, now: number): Promise<void> {
  await db
    .prepare(
      "UPDATE refunds SET status = 'FAILED', note = ?2, updated_at = ?3 WHERE out_refund_no = ?1 AND status = 'PENDING'",
    )
    .bind(outRefundNo, note.slice(0, 500), now)
    .run();
}

/** The outcome is unknown: the row stays PENDING (blocking other refunds of the order) with a note. */
export async function noteRefund(db: D1Database, outRefundNo: string, note: string, now: number): Promise<void> {
  await db
    .prepare("UPDATE refunds SET note = ?2, updated_at = ?3 WHERE out_refund_no = ?1 AND status = 'PENDING'")
    .bind(outRefundNo, note.slice(0, 500), now)
    .run();
}

export interface AcceptedRefund {
  outRefundNo: string;
  orderNo: string;
  outTradeNo: string;
  userId: number;
  status: 'SUCCESS' | 'PROCESSING' | 'ABNORMAL';
  refundId: string;
}

/** The personal notice written with a refund: its title and its HTML for each coupon outcome the batch may reach. */
export interface RefundNoticeWrite {
  title: string;
  html: Partial<Record<CouponOutcome, string>> & { none: string };
}

/** How long the refund notice stays among the customer's current notices. */
const NOTICE_MS = 30 * DAY_MS;

/**
 * The customer's notice, inserted while `guard` holds (binds ?1 order_no, ?2 out_refund_no, ?3 out_trade_no), worded by the refund
 * row's coupon_outcome as the same batch set it, so the notice says what the batch did.
 */
function noticeStatement(
  db: D1Database,
  r: { orderNo: string; outRefundNo: string; outTradeNo: string; userId: number },
  notice: RefundNoticeWrite,
  guard: string,
  now: number,
  outcomeSql: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO home_notices (title, content_html, starts_at, ends_at, enabled, created_at, user_id)
       SELECT ?4, CASE ${outcomeSql} WHEN 'returned' THEN ?5 WHEN 'expired' THEN ?6 WHEN 'kept' THEN ?7 ELSE ?8 END,
         ?9, ?9 + ${NOTICE_MS}, 1, ?9, ?10
       WHERE ${guard}`,
    )
    .bind(
      r.orderNo,
      r.outRefundNo,
      r.outTradeNo,
      notice.title,
      notice.html.returned ?? notice.html.none,
      notice.html.expired ?? notice.html.none,
      notice.html.kept ?? notice.html.none,
      notice.html.none,
      now,
      r.userId,
    );
}

/** The order's coupon (orders.user_coupon_id), as SQL on ?1 = order_no. */
const ORDER_COUPON_SQL = '(SELECT user_coupon_id FROM orders WHERE order_no = ?1)';

/**
 * WeChat accepted a final refund (all that was still refundable): in one transaction, conditional on the order still
 * being paid by this attempt and the refund row still PENDING, mark the order refunded (state 4, out_refund_no),
 * disable the packages it created (state 1/2/3 -> 5), clear the attempt's refund_needed flag, run `extra` (the
 * commission reversal and the audit row, guarded by the same "refunded by this refund" condition), give the order's
 * coupon back while it is still valid (decision 206), record WeChat's status and the coupon's outcome on the refund row
 * and write the customer's notice. Returns whether the order was refunded by this call. When it was not (the order
 * changed meanwhile), the row still records WeChat's answer, with a note, so money and state never disagree silently.
 */
export async function commitRefund(
  db: D1Database,
  r: AcceptedRefund,
  now: number,
  extra: D1PreparedStatement[] = [],
  notice?: RefundNoticeWrite,
): Promise<boolean> {
  const guard = `EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND state = ${ORDER_STATE.refunded} AND out_refund_no = ?2)`;
  const endOrder = db
    .prepare(
      `UPDATE orders SET state = ${ORDER_STATE.refunded}, refunded_at = ?4, out_refund_no = ?2
       WHERE order_no = ?1 AND state = ${ORDER_STATE.paid} AND paid_out_trade_no = ?3
         AND EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ?2 AND order_no = ?1 AND status = 'PENDING'
           AND ends_order = 1)`,
    )
    .bind(r.orderNo, r.outRefundNo, r.outTradeNo, now);
  const batch = await runBatch(db, [
    endOrder,
    db
      .prepare(
        `UPDATE proxy_packages SET state = ${PACKAGE_STATE.disabled}, updated_at = ?4
         WHERE source = 'order' AND source_ref = ?1 AND user_id = ?3 AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}) AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.userId, now),
    db
      .prepare(
        `UPDATE payments SET refund_needed = 0, note = ltrim(note || '；' || ?4, '；')
         WHERE out_trade_no = ?3 AND refund_needed = 1 AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.outTradeNo, paymentNotes.refundedWithOrder(r.outRefundNo)),
    ...extra,
    // Decision 206: the coupon comes back as it was received (same validity) while it is still valid.
    db
      .prepare(
        `UPDATE user_coupons SET state = ${USER_COUPON_STATE.unused}, order_no = NULL, used_at = NULL
         WHERE id = ${ORDER_COUPON_SQL} AND order_no = ?1 AND state = ${USER_COUPON_STATE.used} AND expires_at > ?3 AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, now),
    db
      .prepare(
        `UPDATE refunds SET status = ?3, refund_id = ?4, updated_at = ?5,
           coupon_outcome = CASE
             WHEN ${ORDER_COUPON_SQL} IS NULL THEN 'none'
             WHEN EXISTS (SELECT 1 FROM user_coupons WHERE id = ${ORDER_COUPON_SQL} AND state = ${USER_COUPON_STATE.unused} AND order_no IS NULL)
               THEN 'returned'
             ELSE 'expired' END
         WHERE out_refund_no = ?2 AND status = 'PENDING' AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.status, r.refundId, now),
    ...(notice
      ? [noticeStatement(db, r, notice, guard, now, '(SELECT coupon_outcome FROM refunds WHERE out_refund_no = ?2)')]
      : []),
  ]);
  if (batch.changes(endOrder) === 1) return true;
  await db
    .prepare(
      `UPDATE refunds SET status = ?2, refund_id = ?3, updated_at = ?4, note = ?5
       WHERE out_refund_no = ?1 AND status = 'PENDING'`,
    )
    .bind(r.outRefundNo, r.status, r.refundId, now, paymentNotes.orderNoLongerPaid)
    .run();
  return false;
}

/** While a partial refund commits: its row is still PENDING and the order is still paid by the attempt (?1, ?2, ?3). */
const PARTIAL_GUARD = `EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ?2 AND order_no = ?1 AND status = 'PENDING'
    AND ends_order = 0)
  AND EXISTS (SELECT 1 FROM orders o WHERE o.order_no = ?1 AND o.state = ${ORDER_STATE.paid} AND o.paid_out_trade_no = ?3)`;

/**
 * WeChat accepted a partial refund (decision 205): in one transaction, while the row is still PENDING and the order
 * still paid by this attempt, disable the packages the order created when the refund asked for it, write the audit
 * row and the customer's notice, and last record WeChat's status and the coupon's outcome (kept used, or none) on the
 * row. The order stays paid; commission and coupon are untouched. Returns whether this call committed; when it did
 * not, the row still records WeChat's answer with a note.
 */
export async function commitPartialRefund(
  db: D1Database,
  r: AcceptedRefund & { endsPackages: boolean },
  now: number,
  audit?: AuditWrite,
  notice?: RefundNoticeWrite,
  extra: D1PreparedStatement[] = [],
): Promise<boolean> {
  const outcome = `CASE WHEN ${ORDER_COUPON_SQL} IS NULL THEN 'none' ELSE 'kept' END`;
  const settle = db
    .prepare(
      `UPDATE refunds SET status = ?4, refund_id = ?5, updated_at = ?6, coupon_outcome = ${outcome}
       WHERE out_refund_no = ?2 AND ${PARTIAL_GUARD}`,
    )
    .bind(r.orderNo, r.outRefundNo, r.outTradeNo, r.status, r.refundId, now);
  const batch = await runBatch(db, [
    ...(r.endsPackages
      ? [
          db
            .prepare(
              `UPDATE proxy_packages SET state = ${PACKAGE_STATE.disabled}, updated_at = ?4
               WHERE source = 'order' AND source_ref = ?1 AND user_id = ?3 AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp})
                 AND ${PARTIAL_GUARD.replaceAll('?3', '?5')}`,
            )
            .bind(r.orderNo, r.outRefundNo, r.userId, now, r.outTradeNo),
        ]
      : []),
    ...(audit
      ? [
          auditInsertStatement(db, audit.actor, audit.entry, {
            sql: `EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ? AND status = 'PENDING' AND ends_order = 0)
              AND EXISTS (SELECT 1 FROM orders WHERE order_no = ? AND state = ${ORDER_STATE.paid} AND paid_out_trade_no = ?)`,
            binds: [r.outRefundNo, r.orderNo, r.outTradeNo],
          }),
        ]
      : []),
    ...(notice ? [noticeStatement(db, r, notice, PARTIAL_GUARD, now, outcome)] : []),
    ...extra,
    settle,
  ]);
  if (batch.changes(settle) === 1) return true;
  await db
    .prepare(
      `UPDATE refunds SET status = ?2, refund_id = ?3, updated_at = ?4, note = ?5
       WHERE out_refund_no = ?1 AND status = 'PENDING'`,
    )
    .bind(r.outRefundNo, r.status, r.refundId, now, paymentNotes.orderNoLongerPaid)
    .run();
  return false;
}

/** The audit row of a refund, written only once the order is marked refunded by this refund (same batch). */
export function refundAuditStatement(
  db: D1Database,
  orderNo: string,
  outRefundNo: string,
  audit: AuditWrite,
): D1PreparedStatement {
  return auditInsertStatement(db, audit.actor, audit.entry, {
    sql: `EXISTS (SELECT 1 FROM orders WHERE order_no = ? AND state = ${ORDER_STATE.refunded} AND out_refund_no = ?)`,
    binds: [orderNo, outRefundNo],
  });
}

// ---- Refunds of one flagged payment attempt (kind 'payment', docs/decisions/180) ----

/** The attempt is the one that paid its order (paid, or already refunded with the order): not refundable on its own. */
const PAYS_ORDER_SQL = `EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND paid_out_trade_no = ?3 AND state IN (${ORDER_STATE.paid}, ${ORDER_STATE.refunded}))`;

/** The attempt's live (not FAILED) refund of either kind, if any. */
export async function findLiveAttemptRefund(db: D1Database, outTradeNo: string): Promise<RefundRecord | null> {
  const r = await db
    .prepare("SELECT * FROM refunds WHERE out_trade_no = ? AND status != 'FAILED'")
    .bind(outTradeNo)
    .first<RefundRow>();
  return r ? mapRefund(r) : null;
}

/**
 * Reserve a full refund of one attempt: inserted only while the attempt is flagged refund_needed for exactly
 * `amountFen`, is not the attempt that paid its order, and has no live refund (partial unique index
 * refunds_one_live_attempt). True when this call reserved it; concurrent callers get false.
 */
export async function reservePaymentRefund(db: D1Database, r: RefundReservation, now: number): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, kind,
         operator_id, reason, created_at, updated_at)
       SELECT ?2, ?1, ?3, ?4, ?5, ?5, 'PENDING', 'payment', ?6, ?7, ?8, ?8
       WHERE EXISTS (SELECT 1 FROM payments WHERE out_trade_no = ?3 AND order_no = ?1 AND user_id = ?4 AND amount_fen = ?5
           AND refund_needed = 1)
         AND NOT ${PAYS_ORDER_SQL}
       ON CONFLICT DO NOTHING`,
    )
    .bind(r.orderNo, r.outRefundNo, r.outTradeNo, r.userId, r.amountFen, r.operatorId, r.reason, now)
    .run();
  return res.meta.changes === 1;
}

/**
 * WeChat accepted the refund of one flagged attempt: in one transaction, conditional on the attempt still flagged (and
 * not paying its order) and the refund row still PENDING, clear refund_needed (recording the refund on the attempt and
 * in its note), write the operator's audit row and record WeChat's status on the refund row. The order, its packages
 * and commission are not touched. Returns whether this call cleared the flag; when it did not, the row still records
 * WeChat's answer, with a note, so money and state never disagree silently.
 */
export async function commitPaymentRefund(
  db: D1Database,
  r: AcceptedRefund,
  now: number,
  audit?: AuditWrite,
): Promise<boolean> {
  const guard = 'EXISTS (SELECT 1 FROM payments WHERE out_trade_no = ?1 AND refund_needed = 0 AND out_refund_no = ?2)';
  const statements = [
    db
      .prepare(
        `UPDATE payments SET refund_needed = 0, out_refund_no = ?2,
           note = substr(ltrim(note || '；' || ?4, '；'), 1, 1000)
         WHERE out_trade_no = ?1 AND order_no = ?3 AND refund_needed = 1
           AND EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ?2 AND out_trade_no = ?1 AND kind = 'payment'
             AND status = 'PENDING')
           AND NOT EXISTS (SELECT 1 FROM orders WHERE order_no = ?3 AND paid_out_trade_no = ?1 AND state IN (${ORDER_STATE.paid}, ${ORDER_STATE.refunded}))`,
      )
      .bind(r.outTradeNo, r.outRefundNo, r.orderNo, paymentNotes.refunded(r.outRefundNo, r.status)),
    ...(audit
      ? [
          auditInsertStatement(db, audit.actor, audit.entry, {
            sql: 'EXISTS (SELECT 1 FROM payments WHERE out_trade_no = ? AND refund_needed = 0 AND out_refund_no = ?)',
            binds: [r.outTradeNo, r.outRefundNo],
          }),
        ]
      : []),
    db
      .prepare(
        `UPDATE refunds SET status = ?3, refund_id = ?4, updated_at = ?5
         WHERE out_refund_no = ?2 AND status = 'PENDING' AND ${guard}`,
      )
      .bind(r.outTradeNo, r.outRefundNo, r.status, r.refundId, now),
  ];
  const batch = await runBatch(db, statements);
  if (batch.changes(statements[0]) === 1) return true;
  await db
    .prepare(
      `UPDATE refunds SET status = ?2, refund_id = ?3, updated_at = ?4, note = ?5
       WHERE out_refund_no = ?1 AND status = 'PENDING'`,
    )
    .bind(r.outRefundNo, r.status, r.refundId, now, paymentNotes.attemptNoLongerFlagged)
    .run();
  return false;
}

// ---- WeChat's refund notifications (REFUND.SUCCESS / ABNORMAL / CLOSED; docs/decisions/180) ----

/** A refund by its out_refund_no. */
export async function findRefund(db: D1Database, outRefundNo: string): Promise<RefundRecord | null> {
  const r = await db.prepare('SELECT * FROM refunds WHERE out_refund_no = ?').bind(outRefundNo).first<RefundRow>();
  return r ? mapRefund(r) : null;
}

/**
 * WeChat's final word on a refund it had accepted: SUCCESS (from PROCESSING or ABNORMAL) or ABNORMAL (from
 * PROCESSING). Never moves a PENDING row (its commit is still to come) nor a SUCCESS one. True when the row changed.
 */
export async function settleRefund(
  db: D1Database,
  outRefundNo: string,
  status: 'SUCCESS' | 'ABNORMAL',
  refundId: string,
  now: number,
): Promise<boolean> {
  const from = status === 'SUCCESS' ? "('PROCESSING', 'ABNORMAL')" : "('PROCESSING')";
  const res = await db
    .prepare(
      `UPDATE refunds SET status = ?2, refund_id = coalesce(refund_id, ?3), updated_at = ?4
       WHERE out_refund_no = ?1 AND status IN ${from}`,
    )
    .bind(outRefundNo, status, refundId, now)
    .run();
  return res.meta.changes === 1;
}

/**
 * WeChat closed a refund it had accepted (PROCESSING or ABNORMAL): no money went back. The row becomes FAILED with a
 * note; for a payment refund the attempt is flagged refund_needed again in the same batch, so it shows as to-do and can
 * be refunded anew. An order refund leaves the order as refunded (its packages are already disabled): the note asks
 * for a manual check. True when the row changed.
 */
export async function closeAcceptedRefund(db: D1Database, r: RefundRecord, now: number): Promise<boolean> {
  const live = "EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ?2 AND status IN ('PROCESSING', 'ABNORMAL'))";
  const note = r.kind === 'payment' ? paymentNotes.closedPaymentRefund : paymentNotes.closedOrderRefund;
  const fail = db
    .prepare(
      `UPDATE refunds SET status = 'FAILED', note = ?2, updated_at = ?3
       WHERE out_refund_no = ?1 AND status IN ('PROCESSING', 'ABNORMAL')`,
    )
    .bind(r.outRefundNo, note, now);
  const batch = await runBatch(db, [
    ...(r.kind === 'payment'
      ? [
          db
            .prepare(
              `UPDATE payments SET refund_needed = 1, out_refund_no = NULL,
                 note = substr(ltrim(note || '；' || ?3, '；'), 1, 1000)
               WHERE out_trade_no = ?1 AND out_refund_no = ?2 AND refund_needed = 0 AND ${live}`,
            )
            .bind(r.outTradeNo, r.outRefundNo, paymentNotes.refundClosed(r.outRefundNo)),
        ]
      : []),
    fail,
  ]);
  return batch.changes(fail) === 1;
}

/**
 * A refund to balance (route 'balance', docs/decisions/224): the credit to the customer's balance and its ledger entry,
 * written in the refund's own commit batch and only while that commit takes (a final refund: the order is refunded by
 * this refund; a partial one: the row is still PENDING and the order still paid by this attempt). Once per refund.
 */
export function balanceRefundStatements(
  db: D1Database,
  r: { orderNo: string; outRefundNo: string; outTradeNo: string; userId: number; amountFen: number; reason: string },
  endsOrder: boolean,
  now: number,
): D1PreparedStatement[] {
  const [O, R, T] = [r.orderNo, r.outRefundNo, r.outTradeNo].map(literal);
  const condition = endsOrder
    ? `EXISTS (SELECT 1 FROM orders WHERE order_no = '${O}' AND state = ${ORDER_STATE.refunded} AND out_refund_no = '${R}')`
    : `EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = '${R}' AND order_no = '${O}' AND status = 'PENDING'
        AND ends_order = 0)
       AND EXISTS (SELECT 1 FROM orders WHERE order_no = '${O}' AND state = ${ORDER_STATE.paid} AND paid_out_trade_no = '${T}')`;
  return creditStatements(
    db,
    {
      userId: r.userId,
      amountFen: r.amountFen,
      kind: 'refund',
      ref: `refund:${r.outRefundNo}`,
      orderNo: r.orderNo,
      note: r.reason,
      now,
    },
    condition,
  );
}

/** Order, refund and attempt numbers are [0-9A-Za-z]; embedded as literals only after this check. */
function literal(v: string): string {
  if (!/^[0-9A-Za-z]{1,40}$/.test(v)) throw new Error('unexpected number');
  return v;
}
