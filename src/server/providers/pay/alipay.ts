// Alipay OpenAPI (the gateway protocol, RSA2): 电脑网站支付 (alipay.trade.page.pay), 手机网站支付
// (alipay.trade.wap.pay), 当面付 QR codes (alipay.trade.precreate), the order query, close and refund, and the
// asynchronous notification. Everything is signed and verified to Alipay's documented rules:
// - the string to sign: every parameter but `sign` (and, for a notification, `sign_type`) whose value is not empty,
//   sorted by key in ASCII order, joined as key=value with '&', values as they are (not URL-encoded), UTF-8;
// - RSA2: SHA256withRSA (RSASSA-PKCS1-v1_5), base64; the merchant signs with the application's private key, Alipay
//   with its own, which the merchant verifies with the Alipay public key;
// - a synchronous answer is `{"<method with _ for .>_response": {...}, "sign": "..."}`, signed over the exact text
//   of the response object as it came over the wire (so it is cut from the raw body, never re-serialised);
// - a notification is an application/x-www-form-urlencoded POST; the merchant answers the plain text `success` only
//   after verifying it and checking app_id, seller_id, out_trade_no and total_amount against its own order.
// Money is integer fen here and a yuan string with two decimals on the wire; times are epoch ms here and
// "yyyy-MM-dd HH:mm:ss" in Beijing time on the wire. The local stand-in (alipay-simulator.ts) runs this same code.
import { AppError } from '../../../lib/errors';
import { shanghaiDateTime, shanghaiWallTime } from '../../../lib/time';
import { payApiFailed, payUnverified } from './types';
import { importPrivateKeyPem, importPublicKeyPem, rsaSign, rsaVerify } from './wechat-crypto';

/** Alipay trade states (trade_status). */
export type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_CLOSED' | 'TRADE_SUCCESS' | 'TRADE_FINISHED';
export const ALIPAY_TRADE_STATUSES: readonly AlipayTradeStatus[] = [
  'WAIT_BUYER_PAY',
  'TRADE_CLOSED',
  'TRADE_SUCCESS',
  'TRADE_FINISHED',
];
/** The states in which the money has been received. */
export const ALIPAY_PAID: readonly AlipayTradeStatus[] = ['TRADE_SUCCESS', 'TRADE_FINISHED'];

/** The gateway's success code; anything else is a refusal (sub_code names it). */
export const ALIPAY_OK = '10000';

export interface AlipayCredentials {
  /** The application's id (app_id). */
  appId: string;
  /** The merchant's partner id (seller_id, 2088…), checked on every notification. */
  sellerId: string;
  /** The application's private key, PKCS#8 "PRIVATE KEY" PEM, RSA 2048. */
  appPrivateKeyPem: string;
  /** The Alipay public key (支付宝公钥), SPKI "PUBLIC KEY" PEM. */
  alipayPublicKeyPem: string;
  /** The gateway, e.g. https://openapi.alipay.com/gateway.do (the stand-in's own path locally). */
  gateway: string;
  /** Where Alipay POSTs notifications. */
  notifyUrl: string;
  fetch?: typeof fetch;
  now?: () => number;
}

/** One order to pay: the merchant's order number, the subject shown to the payer, the amount and the deadline. */
export interface AlipayOrder {
  outTradeNo: string;
  subject: string;
  amountFen: number;
  timeExpireMs: number;
  /** Where the payer's browser returns after paying (page and wap payments). */
  returnUrl?: string;
  /** Where a phone payer goes when they give up (wap payments). */
  quitUrl?: string;
}

export interface AlipayQueryResult {
  outTradeNo: string;
  tradeNo?: string | undefined;
  tradeStatus: AlipayTradeStatus | 'NOT_EXIST';
  totalFen?: number | undefined;
  paidAtMs?: number | undefined;
}

export interface AlipayRefundRequest {
  outTradeNo: string;
  /** The merchant's refund number (out_request_no); retrying with the same number never refunds twice. */
  outRequestNo: string;
  refundFen: number;
  reason: string;
}

