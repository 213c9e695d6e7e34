// The WeChat Pay *server* side of the v3 protocol, for the local payment simulator: verifying merchant request
// signatures, signing API responses, and building signed+encrypted payment and refund notifications that the real
// client (wechat.ts parseNotification, parseRefundNotification) accepts unchanged.

import type { TradeState } from './types';
import { MAX_CLOCK_SKEW_MS, toWechatTime } from './wechat';
import {
  AUTH_SCHEME,
  encryptResource,
  parseAuthorization,
  RESOURCE_ALGORITHM,
  randomResourceNonce,
  requestSignatureMessage,
  rsaVerify,
  signCallback,
} from './wechat-crypto';

export type MerchantRequestCheck =
  | { ok: true; mchid: string; serialNo: string; nonce: string; timestampSec: number }
  | {
      ok: false;
      reason: 'missing' | 'malformed' | 'mchid_mismatch' | 'serial_mismatch' | 'timestamp_skew' | 'bad_signature';
    };

/**
 * Verify a merchant request's Authorization header as WeChat does; on failure WeChat answers 401 SIGN_ERROR.
 * `pathWithQuery` is the API path as signed (/v3/...), without any simulator mount prefix.
 */
export async function verifyMerchantRequest(
  authorizationHeader: string | null,
  method: string,
  pathWithQuery: string,
  body: string,
  merchantPublicKey: CryptoKey,
  expect: { mchid?: string; serialNo?: string; nowMs?: number } = {},
): Promise<MerchantRequestCheck> {
  if (!authorizationHeader) return { ok: false, reason: 'missing' };
  const auth = parseAuthorization(authorizationHeader);
  if (!auth) return { ok: false, reason: 'malformed' };
  if (expect.mchid !== undefined && auth.mchid !== expect.mchid) return { ok: false, reason: 'mchid_mismatch' };
  if (expect.serialNo !== undefined && auth.serialNo !== expect.serialNo)
    return { ok: false, reason: 'serial_mismatch' };
  if (expect.nowMs !== undefined && Math.abs(expect.nowMs - auth.timestampSec * 1000) >= MAX_CLOCK_SKEW_MS) {
    return { ok: false, reason: 'timestamp_skew' };
  }
  const message = requestSignatureMessage(method.toUpperCase(), pathWithQuery, auth.timestampSec, auth.nonce, body);
  if (!(await rsaVerify(merchantPublicKey, message, auth.signature))) return { ok: false, reason: 'bad_signature' };
  return { ok: true, mchid: auth.mchid, serialNo: auth.serialNo, nonce: auth.nonce, timestampSec: auth.timestampSec };
}

export interface PlatformSigner {
  platformPrivateKey: CryptoKey;
  /** Sent as Wechatpay-Serial (PUB_KEY_ID_... in public-key mode). */
  platformPublicKeyId: string;
  nowMs: number;
  /** Wechatpay-Nonce */
  nonce: string;
}

/** The Wechatpay-* headers WeChat attaches to a response or callback body. */
export async function signedHeaders(s: PlatformSigner & { body: string }): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(s.nowMs / 1000));
  const signature = await signCallback({ timestamp, nonce: s.nonce, body: s.body, privateKey: s.platformPrivateKey });
  return {
    'Wechatpay-Nonce': s.nonce,
    'Wechatpay-Signature': signature,
    'Wechatpay-Timestamp': timestamp,
    'Wechatpay-Serial': s.platformPublicKeyId,
    'Wechatpay-Signature-Type': AUTH_SCHEME,
  };
}

/** A signed API response (pass body '' for 204 No Content); the merchant client verifies these. */
export async function signResponse(
  r: PlatformSigner & { status: number; body: string },
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers = await signedHeaders(r);
  if (r.body !== '') headers['Content-Type'] = 'application/json; charset=utf-8';
  return { status: r.status, headers, body: r.body };
}

/** WeChat's error body shape, e.g. errorBody('ORDER_NOT_EXIST', '订单不存在'). */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ code, message });
}

export interface SimulatedTransaction {
  mchid: string;
  appid: string;
  outTradeNo: string;
  tradeState: TradeState;
  tradeStateDesc?: string;
  /** Absent until paid, as with WeChat. */
  transactionId?: string;
  amountTotalFen: number;
  payerTotalFen?: number;
  currency?: string;
  successTimeMs?: number;
  attach?: string;
  payerOpenid?: string;
}

const TRADE_STATE_DESC: Record<TradeState, string> = {
  SUCCESS: '支付成功',
  NOTPAY: '订单未支付',
  CLOSED: '订单已关闭',
  REFUND: '转入退款',
  USERPAYING: '用户支付中',
  PAYERROR: '支付失败',
  REVOKED: '已撤销',
};

/** WeChat's transaction JSON object, as returned by the query API and carried (encrypted) by notifications. */
export function transactionJson(t: SimulatedTransaction): Record<string, unknown> {
  const currency = t.currency ?? 'CNY';
  const paid = t.tradeState === 'SUCCESS' || t.tradeState === 'REFUND';
  return {
    mchid: t.mchid,
    appid: t.appid,
    out_trade_no: t.outTradeNo,
    ...(t.transactionId !== undefined ? { transaction_id: t.transactionId } : {}),
    trade_type: 'NATIVE',
    trade_state: t.tradeState,
    trade_state_desc: t.tradeStateDesc ?? TRADE_STATE_DESC[t.tradeState],
    ...(paid ? { bank_type: 'OTHERS' } : {}),
    ...(t.attach !== undefined ? { attach: t.attach } : {}),
    ...(t.successTimeMs !== undefined ? { success_time: toWechatTime(t.successTimeMs) } : {}),
    ...(paid ? { payer: { openid: t.payerOpenid ?? 'oSimulatorPayer0000000000000' } } : {}),
    amount: paid
      ? {
          total: t.amountTotalFen,
          payer_total: t.payerTotalFen ?? t.amountTotalFen,
          currency,
          payer_currency: currency,
        }
      : { total: t.amountTotalFen, currency },
  };
}

