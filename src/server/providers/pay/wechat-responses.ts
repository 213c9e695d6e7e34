// WeChat Pay's response and notification bodies as zod schemas: the transaction object (order query, notification
// resource), the refund object and the refund notification's resource. Required fields must be present with the right type; optional ones that come with
// another type are ignored, as WeChat may add or change informational fields.
import { z } from 'zod';
import { type PayQueryResult, REFUND_STATUSES, type RefundNotice, type RefundResult, TRADE_STATES } from './types';

/** Informational fields: taken when they have the expected type, ignored otherwise. */
const lenient = z.unknown().optional();
const stringOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const fenOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
const fen = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const required = z.string().min(1);

/** Parse an RFC 3339 time with an explicit offset (as WeChat sends) to epoch ms; throws when malformed. */
export function parseWechatTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    throw new RangeError(`invalid RFC 3339 time: ${text}`);
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new RangeError(`invalid RFC 3339 time: ${text}`);
  return ms;
}

/** success_time: absent, '' or not a string count as absent; any other string must be RFC 3339. */
const successTime = lenient.refine((v) => {
  if (typeof v !== 'string' || !v) return true;
  try {
    parseWechatTime(v);
    return true;
  } catch {
    return false;
  }
});
const successTimeMs = (v: unknown): number | undefined => (typeof v === 'string' && v ? parseWechatTime(v) : undefined);

const transactionSchema = z.object({
  out_trade_no: required,
  mchid: required,
  appid: required,
  trade_state: z.enum(TRADE_STATES as [string, ...string[]]),
  trade_state_desc: lenient,
  transaction_id: lenient,
  attach: lenient,
  amount: z.object({ total: fen.optional(), payer_total: lenient, currency: lenient }).optional(),
  success_time: successTime,
});

/** WeChat's transaction object (query answer and notification resource) has the query result's fields. */
export type TransactionFields = PayQueryResult;

/** Read WeChat's transaction JSON; null when a required field is missing or has the wrong type. */
export function readTransaction(o: unknown): TransactionFields | null {
  const parsed = transactionSchema.safeParse(o);
  if (!parsed.success) return null;
  const t = parsed.data;
  const out: TransactionFields = {
    outTradeNo: t.out_trade_no,
    mchid: t.mchid,
    appid: t.appid,
    tradeState: t.trade_state as TransactionFields['tradeState'],
  };
  const desc = stringOf(t.trade_state_desc);
  if (desc !== undefined) out.tradeStateDesc = desc;
  const transactionId = stringOf(t.transaction_id);
  if (transactionId) out.transactionId = transactionId;
  const attach = stringOf(t.attach);
  if (attach !== undefined) out.attach = attach;
  if (t.amount?.total !== undefined) out.amountTotalFen = t.amount.total;
  const payerTotal = fenOf(t.amount?.payer_total);
  if (payerTotal !== undefined) out.payerTotalFen = payerTotal;
  const currency = stringOf(t.amount?.currency);
  if (currency !== undefined) out.currency = currency;
  const success = successTimeMs(t.success_time);
  if (success !== undefined) out.successTimeMs = success;
  return out;
}

const refundSchema = z.object({
  refund_id: required,
  out_refund_no: required,
  out_trade_no: required,
  status: z.enum(REFUND_STATUSES as [string, ...string[]]),
  amount: z.object({
    refund: fen,
    total: fen,
    currency: z
      .unknown()
      .refine((c) => typeof c !== 'string' || c === 'CNY')
      .optional(),
  }),
  success_time: successTime,
});

/** Read WeChat's refund JSON; null when a required field is missing or has the wrong type. */
export function readRefund(o: unknown): RefundResult | null {
  const parsed = refundSchema.safeParse(o);
  if (!parsed.success) return null;
  const r = parsed.data;
  const out: RefundResult = {
    refundId: r.refund_id,
    outRefundNo: r.out_refund_no,
    outTradeNo: r.out_trade_no,
    status: r.status as RefundResult['status'],
    refundFen: r.amount.refund,
    totalFen: r.amount.total,
  };
  const success = successTimeMs(r.success_time);
  if (success !== undefined) out.successTimeMs = success;
  return out;
}

const refundNoticeSchema = z.object({
  mchid: required,
  out_trade_no: required,
  out_refund_no: required,
  refund_id: required,
  refund_status: z.enum(['SUCCESS', 'CLOSED', 'ABNORMAL']),
  amount: z.object({ refund: fen, total: fen }),
  success_time: successTime,
});

/** Read the resource of a refund notification; null when a required field is missing or has the wrong type. */
export function readRefundNotice(o: unknown): RefundNotice | null {
  const parsed = refundNoticeSchema.safeParse(o);
  if (!parsed.success) return null;
  const r = parsed.data;
  const out: RefundNotice = {
    mchid: r.mchid,
    outTradeNo: r.out_trade_no,
    outRefundNo: r.out_refund_no,
    refundId: r.refund_id,
    status: r.refund_status,
    refundFen: r.amount.refund,
    totalFen: r.amount.total,
  };
  const success = successTimeMs(r.success_time);
  if (success !== undefined) out.successTimeMs = success;
  return out;
}