export interface AlipayRefundResult {
  outTradeNo: string;
  tradeNo: string;
  /** Whether this request moved money (fund_change Y); N for a repeat of a refund already made. */
  fundChange: boolean;
  /** The total refunded on the trade so far (refund_fee), in fen. */
  refundedTotalFen: number;
}

/** A verified asynchronous notification (notify_type trade_status_sync). */
export interface AlipayNotification {
  notifyId: string;
  appId: string;
  sellerId: string;
  outTradeNo: string;
  tradeNo: string;
  tradeStatus: AlipayTradeStatus;
  totalFen: number;
  paidAtMs?: number | undefined;
  /** Every parameter as received (for the payment attempt's record). */
  params: Record<string, string>;
}

// ---- money and time on the wire ----

/** Integer fen as Alipay's amount: yuan with exactly two decimals ("0.01" .. "100000000.00"). */
export function fenToAlipayAmount(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen <= 0) throw new Error(`bad amount in fen: ${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Alipay's amount ("12.3", "12.30", "12") as integer fen, or null when it is not a plain amount. */
export function alipayAmountToFen(text: string | undefined): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text ?? '');
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Epoch ms as Alipay's "yyyy-MM-dd HH:mm:ss" in Beijing time. */
export const alipayTime = shanghaiDateTime;

/** Alipay's "yyyy-MM-dd HH:mm:ss" (Beijing time) as epoch ms, or undefined. */
export function parseAlipayTime(text: string | undefined): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text ?? '');
  if (!m) return undefined;
  const ms = shanghaiWallTime(`${m[1]}T${m[2]}`);
  return Number.isNaN(ms) ? undefined : ms;
}

// ---- signatures ----

/**
 * The string to sign of a parameter set: every key but those in `exclude` whose value is not empty, sorted by key,
 * as key=value joined by '&', the values unencoded.
 */
export function alipaySigningString(params: Record<string, string>, exclude: readonly string[] = ['sign']): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** The RSA2 signature of a request's parameters with the application's private key. */
export async function signAlipayParams(params: Record<string, string>, privateKey: CryptoKey): Promise<string> {
  return rsaSign(privateKey, alipaySigningString(params));
}

/** Whether a notification's `sign` verifies (sign and sign_type excluded from the string), RSA2 only. */
export async function verifyAlipayNotification(
  params: Record<string, string>,
  alipayPublicKey: CryptoKey,
): Promise<boolean> {
  if (params.sign_type !== 'RSA2' || !params.sign) return false;
  return rsaVerify(alipayPublicKey, alipaySigningString(params, ['sign', 'sign_type']), params.sign);
}

/** The name of a method's response object: alipay.trade.query -> alipay_trade_query_response. */
export const responseKey = (method: string) => `${method.replaceAll('.', '_')}_response`;

/**
 * The exact text of `"<key>": {...}` 's object in a raw JSON answer and the answer's `sign`, or null when the body has
 * no such object. The object is cut by matching braces outside strings, so the text is byte for byte what Alipay signed.
 */
export function responseNodeOf(raw: string, key: string): { node: string; sign: string | undefined } | null {
  const marker = `"${key}"`;
  const at = raw.indexOf(marker);
  if (at < 0) return null;
  const start = raw.indexOf('{', at + marker.length);
  if (start < 0 || raw.slice(at + marker.length, start).trim() !== ':') return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      let sign: string | undefined;
      try {
        const whole = JSON.parse(raw) as { sign?: unknown };
        sign = typeof whole.sign === 'string' ? whole.sign : undefined;
      } catch {
        return null;
      }
      return { node: raw.slice(start, i + 1), sign };
    }
  }
  return null;
}

// ---- the client ----

export interface AlipayClient {
  readonly appId: string;
  /** The signed gateway URL that opens 电脑网站支付 (desktop) for an order: send the payer's browser there. */
  pagePayUrl(o: AlipayOrder): Promise<string>;
  /** The signed gateway URL that opens 手机网站支付 (the Alipay app or its mobile page) for an order. */
  wapPayUrl(o: AlipayOrder): Promise<string>;
  /** 当面付: a QR code (https://qr.alipay.com/…) the payer scans with the Alipay app. */
  precreate(o: AlipayOrder): Promise<{ qrCode: string }>;
  query(outTradeNo: string): Promise<AlipayQueryResult>;
  /** Close an unpaid trade; a trade Alipay never saw (ACQ.TRADE_NOT_EXIST) counts as closed. */
  close(outTradeNo: string): Promise<void>;
  refund(r: AlipayRefundRequest): Promise<AlipayRefundResult>;
  /** Verify an asynchronous notification's form body; throws payUnverified when it must not be trusted. */
  parseNotification(formBody: string): Promise<AlipayNotification>;
}

type Biz = Record<string, unknown>;

export function createAlipay(c: AlipayCredentials): AlipayClient {
  const now = c.now ?? Date.now;
  const doFetch = c.fetch ?? fetch;
  let keys: Promise<{ priv: CryptoKey; pub: CryptoKey }> | null = null;
  const loadKeys = () => {
    keys ??= Promise.all([importPrivateKeyPem(c.appPrivateKeyPem), importPublicKeyPem(c.alipayPublicKeyPem)]).then(
      ([priv, pub]) => ({ priv, pub }),
    );
    return keys;
  };

  /** The signed common and business parameters of one call. */
  async function signed(method: string, biz: Biz, extra: Record<string, string> = {}) {
    const params: Record<string, string> = {
      app_id: c.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: alipayTime(now()),
      version: '1.0',
      biz_content: JSON.stringify(biz),
      ...extra,
    };
    params.sign = await signAlipayParams(params, (await loadKeys()).priv);
    return params;
  }

  /** One synchronous call: POST the signed form, verify the answer's signature, return its response object. */
  async function call(method: string, biz: Biz, extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const params = await signed(method, biz, extra);
    let raw: string;
    try {
      const res = await doFetch(c.gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
        body: new URLSearchParams(params).toString(),
      });
      raw = await res.text();
    } catch (err) {
      throw payApiFailed(0, 'NETWORK', String(err));
    }
    const cut = responseNodeOf(raw, responseKey(method));
    if (!cut) throw payApiFailed(502, 'MALFORMED_RESPONSE', raw.slice(0, 200));
    // Alipay signs every answer, refusals included; one without a valid signature is not trusted at all.
    if (!cut.sign || !(await rsaVerify((await loadKeys()).pub, cut.node, cut.sign))) {
      throw payUnverified('bad_signature', `${method} answer`);
    }
    return JSON.parse(cut.node) as Record<string, string>;
  }

  const refused = (r: Record<string, string>) =>
    payApiFailed(r.code === '40004' ? 400 : 502, r.sub_code ?? r.code ?? 'UNKNOWN', r.sub_msg ?? r.msg ?? '');

  const payBiz = (o: AlipayOrder, productCode: string): Biz => ({
    out_trade_no: o.outTradeNo,
    total_amount: fenToAlipayAmount(o.amountFen),
    subject: o.subject.slice(0, 256),
    product_code: productCode,
    time_expire: alipayTime(o.timeExpireMs),
    ...(o.quitUrl ? { quit_url: o.quitUrl } : {}),
  });

  async function redirectUrl(method: string, biz: Biz, o: AlipayOrder): Promise<string> {
    const extra: Record<string, string> = { notify_url: c.notifyUrl };
    if (o.returnUrl) extra.return_url = o.returnUrl;
    const params = await signed(method, biz, extra);
    return `${c.gateway}?${new URLSearchParams(params).toString()}`;
  }

  return {
    appId: c.appId,
    pagePayUrl: (o) => redirectUrl('alipay.trade.page.pay', payBiz(o, 'FAST_INSTANT_TRADE_PAY'), o),
    wapPayUrl: (o) => redirectUrl('alipay.trade.wap.pay', payBiz(o, 'QUICK_WAP_WAY'), o),

    async precreate(o) {
      const r = await call(
        'alipay.trade.precreate',
        {
          out_trade_no: o.outTradeNo,
          total_amount: fenToAlipayAmount(o.amountFen),
          subject: o.subject.slice(0, 256),
          time_expire: alipayTime(o.timeExpireMs),
        },
        { notify_url: c.notifyUrl },
      );
      if (r.code !== ALIPAY_OK || !r.qr_code) throw refused(r);
      return { qrCode: r.qr_code };
    },

    async query(outTradeNo) {
      const r = await call('alipay.trade.query', { out_trade_no: outTradeNo });
      if (r.code !== ALIPAY_OK) {
        if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { outTradeNo, tradeStatus: 'NOT_EXIST' };
        throw refused(r);
      }
      const status = r.trade_status as AlipayTradeStatus;
      if (!ALIPAY_TRADE_STATUSES.includes(status) || r.out_trade_no !== outTradeNo) {
        throw payApiFailed(502, 'MALFORMED_RESPONSE', 'alipay.trade.query');
      }
      return {
        outTradeNo,
        tradeNo: r.trade_no,
        tradeStatus: status,
        totalFen: alipayAmountToFen(r.total_amount) ?? undefined,
        paidAtMs: parseAlipayTime(r.send_pay_date),
      };
    },

    async close(outTradeNo) {
      const r = await call('alipay.trade.close', { out_trade_no: outTradeNo });
      if (r.code !== ALIPAY_OK && r.sub_code !== 'ACQ.TRADE_NOT_EXIST') throw refused(r);
    },

    async refund(q) {
      const r = await call('alipay.trade.refund', {
        out_trade_no: q.outTradeNo,
        out_request_no: q.outRequestNo,
        refund_amount: fenToAlipayAmount(q.refundFen),
        refund_reason: q.reason.slice(0, 256),
      });
      if (r.code !== ALIPAY_OK) throw refused(r);
      const total = alipayAmountToFen(r.refund_fee);
      if (total === null || r.out_trade_no !== q.outTradeNo) {
        throw payApiFailed(502, 'MALFORMED_RESPONSE', 'alipay.trade.refund');
      }
      return {
        outTradeNo: q.outTradeNo,
        tradeNo: r.trade_no ?? '',
        fundChange: r.fund_change === 'Y',
        refundedTotalFen: total,
      };
    },

    async parseNotification(formBody) {
      const params = Object.fromEntries(new URLSearchParams(formBody)) as Record<string, string>;
      if (!params.sign) throw payUnverified('missing_header', 'sign');
      if (params.sign_type !== 'RSA2') throw payUnverified('unsupported_algorithm', params.sign_type ?? '');
      if (!(await verifyAlipayNotification(params, (await loadKeys()).pub))) throw payUnverified('bad_signature');
      // Signed, but for someone else: another application or another merchant's account.
      if (params.app_id !== c.appId || params.seller_id !== c.sellerId) throw payUnverified('merchant_mismatch');
      const status = params.trade_status as AlipayTradeStatus;
      const totalFen = alipayAmountToFen(params.total_amount);
      if (!ALIPAY_TRADE_STATUSES.includes(status) || !params.out_trade_no || totalFen === null || !params.notify_id) {
        throw payUnverified('malformed_body');
      }
      return {
        notifyId: params.notify_id,
        appId: params.app_id,
        sellerId: params.seller_id,
        outTradeNo: params.out_trade_no,
        tradeNo: params.trade_no ?? '',
        tradeStatus: status,
        totalFen,
        paidAtMs: parseAlipayTime(params.gmt_payment),
        params,
      };
    },
  };
}

/** What the notify route answers Alipay: `success` only for a verified, handled notification (anything else retries). */
export const ALIPAY_NOTIFY_ACK = 'success';
export const ALIPAY_NOTIFY_NACK = 'failure';

/** An AppError for an Alipay notification whose amount or order does not match ours (verified but refused). */
export const alipayMismatch = (why: string) => new AppError('paySignatureInvalid', { status: 400, cause: why });