export interface NotificationInput extends PlatformSigner {
  transaction: SimulatedTransaction;
  apiV3Key: string;
  /** 12-character GCM nonce for the resource; random when omitted. */
  resourceNonce?: string;
  /** Notification id; derived from the transaction when omitted so retries share it, as WeChat's do. */
  eventId?: string;
  /** Defaults to TRANSACTION.SUCCESS. */
  eventType?: string;
  /** Send a WECHATPAY/SIGNTEST/ probe signature instead of a real one (merchants must reject it). */
  probe?: boolean;
}

/** Build a payment notification request (headers + raw JSON body) exactly as WeChat would POST it. */
export async function buildSignedNotification(
  n: NotificationInput,
): Promise<{ headers: Record<string, string>; body: string }> {
  const resourceNonce = n.resourceNonce ?? randomResourceNonce();
  const associatedData = 'transaction';
  const ciphertext = await encryptResource({
    plaintext: JSON.stringify(transactionJson(n.transaction)),
    nonce: resourceNonce,
    associatedData,
    apiV3Key: n.apiV3Key,
  });
  const body = JSON.stringify({
    id: n.eventId ?? `EV-SIM-${n.transaction.transactionId ?? n.transaction.outTradeNo}`,
    create_time: toWechatTime(n.nowMs),
    resource_type: 'encrypt-resource',
    event_type: n.eventType ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: RESOURCE_ALGORITHM,
      ciphertext,
      associated_data: associatedData,
      nonce: resourceNonce,
    },
  });
  const headers = await signedHeaders({ ...n, body });
  if (n.probe) headers['Wechatpay-Signature'] = `WECHATPAY/SIGNTEST/${headers['Wechatpay-Signature']}`;
  headers['Content-Type'] = 'application/json';
  return { headers, body };
}

export interface SimulatedRefund {
  refundId: string;
  outRefundNo: string;
  transactionId: string;
  outTradeNo: string;
  status: 'SUCCESS' | 'PROCESSING';
  refundFen: number;
  totalFen: number;
  createTimeMs: number;
}

/** WeChat's refund JSON object, as returned by POST /v3/refund/domestic/refunds. */
export function refundJson(r: SimulatedRefund): Record<string, unknown> {
  return {
    refund_id: r.refundId,
    out_refund_no: r.outRefundNo,
    transaction_id: r.transactionId,
    out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(r.status === 'SUCCESS' ? { success_time: toWechatTime(r.createTimeMs) } : {}),
    create_time: toWechatTime(r.createTimeMs),
    status: r.status,
    funds_account: 'AVAILABLE',
    amount: {
      total: r.totalFen,
      refund: r.refundFen,
      payer_total: r.totalFen,
      payer_refund: r.refundFen,
      settlement_refund: r.refundFen,
      settlement_total: r.totalFen,
      discount_refund: 0,
      currency: 'CNY',
      refund_fee: 0,
    },
  };
}

export interface RefundNotificationInput extends PlatformSigner {
  mchid: string;
  refund: {
    outTradeNo: string;
    outRefundNo: string;
    refundId: string;
    transactionId?: string;
    status: 'SUCCESS' | 'CLOSED' | 'ABNORMAL';
    refundFen: number;
    totalFen: number;
  };
  apiV3Key: string;
  /** Defaults to REFUND.<status>. */
  eventType?: string;
}

/** Build a refund notification request (headers + raw JSON body) exactly as WeChat would POST it to notify_url. */
export async function buildSignedRefundNotification(
  n: RefundNotificationInput,
): Promise<{ headers: Record<string, string>; body: string }> {
  const resourceNonce = randomResourceNonce();
  const associatedData = 'refund';
  const r = n.refund;
  const ciphertext = await encryptResource({
    plaintext: JSON.stringify({
      mchid: n.mchid,
      out_trade_no: r.outTradeNo,
      transaction_id: r.transactionId ?? '',
      out_refund_no: r.outRefundNo,
      refund_id: r.refundId,
      refund_status: r.status,
      ...(r.status === 'SUCCESS' ? { success_time: toWechatTime(n.nowMs) } : {}),
      user_received_account: '支付用户零钱',
      amount: { total: r.totalFen, refund: r.refundFen, payer_total: r.totalFen, payer_refund: r.refundFen },
    }),
    nonce: resourceNonce,
    associatedData,
    apiV3Key: n.apiV3Key,
  });
  const body = JSON.stringify({
    id: `EV-SIM-${r.refundId}-${r.status}`,
    create_time: toWechatTime(n.nowMs),
    resource_type: 'encrypt-resource',
    event_type: n.eventType ?? `REFUND.${r.status}`,
    summary: r.status === 'SUCCESS' ? '退款成功' : r.status === 'CLOSED' ? '退款关闭' : '退款异常',
    resource: {
      original_type: 'refund',
      algorithm: RESOURCE_ALGORITHM,
      ciphertext,
      associated_data: associatedData,
      nonce: resourceNonce,
    },
  });
  const headers = await signedHeaders({ ...n, body });
  headers['Content-Type'] = 'application/json';
  return { headers, body };
}
