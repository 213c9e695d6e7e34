// Queries for the development WeChat Pay simulator: its generated keys and its transactions. Never used in production.

export interface SimulatorKeyRow {
  merchant_private_pem: string;
  merchant_public_pem: string;
  platform_private_pem: string;
  platform_public_pem: string;
  api_v3_key: string;
}

/** The simulator's keys, or null before first use. */
export async function findSimulatorKeys(db: D1Database): Promise<SimulatorKeyRow | null> {
  return db
    .prepare(
      'SELECT merchant_private_pem, merchant_public_pem, platform_private_pem, platform_public_pem, api_v3_key FROM pay_simulator_keys WHERE id = 1',
    )
    .first<SimulatorKeyRow>();
}

/** Store keys unless some are already stored (the first writer wins; everyone then reads the same keys). */
export async function insertSimulatorKeys(db: D1Database, k: SimulatorKeyRow, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO pay_simulator_keys (id, merchant_private_pem, merchant_public_pem, platform_private_pem, platform_public_pem, api_v3_key, created_at)
       VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    )
    .bind(
      k.merchant_private_pem,
      k.merchant_public_pem,
      k.platform_private_pem,
      k.platform_public_pem,
      k.api_v3_key,
      now,
    )
    .run();
}

export interface SimTransaction {
  outTradeNo: string;
  mchid: string;
  appid: string;
  description: string;
  amountFen: number;
  notifyUrl: string;
  attach: string | null;
  timeExpireMs: number;
  tradeState: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transactionId: string | null;
  successTimeMs: number | null;
}

interface SimRow {
  out_trade_no: string;
  mchid: string;
  appid: string;
  description: string;
  amount_fen: number;
  notify_url: string;
  attach: string | null;
  time_expire_ms: number;
  trade_state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transaction_id: string | null;
  success_time_ms: number | null;
}

/** A simulated transaction by out_trade_no. */
export async function findSimTransaction(db: D1Database, outTradeNo: string): Promise<SimTransaction | null> {
  const r = await db
    .prepare('SELECT * FROM pay_simulator_transactions WHERE out_trade_no = ?')
    .bind(outTradeNo)
    .first<SimRow>();
  return r
    ? {
        outTradeNo: r.out_trade_no,
        mchid: r.mchid,
        appid: r.appid,
        description: r.description,
        amountFen: r.amount_fen,
        notifyUrl: r.notify_url,
        attach: r.attach,
        timeExpireMs: r.time_expire_ms,
        tradeState: r.trade_state,
        transactionId: r.transaction_id,
        successTimeMs: r.success_time_ms,
      }
    : null;
}

/** Record a new simulated transaction (no-op when the out_trade_no exists). */
export async function insertSimTransaction(db: D1Database, t: SimTransaction, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO pay_simulator_transactions (out_trade_no, mchid, appid, description, amount_fen, notify_url, attach,
         time_expire_ms, trade_state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'NOTPAY', ?) ON CONFLICT DO NOTHING`,
    )
    .bind(t.outTradeNo, t.mchid, t.appid, t.description, t.amountFen, t.notifyUrl, t.attach, t.timeExpireMs, now)
    .run();
}

/** NOTPAY -> SUCCESS (only before expiry); true when this call paid it. */
export async function markSimPaid(
  db: D1Database,
  outTradeNo: string,
  transactionId: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE pay_simulator_transactions SET trade_state = 'SUCCESS', transaction_id = ?2, success_time_ms = ?3
       WHERE out_trade_no = ?1 AND trade_state = 'NOTPAY' AND time_expire_ms > ?3`,
    )
    .bind(outTradeNo, transactionId, now)
    .run();
  return res.meta.changes === 1;
}

/** NOTPAY -> CLOSED; true when closed (or already closed), false when it was paid. */
export async function markSimClosed(db: D1Database, outTradeNo: string): Promise<boolean> {
  await db
    .prepare(
      "UPDATE pay_simulator_transactions SET trade_state = 'CLOSED' WHERE out_trade_no = ? AND trade_state = 'NOTPAY'",
    )
    .bind(outTradeNo)
    .run();
  const t = await findSimTransaction(db, outTradeNo);
  return t?.tradeState === 'CLOSED';
}

export interface SimRefund {
  outRefundNo: string;
  outTradeNo: string;
  refundId: string;
  amountFen: number;
  totalFen: number;
  status: 'SUCCESS' | 'PROCESSING';
  createdAt: number;
}

interface SimRefundRow {
  out_refund_no: string;
  out_trade_no: string;
  refund_id: string;
  amount_fen: number;
  total_fen: number;
  status: 'SUCCESS' | 'PROCESSING';
  created_at: number;
}

const mapSimRefund = (r: SimRefundRow): SimRefund => ({
  outRefundNo: r.out_refund_no,
  outTradeNo: r.out_trade_no,
  refundId: r.refund_id,
  amountFen: r.amount_fen,
  totalFen: r.total_fen,
  status: r.status,
  createdAt: r.created_at,
});

/** A simulated refund by out_refund_no. */
export async function findSimRefund(db: D1Database, outRefundNo: string): Promise<SimRefund | null> {
  const r = await db
    .prepare('SELECT * FROM pay_simulator_refunds WHERE out_refund_no = ?')
    .bind(outRefundNo)
    .first<SimRefundRow>();
  return r ? mapSimRefund(r) : null;
}

/**
 * Accept a refund as WeChat does, in one batch: only for a paid (SUCCESS or REFUND) transaction of exactly `totalFen`,
 * only while the refunds so far plus this one stay within the total; the transaction turns REFUND. Returns the stored
 * refund for this out_refund_no (an earlier one when it is a retry), or null when refused.
 */
export async function insertSimRefund(
  db: D1Database,
  r: Omit<SimRefund, 'createdAt'> & { reason: string },
  now: number,
): Promise<SimRefund | null> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO pay_simulator_refunds (out_refund_no, out_trade_no, refund_id, amount_fen, total_fen, status, reason, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM pay_simulator_transactions t
           WHERE t.out_trade_no = ?2 AND t.trade_state IN ('SUCCESS', 'REFUND') AND t.amount_fen = ?5
             AND ?4 + (SELECT coalesce(sum(amount_fen), 0) FROM pay_simulator_refunds WHERE out_trade_no = ?2) <= ?5)
         ON CONFLICT(out_refund_no) DO NOTHING`,
      )
      .bind(r.outRefundNo, r.outTradeNo, r.refundId, r.amountFen, r.totalFen, r.status, r.reason, now),
    db
      .prepare(
        `UPDATE pay_simulator_transactions SET trade_state = 'REFUND' WHERE out_trade_no = ?1 AND trade_state = 'SUCCESS'
           AND EXISTS (SELECT 1 FROM pay_simulator_refunds WHERE out_trade_no = ?1)`,
      )
      .bind(r.outTradeNo),
  ]);
  const stored = await findSimRefund(db, r.outRefundNo);
  return stored && stored.outTradeNo === r.outTradeNo && stored.amountFen === r.amountFen ? stored : null;
}
