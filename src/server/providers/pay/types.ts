// The payment provider interface (WeChat Pay v3 Native QR code). Real: WeChat Pay. Development: a local simulator
// that speaks the same signed protocol. Money is integer fen, times are epoch ms.
import { AppError, isAppError } from '../../../lib/errors';

/** WeChat Pay trade states (trade_state). */
export type TradeState = 'SUCCESS' | 'NOTPAY' | 'CLOSED' | 'REFUND' | 'USERPAYING' | 'PAYERROR' | 'REVOKED';

export const TRADE_STATES: readonly TradeState[] = [
  'SUCCESS',
  'NOTPAY',
  'CLOSED',
  'REFUND',
  'USERPAYING',
  'PAYERROR',
  'REVOKED',
];

export interface NativeOrder {
  /** Merchant order number: 6-32 of [0-9A-Za-z_-*], unique per merchant. */
  outTradeNo: string;
  /** Shown to the payer; at most 127 UTF-8 bytes. */
  description: string;
  /** Positive integer fen. */
  amountFen: number;
  /** Last moment the payer can pay (epoch ms); sent as time_expire in Beijing time. */
  timeExpireMs: number;
  /** Where WeChat POSTs the payment notification; https, no query string. */
  notifyUrl: string;
  /** Echoed back in query results and notifications; at most 128 UTF-8 bytes. */
  attach?: string;
}

/** An H5 order (a phone browser other than WeChat's own): the payer's address is part of WeChat's risk control. */
export interface H5Order extends NativeOrder {
  /** The payer's IP address as the portal saw it (scene_info.payer_client_ip). */
  payerClientIp: string;
}

/** A JSAPI order (WeChat's own browser, 公众号支付): the payer is the WeChat user the official account knows as `openid`. */
export interface JsapiOrder extends NativeOrder {
  /** The payer's openid under the merchant's appid (from the official account's web authorisation, snsapi_base). */
  openid: string;
}

/**
 * What the page hands to WeixinJSBridge.invoke('getBrandWCPayRequest', …) to open WeChat's own payment sheet: signed
 * with the merchant key over "appId\ntimeStamp\nnonceStr\npackage\n" (RSA, SHA-256), checked by WeChat's client.
 */
export interface JsapiBridge {
  appId: string;
  /** Seconds since the epoch, as text. */
  timeStamp: string;
  nonceStr: string;
  /** "prepay_id=…" */
  package: string;
  signType: 'RSA';
  paySign: string;
}

/** An order as WeChat reports it from the query API. */
export interface PayQueryResult {
  outTradeNo: string;
  mchid: string;
  appid: string;
  tradeState: TradeState;
  tradeStateDesc?: string;
  transactionId?: string;
  amountTotalFen?: number;
  /** What the payer actually paid (differs from the total when coupons apply). */
  payerTotalFen?: number;
  currency?: string;
  successTimeMs?: number;
  attach?: string;
}

/** The decrypted transaction carried by a payment notification. */
export interface PayTransaction {
  outTradeNo: string;
  transactionId: string;
  tradeState: TradeState;
  tradeStateDesc?: string;
  amountTotalFen: number;
  payerTotalFen?: number;
  currency: string;
  successTimeMs?: number;
  mchid: string;
  appid: string;
  attach?: string;
}

/** A verified and decrypted payment notification. */
export interface PayNotification {
  /** Notification id; the same event may be delivered more than once with the same id. */
  id: string;
  /** e.g. TRANSACTION.SUCCESS */
  eventType: string;
  createTimeMs?: number;
  summary?: string;
  transaction: PayTransaction;
}

/** WeChat Pay refund states (status of /v3/refund/domestic/refunds). */
export type RefundStatus = 'SUCCESS' | 'PROCESSING' | 'CLOSED' | 'ABNORMAL';

export const REFUND_STATUSES: readonly RefundStatus[] = ['SUCCESS', 'PROCESSING', 'CLOSED', 'ABNORMAL'];

