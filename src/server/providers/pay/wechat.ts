// WeChat Pay API v3 Native (QR code) client: signed requests, verified responses and verified+decrypted payment and
// refund notifications, in platform public-key mode (Wechatpay-Serial = PUB_KEY_ID_...). Also the notification answers.
import { utf8 } from '../../../lib/bytes';
import { shanghaiRfc3339 } from '../../../lib/time';
import {
  type NativeOrder,
  payApiFailed,
  type PayNotification,
  type PayProvider,
  type PayQueryResult,
  type PayTransaction,
  payUnverified,
  type RefundNotification,
  type RefundRequest,
} from './types';
import { parseWechatTime, readRefund, readRefundNotice, readTransaction } from './wechat-responses';
import {
  AUTH_SCHEME,
  buildAuthorization,
  decryptResource,
  importPrivateKeyPem,
  importPublicKeyPem,
  jsapiSignMessage,
  RESOURCE_ALGORITHM,
  randomNonce,
  rsaSign,
  verifyCallbackSignature,
} from './wechat-crypto';

export { parseWechatTime };

export const WECHATPAY_BASE_URL = 'https://api.mch.weixin.qq.com';

/** Signatures older or newer than this are refused, as WeChat's own SDKs do. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

const SIGNTEST_PREFIX = 'WECHATPAY/SIGNTEST/';
const OUT_TRADE_NO = /^[0-9A-Za-z_\-*]{6,32}$/;
const OUT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/;

export interface WechatPayOptions {
  mchid: string;
  appid: string;
  /** Serial number of the merchant API certificate whose private key signs requests. */
  merchantSerialNo: string;
  /** PKCS#8 PEM (apiclient_key.pem). */
  merchantPrivateKeyPem: string;
  /** SPKI PEM of the WeChat Pay public key. */
  platformPublicKeyPem: string;
  /** The Wechatpay-Serial WeChat signs with (PUB_KEY_ID_...); anything else is refused. */
  platformPublicKeyId: string;
  /** The 32-character APIv3 key that encrypts notification resources. */
  apiV3Key: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  nonce?: () => string;
  /** Allow http:// notify URLs (local simulator only; WeChat requires https on the public internet). */
  allowHttpNotify?: boolean;
  /** Reported as PayProvider.name; 'simulator' when pointed at the local simulator. */
  providerName?: 'wechat' | 'simulator';
}

/** Format epoch ms as WeChat's RFC 3339 Beijing time, e.g. 2018-06-08T10:34:56+08:00 (sub-seconds dropped). */
export function toWechatTime(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError('invalid time');
  return shanghaiRfc3339(ms);
}

/** The answer to a notification that was processed (WeChat accepts 200 or 204 without a body). */
export function notifySuccess(): Response {
  return new Response(null, { status: 204 });
}

