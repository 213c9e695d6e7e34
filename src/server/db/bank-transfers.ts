// Queries for company bank transfers (对公转账, migrations/0041, docs/decisions/227): choosing a transfer for an unpaid
// order (its reference, and the order's longer reservation), reading one by reference or order, finance's list, and
// the two statements that open finance's confirmation batch (claim the transfer, record its payment attempt).
import 'server-only';
import { TRANSFER_RAIL } from '../../lib/bank-transfer';
import { ORDER_STATE } from '../../lib/order-states';

export type TransferState = 'awaiting' | 'confirmed';

export interface TransferRecord {
  reference: string;
  orderNo: string;
  userId: number;
  state: TransferState;
  receivedFen: number | null;
  payerName: string | null;
  bankSerial: string | null;
  outTradeNo: string | null;
  confirmedBy: number | null;
  confirmedAt: number | null;
  createdAt: number;
}

/** A transfer with what finance checks it against: its order and the customer. */
export interface TransferView extends TransferRecord {
  title: string;
  payFen: number;
  orderState: 1 | 2 | 3 | 4;
  expiresAt: number;
  paidOutTradeNo: string | null;
  phone: string;
}

interface TransferRow {
  reference: string;
  order_no: string;
  user_id: number;
  state: TransferState;
  received_fen: number | null;
  payer_name: string | null;
  bank_serial: string | null;
  out_trade_no: string | null;
  confirmed_by: number | null;
  confirmed_at: number | null;
  created_at: number;
}

const mapTransfer = (r: TransferRow): TransferRecord => ({
  reference: r.reference,
  orderNo: r.order_no,
  userId: r.user_id,
  state: r.state,
  receivedFen: r.received_fen,
  payerName: r.payer_name,
  bankSerial: r.bank_serial,
  outTradeNo: r.out_trade_no,
  confirmedBy: r.confirmed_by,
  confirmedAt: r.confirmed_at,
  createdAt: r.created_at,
});

type ViewRow = TransferRow & {
  title: string;
  pay_fen: number;
  order_state: 1 | 2 | 3 | 4;
  expires_at: number;
  paid_out_trade_no: string | null;
  phone: string | null;
};

const mapView = (r: ViewRow): TransferView => ({
  ...mapTransfer(r),
  title: r.title,
  payFen: r.pay_fen,
  orderState: r.order_state,
  expiresAt: r.expires_at,
  paidOutTradeNo: r.paid_out_trade_no,
  phone: r.phone ?? '',
});

const VIEW_SELECT = `SELECT t.*, o.title, o.pay_fen, o.state AS order_state, o.expires_at, o.paid_out_trade_no, u.phone
  FROM bank_transfers t JOIN orders o ON o.order_no = t.order_no LEFT JOIN users u ON u.id = t.user_id`;

/**
 * Choose a transfer for an unpaid order, in one batch: the transfer row (only while the order is the user's, unpaid and
 * unexpired, and has none yet; a reference already taken writes nothing), then the order's reservation extended to
 * `reservedUntil` (never shortened) only when this batch wrote the row. True when this call chose it.
 */
