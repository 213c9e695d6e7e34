// Refunds of paid orders (docs/decisions/032): reserving a refund row before WeChat is asked, then either committing
// the refund (order refunded, its packages disabled, commission reversed) in one conditional batch, or failing the row.
// Refunds of one payment attempt flagged refund_needed (kind 'payment', docs/decisions/180) follow the same steps but
// commit on the attempt (flag cleared), never on the order.
import { paymentNotes } from '../../lib/messages';
import { runBatch } from './batch';
import { type AuditWrite, auditInsertStatement } from './operators-audit';

export type RefundRowStatus = 'PENDING' | 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'FAILED';
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
  createdAt: number;
  updatedAt: number;
}

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
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The order's live (not FAILED) order refund, if any (refunds of single flagged attempts are not counted). */
export async function findLiveRefund(db: D1Database, orderNo: string): Promise<RefundRecord | null> {
  const r = await db
    .prepare("SELECT * FROM refunds WHERE order_no = ? AND kind = 'order' AND status != 'FAILED'")
    .bind(orderNo)
    .first<RefundRow>();
  return r ? mapRefund(r) : null;
}

/**
 * True when a package the order created was retired into a paid upgrade (its value lives on in the upgraded package)
 * or is reserved by an unpaid upgrade order (which would retire it, crediting the refunded money).
 */
const MERGED_SQL = `EXISTS (SELECT 1 FROM proxy_packages p JOIN order_merge_sources m ON m.package_id = p.id
  WHERE p.source = 'order' AND p.source_ref = ?1 AND (m.active = 1
    OR (p.state = 4 AND EXISTS (SELECT 1 FROM orders mo WHERE mo.order_no = m.order_no AND mo.state = 2))))`;

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
 * Reserve a full refund of a paid order: the row is inserted only while the order is paid by `outTradeNo` for exactly
 * `amountFen`, none of its packages is merged or reserved by an upgrade, and the order has no live refund (partial
 * unique index refunds_one_live). True when this call reserved it; concurrent callers get false.
 */
export async function reserveRefund(db: D1Database, r: RefundReservation, now: number): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, operator_id,
         reason, created_at, updated_at)
       SELECT ?2, ?1, ?3, ?4, ?5, ?5, 'PENDING', ?6, ?7, ?8, ?8
       WHERE EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND user_id = ?4 AND state = 2 AND paid_out_trade_no = ?3
           AND pay_fen = ?5)
         AND NOT ${MERGED_SQL}
       ON CONFLICT DO NOTHING`,
    )
    .bind(r.orderNo, r.outRefundNo, r.outTradeNo, r.userId, r.amountFen, r.operatorId, r.reason, now)
    .run();
  return res.meta.changes === 1;
}

/**
 * Take over the order's refund left PENDING by an earlier call whose outcome was unknown (network error, 5xx, an
 * unverifiable answer), once it is older than `staleMs`: the caller re-sends the same out_refund_no, which WeChat
 * never refunds twice. Null when there is no such refund or another caller took it first.
 */
export async function claimStaleRefund(
  db: D1Database,
  orderNo: string,
  now: number,
  staleMs: number,
): Promise<RefundRecord | null> {
  const r = await db
    .prepare(
      `UPDATE refunds SET updated_at = ?2 WHERE order_no = ?1 AND kind = 'order' AND status = 'PENDING'
         AND updated_at <= ?3
       RETURNING *`,
    )
    .bind(orderNo, now, now - staleMs)
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

/**
 * WeChat accepted the refund: in one transaction, conditional on the order still being paid by this attempt and the
 * refund row still PENDING, mark the order refunded (state 4, out_refund_no), disable the packages it created
 * (state 1/2/3 -> 5), clear the attempt's refund_needed flag, run `extra` (the commission reversal, guarded by the
 * same "refunded by this refund" condition) and record WeChat's status on the refund row. Returns whether the order
 * was refunded by this call. When it was not (the order changed meanwhile), the row still records WeChat's answer,
 * with a note, so money and state never disagree silently.
 */
export async function commitRefund(
  db: D1Database,
  r: AcceptedRefund,
  now: number,
  extra: D1PreparedStatement[] = [],
): Promise<boolean> {
  const guard = 'EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND state = 4 AND out_refund_no = ?2)';
  const results = await db.batch([
    db
      .prepare(
        `UPDATE orders SET state = 4, refunded_at = ?4, out_refund_no = ?2
         WHERE order_no = ?1 AND state = 2 AND paid_out_trade_no = ?3
           AND EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ?2 AND order_no = ?1 AND status = 'PENDING')`,
      )
      .bind(r.orderNo, r.outRefundNo, r.outTradeNo, now),
    db
      .prepare(
        `UPDATE proxy_packages SET state = 5, updated_at = ?4
         WHERE source = 'order' AND source_ref = ?1 AND user_id = ?3 AND state IN (1, 2, 3) AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.userId, now),
    db
      .prepare(
        `UPDATE payments SET refund_needed = 0, note = ltrim(note || '；' || ?4, '；')
         WHERE out_trade_no = ?3 AND refund_needed = 1 AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.outTradeNo, paymentNotes.refundedWithOrder(r.outRefundNo)),
    ...extra,
    db
      .prepare(
        `UPDATE refunds SET status = ?3, refund_id = ?4, updated_at = ?5
         WHERE out_refund_no = ?2 AND status = 'PENDING' AND ${guard}`,
      )
      .bind(r.orderNo, r.outRefundNo, r.status, r.refundId, now),
  ]);
  if (results[0]?.meta.changes === 1) return true;
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
    sql: 'EXISTS (SELECT 1 FROM orders WHERE order_no = ? AND state = 4 AND out_refund_no = ?)',
    binds: [orderNo, outRefundNo],
  });
}

// ---- Refunds of one flagged payment attempt (kind 'payment', docs/decisions/180) ----

/** The attempt is the one that paid its order (paid, or already refunded with the order): not refundable on its own. */
const PAYS_ORDER_SQL =
  'EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND paid_out_trade_no = ?3 AND state IN (2, 4))';

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

/** Take over the attempt's payment refund left PENDING (unknown outcome) once older than `staleMs`; see claimStaleRefund. */
export async function claimStalePaymentRefund(
  db: D1Database,
  outTradeNo: string,
  now: number,
  staleMs: number,
): Promise<RefundRecord | null> {
  const r = await db
    .prepare(
      `UPDATE refunds SET updated_at = ?2 WHERE out_trade_no = ?1 AND kind = 'payment' AND status = 'PENDING'
         AND updated_at <= ?3
       RETURNING *`,
    )
    .bind(outTradeNo, now, now - staleMs)
    .first<RefundRow>();
  return r ? mapRefund(r) : null;
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
           AND NOT EXISTS (SELECT 1 FROM orders WHERE order_no = ?3 AND paid_out_trade_no = ?1 AND state IN (2, 4))`,
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
  const results = await db.batch(statements);
  if (results[0]?.meta.changes === 1) return true;
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
