// Queries for the development Alipay stand-in: its generated keys, its trades and refunds. Never used in production.
import { runBatch } from './batch';
import type { AlipayTradeStatus } from '../providers/pay/alipay';

export interface AlipaySimKeys {
  appPrivatePem: string;
  appPublicPem: string;
  alipayPrivatePem: string;
  alipayPublicPem: string;
}

/** The stand-in's keys, or null before first use. */
export async function findAlipaySimKeys(db: D1Database): Promise<AlipaySimKeys | null> {
  return db
    .prepare(
      `SELECT app_private_pem AS appPrivatePem, app_public_pem AS appPublicPem, alipay_private_pem AS alipayPrivatePem,
              alipay_public_pem AS alipayPublicPem FROM alipay_simulator_keys WHERE id = 1`,
    )
    .first<AlipaySimKeys>();
}

/** Store keys unless some are already stored (the first writer wins; everyone then reads the same keys). */
export async function insertAlipaySimKeys(db: D1Database, k: AlipaySimKeys, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO alipay_simulator_keys (id, app_private_pem, app_public_pem, alipay_private_pem, alipay_public_pem, created_at)
       VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    )
    .bind(k.appPrivatePem, k.appPublicPem, k.alipayPrivatePem, k.alipayPublicPem, now)
    .run();
}

export interface AlipaySimTrade {
  outTradeNo: string;
  subject: string;
  amountFen: number;
  notifyUrl: string;
  returnUrl: string | null;
  timeExpireMs: number;
  status: AlipayTradeStatus;
  tradeNo: string | null;
  paidAt: number | null;
  refundedFen: number;
}

const TRADE_COLUMNS = `out_trade_no AS outTradeNo, subject, amount_fen AS amountFen, notify_url AS notifyUrl,
  return_url AS returnUrl, time_expire_ms AS timeExpireMs, status, trade_no AS tradeNo, paid_at AS paidAt,
  refunded_fen AS refundedFen`;

export async function findAlipaySimTrade(db: D1Database, outTradeNo: string): Promise<AlipaySimTrade | null> {
  return db
    .prepare(`SELECT ${TRADE_COLUMNS} FROM alipay_simulator_trades WHERE out_trade_no = ?`)
    .bind(outTradeNo)
    .first<AlipaySimTrade>();
}

/** Open a trade once; a second create with the same number keeps the first (the caller compares amounts). */
export async function insertAlipaySimTrade(
  db: D1Database,
  t: Pick<AlipaySimTrade, 'outTradeNo' | 'subject' | 'amountFen' | 'notifyUrl' | 'returnUrl' | 'timeExpireMs'>,
  now: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO alipay_simulator_trades (out_trade_no, subject, amount_fen, notify_url, return_url, time_expire_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(out_trade_no) DO NOTHING`,
    )
    .bind(t.outTradeNo, t.subject, t.amountFen, t.notifyUrl, t.returnUrl, t.timeExpireMs, now)
    .run();
}

/** The payer pays: only an open trade before its deadline. */
export async function markAlipaySimPaid(db: D1Database, outTradeNo: string, tradeNo: string, now: number) {
  const r = await db
    .prepare(
      `UPDATE alipay_simulator_trades SET status = 'TRADE_SUCCESS', trade_no = ?2, paid_at = ?3
       WHERE out_trade_no = ?1 AND status = 'WAIT_BUYER_PAY' AND time_expire_ms > ?3`,
    )
    .bind(outTradeNo, tradeNo, now)
    .run();
  return r.meta.changes === 1;
}

/** Close an unpaid trade; false when it was paid. */
export async function markAlipaySimClosed(db: D1Database, outTradeNo: string): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE alipay_simulator_trades SET status = 'TRADE_CLOSED' WHERE out_trade_no = ? AND status IN ('WAIT_BUYER_PAY', 'TRADE_CLOSED')`,
    )
    .bind(outTradeNo)
    .run();
  return r.meta.changes === 1;
}

/**
 * Refund `amountFen` of a paid trade under the merchant's request number, atomically: a repeated request number moves
 * no money (fundChange false); a refund beyond what is left is refused (null). Returns the trade's refunded total.
 */
export async function refundAlipaySimTrade(
  db: D1Database,
  outTradeNo: string,
  outRequestNo: string,
  amountFen: number,
  now: number,
): Promise<{ fundChange: boolean; refundedFen: number } | null> {
  const insert = db
    .prepare(
      `INSERT INTO alipay_simulator_refunds (out_trade_no, out_request_no, amount_fen, created_at)
       SELECT ?1, ?2, ?3, ?4 FROM alipay_simulator_trades
       WHERE out_trade_no = ?1 AND status IN ('TRADE_SUCCESS', 'TRADE_CLOSED') AND trade_no IS NOT NULL
         AND refunded_fen + ?3 <= amount_fen
       ON CONFLICT(out_trade_no, out_request_no) DO NOTHING`,
    )
    .bind(outTradeNo, outRequestNo, amountFen, now);
  const after = db
    .prepare(
      `SELECT t.refunded_fen AS refundedFen, r.amount_fen AS requestFen FROM alipay_simulator_trades t
       LEFT JOIN alipay_simulator_refunds r ON r.out_trade_no = t.out_trade_no AND r.out_request_no = ?2
       WHERE t.out_trade_no = ?1`,
    )
    .bind(outTradeNo, outRequestNo);
  const batch = await runBatch(db, [
    insert,
    db
      .prepare(
        `UPDATE alipay_simulator_trades SET
           refunded_fen = refunded_fen + r.add_fen,
           status = CASE WHEN refunded_fen + r.add_fen = alipay_simulator_trades.amount_fen THEN 'TRADE_CLOSED' ELSE status END
         FROM (SELECT amount_fen AS add_fen FROM alipay_simulator_refunds
               WHERE out_trade_no = ?1 AND out_request_no = ?2 AND applied = 0) AS r
         WHERE alipay_simulator_trades.out_trade_no = ?1`,
      )
      .bind(outTradeNo, outRequestNo),
    db
      .prepare('UPDATE alipay_simulator_refunds SET applied = 1 WHERE out_trade_no = ?1 AND out_request_no = ?2')
      .bind(outTradeNo, outRequestNo),
    after,
  ]);
  const row = batch.of(after)?.results[0] as { refundedFen: number; requestFen: number | null } | undefined;
  if (!row || row.requestFen === null) return null;
  return { fundChange: batch.changes(insert) === 1, refundedFen: row.refundedFen };
}