export async function insertTransfer(
  db: D1Database,
  t: { reference: string; orderNo: string; userId: number; reservedUntil: number; now: number },
): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO bank_transfers (reference, order_no, user_id, state, created_at)
         SELECT ?1, ?2, ?3, 'awaiting', ?4
         WHERE EXISTS (SELECT 1 FROM orders WHERE order_no = ?2 AND user_id = ?3 AND state = ${ORDER_STATE.pending} AND expires_at > ?4)
         ON CONFLICT DO NOTHING`,
      )
      .bind(t.reference, t.orderNo, t.userId, t.now),
    db
      .prepare(
        `UPDATE orders SET expires_at = max(expires_at, ?3)
         WHERE order_no = ?2 AND state = ${ORDER_STATE.pending}
           AND EXISTS (SELECT 1 FROM bank_transfers WHERE reference = ?1 AND order_no = ?2)`,
      )
      .bind(t.reference, t.orderNo, t.reservedUntil),
  ]);
  return inserted?.meta.changes === 1;
}

/** The order's transfer, or null. */
export async function findTransferByOrder(db: D1Database, orderNo: string): Promise<TransferRecord | null> {
  const row = await db.prepare('SELECT * FROM bank_transfers WHERE order_no = ?').bind(orderNo).first<TransferRow>();
  return row ? mapTransfer(row) : null;
}

/** A transfer by its reference, with its order and customer, or null. */
export async function findTransferView(db: D1Database, reference: string): Promise<TransferView | null> {
  const row = await db.prepare(`${VIEW_SELECT} WHERE t.reference = ?`).bind(reference).first<ViewRow>();
  return row ? mapView(row) : null;
}

/** Whether a bank serial number already confirmed a transfer. */
export async function transferSerialUsed(db: D1Database, bankSerial: string): Promise<boolean> {
  const row = await db.prepare('SELECT 1 AS x FROM bank_transfers WHERE bank_serial = ?').bind(bankSerial).first();
  return row !== null;
}

/**
 * Finance's list, newest first: 'awaiting' the transfers whose order still waits for the money, 'confirmed' the paid
 * ones, 'all' every one; `reference` narrows it to one.
 */
export async function searchTransfers(
  db: D1Database,
  f: { state: 'awaiting' | 'confirmed' | 'all'; reference: string | null; limit: number },
): Promise<TransferView[]> {
  const where = [
    f.state === 'awaiting'
      ? `t.state = 'awaiting' AND o.state = ${ORDER_STATE.pending}`
      : f.state === 'confirmed'
        ? "t.state = 'confirmed'"
        : '1 = 1',
    f.reference ? 't.reference = ?1' : '?1 IS NULL',
  ];
  const { results } = await db
    .prepare(`${VIEW_SELECT} WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC LIMIT ?2 + 0`)
    .bind(f.reference, f.limit)
    .all<ViewRow>();
  return results.map(mapView);
}

/**
 * The first two statements of finance's confirmation batch: the transfer is claimed for this payment attempt (only
 * while it awaits, its order is unpaid and costs exactly the received amount, and the bank serial confirmed nothing
 * yet), then the attempt (provider 'transfer') is recorded only when this batch claimed it. The fulfilment statements
 * follow in the same batch; `claim` changing one row means this confirmation won.
 */
export function transferConfirmStatements(
  db: D1Database,
  c: {
    reference: string;
    outTradeNo: string;
    receivedFen: number;
    payerName: string;
    bankSerial: string;
    operatorId: number;
    now: number;
  },
): { claim: D1PreparedStatement; attempt: D1PreparedStatement } {
  const claim = db
    .prepare(
      `UPDATE bank_transfers SET state = 'confirmed', received_fen = ?3, payer_name = ?4, bank_serial = ?5,
         out_trade_no = ?2, confirmed_by = ?6, confirmed_at = ?7
       WHERE reference = ?1 AND state = 'awaiting'
         AND EXISTS (SELECT 1 FROM orders o WHERE o.order_no = bank_transfers.order_no AND o.state = ${ORDER_STATE.pending} AND o.pay_fen = ?3)
         AND NOT EXISTS (SELECT 1 FROM bank_transfers s WHERE s.bank_serial = ?5)`,
    )
    .bind(c.reference, c.outTradeNo, c.receivedFen, c.payerName, c.bankSerial, c.operatorId, c.now);
  const attempt = db
    .prepare(
      `INSERT INTO payments (out_trade_no, order_no, user_id, provider, amount_fen, state, expires_at, created_at)
       SELECT t.out_trade_no, t.order_no, t.user_id, ?3, t.received_fen, 'pending', o.expires_at, ?4
       FROM bank_transfers t JOIN orders o ON o.order_no = t.order_no
       WHERE t.reference = ?1 AND t.out_trade_no = ?2`,
    )
    .bind(c.reference, c.outTradeNo, TRANSFER_RAIL, c.now);
  return { claim, attempt };
}

/** A refund of a transfer-paid order that finance still has to send by bank transfer (docs/decisions/228). */
export interface BankRefundRow {
  outRefundNo: string;
  orderNo: string;
  amountFen: number;
  reason: string;
  createdAt: number;
  /** Where the money goes back: the payer and the serial of the transfer that paid the order. */
  payerName: string;
  paidSerial: string;
  reference: string;
  phone: string;
}

/** Refunds of transfer-paid orders in progress (finance sends them by bank transfer), oldest first. */
export async function listBankRefunds(db: D1Database, limit: number): Promise<BankRefundRow[]> {
  const { results } = await db
    .prepare(
      `SELECT r.out_refund_no AS outRefundNo, r.order_no AS orderNo, r.amount_fen AS amountFen, r.reason,
         r.created_at AS createdAt, coalesce(t.payer_name, '') AS payerName, coalesce(t.bank_serial, '') AS paidSerial,
         coalesce(t.reference, '') AS reference, coalesce(u.phone, '') AS phone
       FROM refunds r JOIN payments p ON p.out_trade_no = r.out_trade_no AND p.provider = ?1
         LEFT JOIN bank_transfers t ON t.out_trade_no = r.out_trade_no LEFT JOIN users u ON u.id = r.user_id
       WHERE r.status = 'PROCESSING' ORDER BY r.created_at LIMIT ?2 + 0`,
    )
    .bind(TRANSFER_RAIL, limit)
    .all<BankRefundRow>();
  return results;
}

/**
 * Finance sent a transfer-paid order's refund by bank transfer: the refund is done (SUCCESS) with the bank's serial as
 * its number, only while it is in progress and its payment was a company transfer. One changed row = marked now.
 */
export function bankRefundDoneStatement(
  db: D1Database,
  r: { outRefundNo: string; bankSerial: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE refunds SET status = 'SUCCESS', refund_id = ?2, updated_at = ?3
       WHERE out_refund_no = ?1 AND status = 'PROCESSING'
         AND EXISTS (SELECT 1 FROM payments p WHERE p.out_trade_no = refunds.out_trade_no AND p.provider = ?4)`,
    )
    .bind(r.outRefundNo, r.bankSerial, r.now, TRANSFER_RAIL);
}
