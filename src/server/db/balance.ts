// The customer's balance (账户余额) and its ledger (migration 0039, docs/decisions/224): every change is one ledger row
// and one conditional UPDATE in the same batch, and the ledger row carries the balance right after it. A debit happens
// only while the balance covers it (and the CHECK refuses a negative balance anyway); `ref` is UNIQUE, so one cause
// (a payment attempt, a top-up order, a refund, an adjustment) moves the balance at most once.
import 'server-only';
import { ORDER_STATE } from '../../lib/order-states';

/** What a ledger entry records: 充值, 消费, 退款, 调整, 自动续费 (labels in src/lib/balance.ts). */
export type LedgerKind = 'topup' | 'pay' | 'refund' | 'adjust' | 'renew';

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  /** Signed: positive money in, negative money out. */
  amountFen: number;
  balanceAfterFen: number;
  orderNo: string | null;
  note: string;
  createdAt: number;
}

interface LedgerRow {
  id: number;
  kind: LedgerKind;
  amount_fen: number;
  balance_after_fen: number;
  order_no: string | null;
  note: string;
  created_at: number;
}

const mapEntry = (r: LedgerRow): LedgerEntry => ({
  id: r.id,
  kind: r.kind,
  amountFen: r.amount_fen,
  balanceAfterFen: r.balance_after_fen,
  orderNo: r.order_no,
  note: r.note,
  createdAt: r.created_at,
});

/** The user's balance in fen (0 when they never had one). */
export async function balanceOf(db: D1Database, userId: number): Promise<number> {
  const row = await db
    .prepare('SELECT balance_fen FROM customer_balances WHERE user_id = ?')
    .bind(userId)
    .first<{ balance_fen: number }>();
  return row?.balance_fen ?? 0;
}

/** One page of the user's ledger, newest first, and how many entries there are. */
export async function ledgerPage(
  db: D1Database,
  userId: number,
  page: { offset: number; limit: number },
): Promise<{ list: LedgerEntry[]; total: number }> {
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT id, kind, amount_fen, balance_after_fen, order_no, note, created_at FROM balance_ledger
         WHERE user_id = ?1 ORDER BY id DESC LIMIT ?2 + 0 OFFSET ?3 + 0`,
      )
      .bind(userId, page.limit, page.offset),
    db.prepare('SELECT count(*) AS n FROM balance_ledger WHERE user_id = ?').bind(userId),
  ]);
  return {
    list: ((rows?.results ?? []) as LedgerRow[]).map(mapEntry),
    total: ((count?.results[0] as { n?: number } | undefined)?.n ?? 0) as number,
  };
}

/** One movement of a customer's balance as the ledger records it (a credit or a debit, once per `ref`). */
export interface LedgerWrite {
  userId: number;
  amountFen: number;
  kind: LedgerKind;
  ref: string;
  orderNo: string | null;
  note: string;
  operatorId?: number | null;
  now: number;
}

/**
 * The statements that credit the balance once for `ref` (top-up, refund, positive adjustment), each only while
 * `condition` (SQL, evaluated in the batch) holds: the balance row is created when missing, the ledger row records the
 * balance after the credit, and the balance moves only if that ledger row was written by this ref.
 */
export function creditStatements(db: D1Database, c: LedgerWrite, condition = '1'): D1PreparedStatement[] {
  return [
    db
      .prepare('INSERT OR IGNORE INTO customer_balances (user_id, balance_fen, updated_at) VALUES (?1, 0, ?2)')
      .bind(c.userId, c.now),
    db
      .prepare(
        `INSERT OR IGNORE INTO balance_ledger (user_id, kind, amount_fen, balance_after_fen, order_no, ref, note, operator_id, created_at)
         SELECT ?1, ?2, ?3, b.balance_fen + ?3, ?4, ?5, ?6, ?7, ?8 FROM customer_balances b
         WHERE b.user_id = ?1 AND ?3 > 0 AND (${condition})`,
      )
      .bind(c.userId, c.kind, c.amountFen, c.orderNo, c.ref, c.note, c.operatorId ?? null, c.now),
    ...movedBy(db, c.userId, c.amountFen, c.ref, c.now),
  ];
}

/**
 * The statements that debit the balance once for `ref`, only while the balance covers the amount and `condition`
 * holds: the ledger row is written first (with the balance after the debit), then the balance moves by exactly that
 * row. The first statement is the one to judge: one changed row means the money was taken.
 */
export function debitStatements(
  db: D1Database,
  d: LedgerWrite,
  condition = '1',
): { taken: D1PreparedStatement; statements: D1PreparedStatement[] } {
  const taken = db
    .prepare(
      `INSERT OR IGNORE INTO balance_ledger (user_id, kind, amount_fen, balance_after_fen, order_no, ref, note, operator_id, created_at)
       SELECT ?1, ?2, -?3, b.balance_fen - ?3, ?4, ?5, ?6, ?7, ?8 FROM customer_balances b
       WHERE b.user_id = ?1 AND ?3 > 0 AND b.balance_fen >= ?3 AND (${condition})`,
    )
    .bind(d.userId, d.kind, d.amountFen, d.orderNo, d.ref, d.note, d.operatorId ?? null, d.now);
  return { taken, statements: [taken, ...movedBy(db, d.userId, -d.amountFen, d.ref, d.now)] };
}

/**
 * The balance moves by the ledger row of `ref` written in this batch (still unapplied), and the row is then marked
 * applied: a replayed ref, whose row exists already, moves nothing.
 */
function movedBy(db: D1Database, userId: number, signedFen: number, ref: string, now: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE customer_balances SET balance_fen = balance_fen + ?2, updated_at = ?4
         WHERE user_id = ?1 AND EXISTS (SELECT 1 FROM balance_ledger l WHERE l.ref = ?3 AND l.user_id = ?1
           AND l.amount_fen = ?2 AND l.applied = 0)`,
      )
      .bind(userId, signedFen, ref, now),
    db
      .prepare('UPDATE balance_ledger SET applied = 1 WHERE ref = ?1 AND user_id = ?2 AND applied = 0')
      .bind(ref, userId),
  ];
}

/** The payment attempt that records an order paid from balance (provider 'balance'), only once its debit is written. */
export function balancePaymentStatement(
  db: D1Database,
  p: { outTradeNo: string; orderNo: string; userId: number; amountFen: number; expiresAt: number; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payments (out_trade_no, order_no, user_id, provider, amount_fen, state, expires_at, created_at,
         transaction_id, paid_at)
       SELECT ?1, ?2, ?3, 'balance', ?4, 'paid', ?5, ?6, ?1, ?6
       WHERE EXISTS (SELECT 1 FROM balance_ledger WHERE ref = ?1 AND user_id = ?3 AND amount_fen = -?4)`,
    )
    .bind(p.outTradeNo, p.orderNo, p.userId, p.amountFen, p.expiresAt, p.now);
}

/** SQL text: the order is the user's, unpaid, unexpired and costs exactly this (a debit's condition). */
export function orderPayableSql(orderNo: string, userId: number, amountFen: number, now: number): string {
  if (!/^[0-9A-Za-z]{1,40}$/.test(orderNo)) throw new Error('unexpected order number');
  return `EXISTS (SELECT 1 FROM orders WHERE order_no = '${orderNo}' AND user_id = ${Math.trunc(userId)}
    AND state = ${ORDER_STATE.pending} AND pay_fen = ${Math.trunc(amountFen)} AND expires_at > ${Math.trunc(now)})`;
}