/** A refund of a paid transaction (WeChat domestic refund). */
export interface RefundRequest {
  /** The paid attempt's merchant order number. */
  outTradeNo: string;
  /** Merchant refund number: 1-64 of [0-9A-Za-z_-|*@]; retrying with the same number never refunds twice. */
  outRefundNo: string;
  /** Shown to the payer; at most 80 characters. */
  reason: string;
  /** Positive integer fen, at most totalFen. */
  refundFen: number;
  /** The original transaction's amount in fen. */
  totalFen: number;
  /** Where WeChat POSTs the refund's outcome (REFUND.SUCCESS / ABNORMAL / CLOSED); https, no query string. */
  notifyUrl?: string;
}

/** WeChat's answer to a refund request (the refund may still be PROCESSING). */
export interface RefundResult {
  refundId: string;
  outRefundNo: string;
  outTradeNo: string;
  status: RefundStatus;
  refundFen: number;
  totalFen: number;
  successTimeMs?: number;
}

/** The decrypted refund carried by a refund notification (REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED). */
export interface RefundNotice {
  mchid: string;
  outTradeNo: string;
  outRefundNo: string;
  refundId: string;
  /** refund_status: the refund's final state at WeChat. */
  status: Exclude<RefundStatus, 'PROCESSING'>;
  refundFen: number;
  totalFen: number;
  successTimeMs?: number;
}

/** A verified and decrypted refund notification. */
export interface RefundNotification {
  id: string;
  eventType: string;
  refund: RefundNotice;
}

export interface PayProvider {
  readonly name: 'wechat' | 'simulator';
  /** Create a Native (QR code) order; returns the weixin:// URL to render as a QR code. */
  createNativeOrder(o: NativeOrder): Promise<{ codeUrl: string }>;
  /**
   * Create an H5 order (微信支付 H5, a phone browser): returns the h5_url the payer's browser opens, which hands over to
   * the WeChat app; valid for 5 minutes, so it is asked for again (same outTradeNo) each time the payer goes to pay.
   */
  createH5Order(o: H5Order): Promise<{ h5Url: string }>;
  /** Create a JSAPI order (inside WeChat's browser): returns the prepay_id, valid for two hours. */
  createJsapiOrder(o: JsapiOrder): Promise<{ prepayId: string }>;
  /** Sign the parameters the page passes to WeixinJSBridge for one prepay_id (fresh time stamp and nonce each time). */
  jsapiBridge(prepayId: string): Promise<JsapiBridge>;
  /** Query an order by merchant order number. */
  queryOrder(outTradeNo: string): Promise<PayQueryResult>;
  /** Close an unpaid order so it can no longer be paid. */
  closeOrder(outTradeNo: string): Promise<void>;
  /** Refund (part of) a paid transaction; throws payApiFailed (AppError with upstream) when WeChat refuses it. */
  refund(r: RefundRequest): Promise<RefundResult>;
  /** Verify and decrypt a payment notification; throws payUnverified (AppError paySignatureInvalid) when it must not be trusted. */
  parseNotification(headers: Headers, body: string, nowMs: number): Promise<PayNotification>;
  /** Verify and decrypt a refund notification (event_type REFUND.*); throws payUnverified like parseNotification. */
  parseRefundNotification(headers: Headers, body: string, nowMs: number): Promise<RefundNotification>;
}

/** Why a notification or API response was not trusted. */
export type PayVerificationReason =
  | 'missing_header'
  | 'serial_mismatch'
  | 'signature_probe'
  | 'timestamp_skew'
  | 'bad_signature'
  | 'malformed_body'
  | 'unsupported_algorithm'
  | 'decrypt_failed'
  | 'malformed_resource'
  | 'merchant_mismatch';

/** A notification or response that failed verification (401); `reason` is stable for logs and metrics. */
export const payUnverified = (reason: PayVerificationReason, note?: string): AppError =>
  new AppError('paySignatureInvalid', { status: 401, reason, ...(note ? { cause: note } : {}) });

/** WeChat answered with an error status (e.g. 404 ORDER_NOT_EXIST) or a response we could not understand. */
export const payApiFailed = (status: number, code: string, message: string): AppError =>
  new AppError('payUnavailable', { status: 502, upstream: { status, code, message } });

/** WeChat's error code (PARAM_ERROR, ORDER_NOT_EXIST, ..., MALFORMED_RESPONSE) when the error is WeChat's refusal. */
export const upstreamCode = (err: unknown): string | undefined => (isAppError(err) ? err.upstream?.code : undefined);