/** The answer to a notification that was not processed; WeChat retries on any 4xx/5xx. */
export function notifyFailure(message: string, status = 500): Response {
  if (!Number.isInteger(status) || status < 400 || status > 599) throw new RangeError('status must be 4xx or 5xx');
  return new Response(JSON.stringify({ code: 'FAIL', message }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (o: Json, key: string): string | undefined => (typeof o[key] === 'string' ? o[key] : undefined);

function utf8Length(text: string): number {
  return utf8(text).length;
}

function validateOrder(o: NativeOrder, allowHttpNotify: boolean): void {
  if (!OUT_TRADE_NO.test(o.outTradeNo)) throw new RangeError('outTradeNo must be 6-32 of [0-9A-Za-z_-*]');
  if (o.description.length === 0 || utf8Length(o.description) > 127) {
    throw new RangeError('description must be 1-127 UTF-8 bytes');
  }
  if (!Number.isSafeInteger(o.amountFen) || o.amountFen <= 0) {
    throw new RangeError('amountFen must be a positive integer');
  }
  if (!Number.isFinite(o.timeExpireMs)) throw new RangeError('timeExpireMs must be epoch ms');
  if (o.attach !== undefined && utf8Length(o.attach) > 128) {
    throw new RangeError('attach must be at most 128 UTF-8 bytes');
  }
  validateNotifyUrl(o.notifyUrl, allowHttpNotify);
}

function validateNotifyUrl(notifyUrl: string, allowHttpNotify: boolean): void {
  let url: URL;
  try {
    url = new URL(notifyUrl);
  } catch {
    throw new RangeError('notifyUrl is not a URL');
  }
  if (url.protocol !== 'https:' && !(allowHttpNotify && url.protocol === 'http:')) {
    throw new RangeError('notifyUrl must be https');
  }
  // WeChat calls the URL verbatim and forbids parameters on it.
  if (url.search || url.hash || notifyUrl.includes('?') || notifyUrl.length > 255) {
    throw new RangeError('notifyUrl must have no query or fragment and be at most 255 characters');
  }
}

function validateRefund(r: RefundRequest, allowHttpNotify: boolean): void {
  if (!OUT_TRADE_NO.test(r.outTradeNo)) throw new RangeError('invalid outTradeNo');
  if (!OUT_REFUND_NO.test(r.outRefundNo)) throw new RangeError('outRefundNo must be 1-64 of [0-9A-Za-z_-|*@]');
  if (!Number.isSafeInteger(r.totalFen) || r.totalFen <= 0) throw new RangeError('totalFen must be a positive integer');
  if (!Number.isSafeInteger(r.refundFen) || r.refundFen <= 0 || r.refundFen > r.totalFen) {
    throw new RangeError('refundFen must be a positive integer no greater than totalFen');
  }
  if ([...r.reason].length > 80) throw new RangeError('reason must be at most 80 characters');
  if (r.notifyUrl !== undefined) validateNotifyUrl(r.notifyUrl, allowHttpNotify);
}

/** Create the WeChat Pay v3 Native provider. Keys are imported on first use. */
export function createWechatPay(opts: WechatPayOptions): PayProvider {
  if (utf8(opts.apiV3Key).length !== 32) throw new Error('apiV3Key must be exactly 32 bytes');
  const baseUrl = (opts.baseUrl ?? WECHATPAY_BASE_URL).replace(/\/+$/, '');
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const now = opts.now ?? Date.now;
  const nonce = opts.nonce ?? (() => randomNonce());
  const allowHttpNotify = opts.allowHttpNotify ?? false;

  let keys: Promise<{ merchant: CryptoKey; platform: CryptoKey }> | undefined;
  const getKeys = () => {
    keys ??= Promise.all([
      importPrivateKeyPem(opts.merchantPrivateKeyPem),
      importPublicKeyPem(opts.platformPublicKeyPem),
    ]).then(
      ([merchant, platform]) => ({ merchant, platform }),
      (err: unknown) => {
        keys = undefined; // let a fixed configuration recover without a restart
        throw err;
      },
    );
    return keys;
  };

  /** Checks the four Wechatpay-* headers over a raw body, for both API responses and notifications. */
  async function verifyWechatSignature(headers: Headers, body: string, nowMs: number): Promise<void> {
    const serial = headers.get('Wechatpay-Serial');
    const signature = headers.get('Wechatpay-Signature');
    const timestamp = headers.get('Wechatpay-Timestamp');
    const signNonce = headers.get('Wechatpay-Nonce');
    if (!serial || !signature || !timestamp || !signNonce) {
      throw payUnverified('missing_header', 'missing Wechatpay-* signature headers');
    }
    const signatureType = headers.get('Wechatpay-Signature-Type');
    if (signatureType && signatureType !== AUTH_SCHEME) {
      throw payUnverified('unsupported_algorithm', `signature type ${signatureType}`);
    }
    if (serial !== opts.platformPublicKeyId) {
      throw payUnverified('serial_mismatch', `Wechatpay-Serial ${serial} is not the configured key`);
    }
    // WeChat occasionally sends deliberately wrong signatures to check that merchants verify them.
    if (signature.startsWith(SIGNTEST_PREFIX)) throw payUnverified('signature_probe');
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs - Number(timestamp) * 1000) >= MAX_CLOCK_SKEW_MS) {
      throw payUnverified('timestamp_skew', `Wechatpay-Timestamp ${timestamp} too far from now`);
    }
    const { platform } = await getKeys();
    const ok = await verifyCallbackSignature({
      timestamp,
      nonce: signNonce,
      body,
      signatureB64: signature,
      publicKey: platform,
    });
    if (!ok) throw payUnverified('bad_signature');
  }

  async function call(
    method: 'GET' | 'POST',
    pathWithQuery: string,
    payload?: Json,
  ): Promise<{ status: number; body: string }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const { merchant } = await getKeys();
    const authorization = await buildAuthorization({
      mchid: opts.mchid,
      serialNo: opts.merchantSerialNo,
      privateKey: merchant,
      method,
      pathWithQuery,
      body,
      timestampSec: Math.floor(now() / 1000),
      nonce: nonce(),
    });
    const headers: Record<string, string> = {
      Authorization: authorization,
      Accept: 'application/json',
      'User-Agent': 'proxy-ip-portal-wechatpay-v3',
    };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const res = await doFetch(`${baseUrl}${pathWithQuery}`, {
      method,
      headers,
      body: payload === undefined ? null : body,
    });
    const text = await res.text();
    if (res.status >= 200 && res.status < 300) {
      // An unsigned success is to be treated as forged or tampered with.
      await verifyWechatSignature(res.headers, text, now());
      return { status: res.status, body: text };
    }
    // Errors are signed too when WeChat accepted our signature; a 401 for a bad request signature may not be.
    if (res.headers.has('Wechatpay-Signature')) await verifyWechatSignature(res.headers, text, now());
    let code = `HTTP_${res.status}`;
    let message = text.slice(0, 500);
    try {
      const err: unknown = JSON.parse(text);
      if (isObject(err)) {
        code = optString(err, 'code') ?? code;
        message = optString(err, 'message') ?? message;
      }
    } catch {
      // not JSON: keep the raw text
    }
    throw payApiFailed(res.status, code, message);
  }

  function parseJson(body: string, status: number): unknown {
    try {
      return JSON.parse(body);
    } catch {
      throw payApiFailed(status, 'MALFORMED_RESPONSE', 'response body is not JSON');
    }
  }

  function checkMerchant(t: { mchid: string; appid: string }): void {
    if (t.mchid !== opts.mchid || t.appid !== opts.appid) {
      throw payUnverified('merchant_mismatch', `transaction for ${t.mchid}/${t.appid}`);
    }
  }

  /**
   * Verify a notification's signature, then read its envelope and decrypt its resource (shared by payment and refund
   * notifications). Throws payUnverified when anything must not be trusted.
   */
  async function openNotification(headers: Headers, body: string, nowMs: number) {
    await verifyWechatSignature(headers, body, nowMs);
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      throw payUnverified('malformed_body', 'notification body is not JSON');
    }
    if (!isObject(event) || !isObject(event.resource)) {
      throw payUnverified('malformed_body', 'notification without resource');
    }
    const id = optString(event, 'id');
    const eventType = optString(event, 'event_type');
    if (!id || !eventType) throw payUnverified('malformed_body', 'notification without id/event_type');
    const resource = event.resource;
    if (resource.algorithm !== RESOURCE_ALGORITHM) {
      throw payUnverified('unsupported_algorithm', `resource algorithm ${String(resource.algorithm)}`);
    }
    const ciphertext = optString(resource, 'ciphertext');
    const resourceNonce = optString(resource, 'nonce');
    const associatedData = optString(resource, 'associated_data') ?? '';
    if (!ciphertext || !resourceNonce) throw payUnverified('malformed_body', 'resource incomplete');

    let plaintext: string;
    try {
      plaintext = await decryptResource({
        ciphertextB64: ciphertext,
        nonce: resourceNonce,
        associatedData,
        apiV3Key: opts.apiV3Key,
      });
    } catch {
      throw payUnverified('decrypt_failed');
    }
    let decoded: unknown;
    try {
      decoded = JSON.parse(plaintext);
    } catch {
      throw payUnverified('malformed_resource', 'resource is not JSON');
    }
    return { id, eventType, decoded, event };
  }

  /**
   * Place an order of one kind (native: a QR code; h5: a phone browser's payment page; jsapi: WeChat's own browser) and
   * return the answer's one field (code_url, h5_url or prepay_id). The payload is the same for both but for the kind's own fields (`extra`).
   */
  async function placeOrder(
    kind: 'native' | 'h5' | 'jsapi',
    o: NativeOrder,
    extra: Json,
    field: string,
  ): Promise<string> {
    validateOrder(o, allowHttpNotify);
    const payload: Json = {
      appid: opts.appid,
      mchid: opts.mchid,
      description: o.description,
      out_trade_no: o.outTradeNo,
      time_expire: toWechatTime(o.timeExpireMs),
      ...(o.attach !== undefined ? { attach: o.attach } : {}),
      notify_url: o.notifyUrl,
      amount: { total: o.amountFen, currency: 'CNY' },
      ...extra,
    };
    const res = await call('POST', `/v3/pay/transactions/${kind}`, payload);
    const json = parseJson(res.body, res.status);
    const url = isObject(json) ? optString(json, field) : undefined;
    if (!url) throw payApiFailed(res.status, 'MALFORMED_RESPONSE', `no ${field} in response`);
    return url;
  }

  return {
    name: opts.providerName ?? 'wechat',

    async createNativeOrder(o) {
      return { codeUrl: await placeOrder('native', o, {}, 'code_url') };
    },

    async createH5Order(o) {
      const scene = { scene_info: { payer_client_ip: o.payerClientIp, h5_info: { type: 'Wap' } } };
      return { h5Url: await placeOrder('h5', o, scene, 'h5_url') };
    },

    async createJsapiOrder(o) {
      if (!/^[0-9A-Za-z_-]{1,128}$/.test(o.openid)) throw new RangeError('invalid openid');
      return { prepayId: await placeOrder('jsapi', o, { payer: { openid: o.openid } }, 'prepay_id') };
    },

    async jsapiBridge(prepayId) {
      if (!/^[0-9A-Za-z_-]{1,64}$/.test(prepayId)) throw new RangeError('invalid prepayId');
      const timeStamp = String(Math.floor(now() / 1000));
      const nonceStr = nonce();
      const pkg = `prepay_id=${prepayId}`;
      const { merchant } = await getKeys();
      const paySign = await rsaSign(merchant, jsapiSignMessage(opts.appid, timeStamp, nonceStr, pkg));
      return { appId: opts.appid, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
    },

    async queryOrder(outTradeNo) {
      if (!OUT_TRADE_NO.test(outTradeNo)) throw new RangeError('invalid outTradeNo');
      const path =
        `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}` +
        `?mchid=${encodeURIComponent(opts.mchid)}`;
      const res = await call('GET', path);
      const t = readTransaction(parseJson(res.body, res.status));
      if (!t) throw payApiFailed(res.status, 'MALFORMED_RESPONSE', 'unexpected transaction shape');
      checkMerchant(t);
      if (t.outTradeNo !== outTradeNo) {
        throw payUnverified('merchant_mismatch', `asked for ${outTradeNo}, got ${t.outTradeNo}`);
      }
      return t satisfies PayQueryResult;
    },

    async closeOrder(outTradeNo) {
      if (!OUT_TRADE_NO.test(outTradeNo)) throw new RangeError('invalid outTradeNo');
      await call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, {
        mchid: opts.mchid,
      });
    },

    async refund(r) {
      validateRefund(r, allowHttpNotify);
      const payload: Json = {
        out_trade_no: r.outTradeNo,
        out_refund_no: r.outRefundNo,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.notifyUrl ? { notify_url: r.notifyUrl } : {}),
        amount: { refund: r.refundFen, total: r.totalFen, currency: 'CNY' },
      };
      const res = await call('POST', '/v3/refund/domestic/refunds', payload);
      const result = readRefund(parseJson(res.body, res.status));
      if (!result) throw payApiFailed(res.status, 'MALFORMED_RESPONSE', 'unexpected refund shape');
      if (result.outRefundNo !== r.outRefundNo || result.outTradeNo !== r.outTradeNo) {
        throw payUnverified('merchant_mismatch', `asked for ${r.outRefundNo}, got ${result.outRefundNo}`);
      }
      if (result.refundFen !== r.refundFen || result.totalFen !== r.totalFen) {
        throw payApiFailed(res.status, 'MALFORMED_RESPONSE', 'refund amount differs from the request');
      }
      return result;
    },

    async parseNotification(headers, body, nowMs): Promise<PayNotification> {
      const { id, eventType, decoded, event } = await openNotification(headers, body, nowMs);
      const t = readTransaction(decoded);
      if (!t?.transactionId || t.amountTotalFen === undefined || !t.currency) {
        throw payUnverified('malformed_resource', 'resource is not a complete transaction');
      }
      checkMerchant(t);
      const transaction: PayTransaction = {
        ...t,
        transactionId: t.transactionId,
        amountTotalFen: t.amountTotalFen,
        currency: t.currency,
      };
      const notification: PayNotification = { id, eventType, transaction };
      const createTime = optString(event, 'create_time');
      if (createTime) {
        try {
          notification.createTimeMs = parseWechatTime(createTime);
        } catch {
          // create_time is informational; the signed timestamp already bounded the age
        }
      }
      const summary = optString(event, 'summary');
      if (summary !== undefined) notification.summary = summary;
      return notification;
    },

    async parseRefundNotification(headers, body, nowMs): Promise<RefundNotification> {
      const { id, eventType, decoded } = await openNotification(headers, body, nowMs);
      if (!eventType.startsWith('REFUND.')) throw payUnverified('malformed_body', `not a refund event: ${eventType}`);
      const refund = readRefundNotice(decoded);
      if (!refund) throw payUnverified('malformed_resource', 'resource is not a complete refund');
      // A refund notification carries no appid: the merchant id must be ours.
      if (refund.mchid !== opts.mchid) throw payUnverified('merchant_mismatch', `refund for ${refund.mchid}`);
      return { id, eventType, refund };
    },
  };
}
