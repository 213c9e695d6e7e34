// WeChat Pay v3 Native: fixed vectors computed independently with node:crypto, notification verification, and
// the HTTP client against a fake WeChat that verifies our signatures and signs its answers.
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, utf8 } from '../../../src/lib/bytes';
import {
  buildSignedNotification,
  errorBody,
  refundJson,
  signResponse,
  transactionJson,
  verifyMerchantRequest,
} from '../../../src/server/providers/pay/simulator-protocol';
import { AppError } from '../../../src/lib/errors';
import type { PayVerificationReason } from '../../../src/server/providers/pay/types';
import type { WechatPayOptions } from '../../../src/server/providers/pay/wechat';
import {
  createWechatPay,
  notifyFailure,
  notifySuccess,
  parseWechatTime,
  toWechatTime,
} from '../../../src/server/providers/pay/wechat';
import {
  buildAuthorization,
  decryptResource,
  encryptResource,
  importPrivateKeyPem,
  importPublicKeyPem,
  parseAuthorization,
  signCallback,
  verifyCallbackSignature,
} from '../../../src/server/providers/pay/wechat-crypto';
import {
  TEST_MERCHANT_PRIVATE_PEM,
  TEST_MERCHANT_PUBLIC_PEM,
  TEST_PLATFORM_PRIVATE_PEM,
  TEST_PLATFORM_PUBLIC_PEM,
} from '../../fixtures/wechatpay/keys';

const MCHID = '1230000109';
const APPID = 'wxd678efh567hg6787';
const MERCHANT_SERIAL = '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C';
const PUB_KEY_ID = 'PUB_KEY_ID_0112300001092024062400000000000001';
const API_V3_KEY = 'TestOnlyApiV3Key0123456789abcdef';

// --- Vectors computed once with node:crypto (createSign('RSA-SHA256'), createCipheriv('aes-256-gcm')) ---------

const POST_BODY =
  '{"appid":"wxd678efh567hg6787","mchid":"1230000109","description":"Image形象店-深圳腾大-QQ公仔","out_trade_no":"1217752501201407033233368018","time_expire":"2018-06-08T10:34:56+08:00","notify_url":"https://www.weixin.qq.com/wxpay/pay.php","amount":{"total":100,"currency":"CNY"}}';
const AUTH_POST_SIG =
  'sV/nYU6lQe+w4UYiQhJiR9fz/IJnc2XR/cag8aOLFF14Am8zsNUL3iaHpiKofckPwG5ri8gnfjRCi5MWpZfmxcG0LnCKH150SNt+vF9LEt+UvyMEDODh89SFIBEqSmxCpr7fmDloAUNs9IBQtLaYntBgQ2EKG3GJMdOEANOmUT38ZSbdBJT4D0is1Fm0+uS44eDv/vniCzdP5eMIsBw0jVcUp9GTZ12OeNR6mS8diK3GHOP4p243/ah6bwkJIZOIyS/KCWfTY7P8QS7tgm+DSfeA5bHjBMLs7teZNLvqk0L04O26uY4GGjG2qT628vZo52XiTPWrY0wkq3BoxLDRkQ==';
const AUTH_GET_SIG =
  'egqnxOF6I+lu79yX3eu4gH2ZBUVQbL2u1iOGAFGkkLyDqC3yjJP5ZqRMPzFkuoUonJTeurTTHXU0c0mg9LCvdu/ZwUMNtKS8ExRgqWdVtTFsh9SU3SOyXzu2c+Nsx1zvRP8X6kdFAyT6GqgtpknFP/bfJPQ5BGfehox1lpD9cfEA2uqsN8WwT+ex2fBFgE6MtdQAW1Rtmsz+UZLuZp+RjSqQjk6jmdVnTMANn3PM7/u+aYvtU0J63hHfacUCcDuIjulJ4749H1t8qrDih5D4Q0j1ls9QPt4g95FMlejsfd7CkgzSKOIeAnywUHObHGs/VgEqK0M2xI2jlxtaz6oXng==';

const RESOURCE_PLAIN =
  '{"mchid":"1230000109","appid":"wxd678efh567hg6787","out_trade_no":"1217752501201407033233368018","transaction_id":"4200000000202406240000000001","trade_type":"NATIVE","trade_state":"SUCCESS","trade_state_desc":"支付成功","bank_type":"OTHERS","attach":"套餐:月付","success_time":"2024-06-24T11:26:48+08:00","payer":{"openid":"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"},"amount":{"total":990,"payer_total":990,"currency":"CNY","payer_currency":"CNY"}}';
const RESOURCE_NONCE = 'fixedNonce12';
const RESOURCE_CIPHERTEXT =
  'm3CWmT7dr8NeD4ZeZVirF1zPRwrvOIbEjt5FR/cnZY58xmUblvGePk/geO4LOntbHGDIXMqzoRXGW3rujoK0KuqN+y/wMf8531DNwd5tTI7SsXAnmmTHy6WrEET6676v+k8wX33HSSDeMnj4xNePJHfnWSnmMtywaEw0JhwaDi589X05qHsXaccm9HmYtIh6oNa7jaD7xEMeE7jvYTiLJX88wTr3A7mMDmUsjxgHkeUIFUrFzPnxQuOwFcNNZymHcE7tswkIMOzMAXi91QiMK1txlErsb/7HaMWKj1nf5PiC069nrXaIIagHVtHdbAp+tuygYIHauVV2OqKKXSeOqA4ambx0Qpk1so9VEn2/aKlFFBceJ1K+N41QpTSnmVN11bEiL/BXg/NSwd2lOq97B+NizjWP4chNXFxkoLBThlRfBrzBD/MEFGY0ee7eDSaq6gj3qsz572CufyuVSjSqSGmEi3xlUOMll5QxBnyBbGQIeCJ9bB35AGXDjeEdtZCe2t/Nqyz8yfGRAcmwJ95X/QIv2rHm2N+jzt0k10r+Qq2bLdQoVm+C5kVdENA0bjS0m6mTTILDIC0APdjRtFX3V732xSfll4gFb5PDtzw=';

// A whole notification: body with the ciphertext above, signed with the test platform key by node:crypto.
const NOTIFY_BODY = JSON.stringify({
  id: 'EV-2018022511223320873',
  create_time: '2024-06-24T11:26:49+08:00',
  resource_type: 'encrypt-resource',
  event_type: 'TRANSACTION.SUCCESS',
  summary: '支付成功',
  resource: {
    original_type: 'transaction',
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: RESOURCE_CIPHERTEXT,
    associated_data: 'transaction',
    nonce: RESOURCE_NONCE,
  },
});
const NOTIFY_TS = '1719199610'; // 2024-06-24T11:26:50+08:00
const NOTIFY_NONCE = 'F0E1D2C3B4A5968778695A4B3C2D1E0F';
const NOTIFY_SIG =
  'rPClSo4ByLSACVXfyI0eTL1mTMbgIfW71uzjs2u9H9cE47L57JuoC0cPpSblM1DF6BCCHsNlSmd6wXv8Q75HbhFA7QXVSf3xQ3SHC2cKdSpXvFRott4VqxkTVl6JTPCza+0Et3pYHWPMdu3wVALIHDbCKFtNbvakLUjToWbNz7VGbw9I6OdNd0zC9mJGVK5ATv0hn6pjXTwYGWPvFKZdoK0TjYkTxasnDfxQq3xN9tw5ljSzm3BpEGgafobT9XKoAGYHZ7CRCjou/fociOWIqTUd7fPgafcxQHaS+skTAXYT/8ws9dTjgtVwqG016nhHniMl4aU29OeYk67jJ7JeaQ==';
const NOTIFY_NOW_MS = Number(NOTIFY_TS) * 1000 + 2_000;

// ------------------------------------------------------------------------------------------------------------

const merchantKey = await importPrivateKeyPem(TEST_MERCHANT_PRIVATE_PEM);
const platformKey = await importPrivateKeyPem(TEST_PLATFORM_PRIVATE_PEM);
const merchantPublic = await importPublicKeyPem(TEST_MERCHANT_PUBLIC_PEM);
const platformPublic = await importPublicKeyPem(TEST_PLATFORM_PUBLIC_PEM);

/** Imports the merchant public key straight from the PEM, bypassing the code under test. */
async function independentMerchantVerifier(): Promise<(message: string, signatureB64: string) => Promise<boolean>> {
  const der = fromBase64(TEST_MERCHANT_PUBLIC_PEM.replace(/-----[A-Z ]+-----/g, ''));
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const key = await crypto.subtle.importKey('spki', der, alg, false, ['verify']);
  return (message, sig) => crypto.subtle.verify(alg, key, fromBase64(sig), utf8(message));
}

function options(overrides: Partial<WechatPayOptions> = {}): WechatPayOptions {
  return {
    mchid: MCHID,
    appid: APPID,
    merchantSerialNo: MERCHANT_SERIAL,
    merchantPrivateKeyPem: TEST_MERCHANT_PRIVATE_PEM,
    platformPublicKeyPem: TEST_PLATFORM_PUBLIC_PEM,
    platformPublicKeyId: PUB_KEY_ID,
    apiV3Key: API_V3_KEY,
    ...overrides,
  };
}

function notifyHeaders(overrides: Record<string, string> = {}): Headers {
  return new Headers({
    'Wechatpay-Serial': PUB_KEY_ID,
    'Wechatpay-Signature': NOTIFY_SIG,
    'Wechatpay-Timestamp': NOTIFY_TS,
    'Wechatpay-Nonce': NOTIFY_NONCE,
    'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    'Content-Type': 'application/json',
    ...overrides,
  });
}

async function reason(p: Promise<unknown>): Promise<PayVerificationReason> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError && err.code === 'paySignatureInvalid') return err.reason as PayVerificationReason;
    throw err;
  }
  throw new Error('expected a failed verification (paySignatureInvalid)');
}

describe('wechatpay crypto vectors', () => {
  it('signs the Authorization of a POST exactly like node:crypto', async () => {
    const header = await buildAuthorization({
      mchid: MCHID,
      serialNo: MERCHANT_SERIAL,
      privateKey: merchantKey,
      method: 'POST',
      pathWithQuery: '/v3/pay/transactions/native',
      body: POST_BODY,
      timestampSec: 1554208460,
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
    });
    expect(header).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="${MCHID}",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",` +
        `signature="${AUTH_POST_SIG}",timestamp="1554208460",serial_no="${MERCHANT_SERIAL}"`,
    );
    expect(parseAuthorization(header)).toEqual({
      mchid: MCHID,
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
      signature: AUTH_POST_SIG,
      timestampSec: 1554208460,
      serialNo: MERCHANT_SERIAL,
    });
  });

  it('signs a GET with a query string and an empty body like node:crypto', async () => {
    const header = await buildAuthorization({
      mchid: MCHID,
      serialNo: MERCHANT_SERIAL,
      privateKey: merchantKey,
      method: 'GET',
      pathWithQuery: '/v3/pay/transactions/out-trade-no/1217752501201407033233368018?mchid=1230000109',
      body: '',
      timestampSec: 1554208461,
      nonce: 'C5AC7061FCCAB6BF3E254DCF98995B8C',
    });
    expect(parseAuthorization(header)?.signature).toBe(AUTH_GET_SIG);
  });

  it('refuses Authorization fields that would break the header', async () => {
    const base = {
      mchid: MCHID,
      serialNo: MERCHANT_SERIAL,
      privateKey: merchantKey,
      method: 'GET',
      pathWithQuery: '/v3/x',
      body: '',
      timestampSec: 1,
    };
    await expect(buildAuthorization({ ...base, nonce: 'a",signature="x' })).rejects.toThrow();
    expect(parseAuthorization('Bearer abc')).toBeNull();
    expect(parseAuthorization('WECHATPAY2-SHA256-RSA2048 mchid="1",mchid="2"')).toBeNull();
  });

  it('decrypts the fixed AEAD_AES_256_GCM resource and re-encrypts it identically', async () => {
    const plain = await decryptResource({
      ciphertextB64: RESOURCE_CIPHERTEXT,
      nonce: RESOURCE_NONCE,
      associatedData: 'transaction',
      apiV3Key: API_V3_KEY,
    });
    expect(plain).toBe(RESOURCE_PLAIN);
    expect(
      await encryptResource({
        plaintext: RESOURCE_PLAIN,
        nonce: RESOURCE_NONCE,
        associatedData: 'transaction',
        apiV3Key: API_V3_KEY,
      }),
    ).toBe(RESOURCE_CIPHERTEXT);
  });

  it('fails decryption on a wrong key, wrong associated data or a flipped tag bit', async () => {
    const good = {
      ciphertextB64: RESOURCE_CIPHERTEXT,
      nonce: RESOURCE_NONCE,
      associatedData: 'transaction',
      apiV3Key: API_V3_KEY,
    };
    await expect(decryptResource({ ...good, apiV3Key: 'X'.repeat(32) })).rejects.toThrow();
    await expect(decryptResource({ ...good, associatedData: 'certificate' })).rejects.toThrow();
    const bytes = fromBase64(RESOURCE_CIPHERTEXT);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    await expect(decryptResource({ ...good, ciphertextB64: toBase64(bytes) })).rejects.toThrow();
    await expect(decryptResource({ ...good, apiV3Key: 'short' })).rejects.toThrow(/32 bytes/);
  });

  it('verifies the node-signed callback signature and rejects a forged one', async () => {
    const v = { timestamp: NOTIFY_TS, nonce: NOTIFY_NONCE, body: NOTIFY_BODY, signatureB64: NOTIFY_SIG };
    expect(await verifyCallbackSignature({ ...v, publicKey: platformPublic })).toBe(true);
    expect(await verifyCallbackSignature({ ...v, publicKey: merchantPublic })).toBe(false);
    expect(await verifyCallbackSignature({ ...v, signatureB64: 'not base64!', publicKey: platformPublic })).toBe(false);
    expect(
      await signCallback({ timestamp: NOTIFY_TS, nonce: NOTIFY_NONCE, body: NOTIFY_BODY, privateKey: platformKey }),
    ).toBe(NOTIFY_SIG);
  });

  it('rejects PKCS#1 and certificate PEMs with a clear error', async () => {
    await expect(
      importPrivateKeyPem('-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----'),
    ).rejects.toThrow(/PRIVATE KEY/);
    await expect(importPublicKeyPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).rejects.toThrow(
      /PUBLIC KEY/,
    );
  });

  it('formats and parses WeChat RFC 3339 Beijing times', () => {
    expect(toWechatTime(Date.UTC(2018, 5, 8, 2, 34, 56, 789))).toBe('2018-06-08T10:34:56+08:00');
    expect(toWechatTime(Date.UTC(2024, 11, 31, 16, 0, 0))).toBe('2025-01-01T00:00:00+08:00');
    expect(parseWechatTime('2018-06-08T10:34:56+08:00')).toBe(Date.UTC(2018, 5, 8, 2, 34, 56));
    expect(() => parseWechatTime('2018-06-08 10:34:56')).toThrow();
  });
});

describe('wechatpay parseNotification', () => {
  const pay = createWechatPay(options());

  it('accepts the node-signed notification and returns the decrypted transaction', async () => {
    const n = await pay.parseNotification(notifyHeaders(), NOTIFY_BODY, NOTIFY_NOW_MS);
    expect(n).toEqual({
      id: 'EV-2018022511223320873',
      eventType: 'TRANSACTION.SUCCESS',
      createTimeMs: Date.UTC(2024, 5, 24, 3, 26, 49),
      summary: '支付成功',
      transaction: {
        outTradeNo: '1217752501201407033233368018',
        transactionId: '4200000000202406240000000001',
        tradeState: 'SUCCESS',
        tradeStateDesc: '支付成功',
        amountTotalFen: 990,
        payerTotalFen: 990,
        currency: 'CNY',
        successTimeMs: Date.UTC(2024, 5, 24, 3, 26, 48),
        mchid: MCHID,
        appid: APPID,
        attach: '套餐:月付',
      },
    });
  });

  it('rejects a tampered body', async () => {
    const tampered = NOTIFY_BODY.replace('"summary":"支付成功"', '"summary":"支付成功 "');
    expect(await reason(pay.parseNotification(notifyHeaders(), tampered, NOTIFY_NOW_MS))).toBe('bad_signature');
  });

  it('rejects a signature over a different nonce', async () => {
    const headers = notifyHeaders({ 'Wechatpay-Nonce': 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(await reason(pay.parseNotification(headers, NOTIFY_BODY, NOTIFY_NOW_MS))).toBe('bad_signature');
  });

  it('rejects a wrong Wechatpay-Serial', async () => {
    const headers = notifyHeaders({ 'Wechatpay-Serial': '5157F09EFDC096DE15EBE81A47057A7232F1B8E1' });
    expect(await reason(pay.parseNotification(headers, NOTIFY_BODY, NOTIFY_NOW_MS))).toBe('serial_mismatch');
  });

  it('rejects a WECHATPAY/SIGNTEST/ probe signature', async () => {
    const headers = notifyHeaders({ 'Wechatpay-Signature': `WECHATPAY/SIGNTEST/${NOTIFY_SIG}` });
    expect(await reason(pay.parseNotification(headers, NOTIFY_BODY, NOTIFY_NOW_MS))).toBe('signature_probe');
  });

  it('rejects timestamps 5 minutes off in either direction, accepts just inside', async () => {
    const ts = Number(NOTIFY_TS) * 1000;
    for (const now of [ts + 5 * 60_000, ts - 5 * 60_000, ts + 3_600_000]) {
      expect(await reason(pay.parseNotification(notifyHeaders(), NOTIFY_BODY, now))).toBe('timestamp_skew');
    }
    await expect(pay.parseNotification(notifyHeaders(), NOTIFY_BODY, ts + 5 * 60_000 - 1)).resolves.toBeDefined();
    await expect(pay.parseNotification(notifyHeaders(), NOTIFY_BODY, ts - 5 * 60_000 + 1)).resolves.toBeDefined();
  });

  it('rejects missing signature headers', async () => {
    const headers = notifyHeaders();
    headers.delete('Wechatpay-Signature');
    expect(await reason(pay.parseNotification(headers, NOTIFY_BODY, NOTIFY_NOW_MS))).toBe('missing_header');
  });

  /** Re-signs a modified body with the test platform key so only the resource check can fail. */
  async function signed(body: string): Promise<Headers> {
    const signature = await signCallback({ timestamp: NOTIFY_TS, nonce: NOTIFY_NONCE, body, privateKey: platformKey });
    return notifyHeaders({ 'Wechatpay-Signature': signature });
  }

  it('rejects a correctly signed notification whose ciphertext does not decrypt', async () => {
    const bad = NOTIFY_BODY.replace(RESOURCE_CIPHERTEXT, `A${RESOURCE_CIPHERTEXT.slice(1)}`);
    expect(await reason(pay.parseNotification(await signed(bad), bad, NOTIFY_NOW_MS))).toBe('decrypt_failed');
    const other = createWechatPay(options({ apiV3Key: 'Z'.repeat(32) }));
    expect(await reason(other.parseNotification(notifyHeaders(), NOTIFY_BODY, NOTIFY_NOW_MS))).toBe('decrypt_failed');
  });

  it('rejects a resource algorithm other than AEAD_AES_256_GCM', async () => {
    const bad = NOTIFY_BODY.replace('AEAD_AES_256_GCM', 'AEAD_AES_128_GCM');
    expect(await reason(pay.parseNotification(await signed(bad), bad, NOTIFY_NOW_MS))).toBe('unsupported_algorithm');
  });

  it('rejects a notification for another merchant', async () => {
    const other = createWechatPay(options({ mchid: '1900000001' }));
    expect(await reason(other.parseNotification(notifyHeaders(), NOTIFY_BODY, NOTIFY_NOW_MS))).toBe(
      'merchant_mismatch',
    );
  });

  it('accepts what the simulator builds, and rejects its probe', async () => {
    const nowMs = Date.UTC(2025, 0, 2, 3, 4, 5);
    const input = {
      transaction: {
        mchid: MCHID,
        appid: APPID,
        outTradeNo: 'PX20250102000001',
        transactionId: '4200000000202501020000000042',
        tradeState: 'SUCCESS' as const,
        amountTotalFen: 1_500,
        successTimeMs: nowMs - 1_000,
        attach: 'order:42',
      },
      platformPrivateKey: platformKey,
      platformPublicKeyId: PUB_KEY_ID,
      apiV3Key: API_V3_KEY,
      nowMs,
      nonce: 'SIMNONCE0123456789ABCDEF01234567',
    };
    const { headers, body } = await buildSignedNotification(input);
    const n = await pay.parseNotification(new Headers(headers), body, nowMs + 10_000);
    expect(n.eventType).toBe('TRANSACTION.SUCCESS');
    expect(n.id).toBe('EV-SIM-4200000000202501020000000042');
    expect(n.transaction).toMatchObject({
      outTradeNo: 'PX20250102000001',
      transactionId: '4200000000202501020000000042',
      tradeState: 'SUCCESS',
      amountTotalFen: 1_500,
      currency: 'CNY',
      successTimeMs: nowMs - 1_000,
      attach: 'order:42',
    });
    const probe = await buildSignedNotification({ ...input, probe: true });
    expect(await reason(pay.parseNotification(new Headers(probe.headers), probe.body, nowMs))).toBe('signature_probe');
  });
});

describe('wechatpay notification answers', () => {
  it('answers success with 204 and failure with a FAIL JSON body', async () => {
    expect(notifySuccess().status).toBe(204);
    const fail = notifyFailure('验签失败', 401);
    expect(fail.status).toBe(401);
    expect(await fail.json()).toEqual({ code: 'FAIL', message: '验签失败' });
    expect(notifyFailure('x').status).toBe(500);
    expect(() => notifyFailure('x', 200)).toThrow();
  });
});

describe('wechatpay HTTP client', () => {
  const NOW_MS = Date.UTC(2024, 5, 24, 3, 26, 50, 123); // 11:26:50.123 Beijing
  const REQUEST_NONCE = '0123456789ABCDEF0123456789ABCDEF';

  interface Seen {
    url: string;
    method: string;
    headers: Headers;
    body: string;
  }
  type Responder = (req: Seen) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

  /** A fake WeChat: checks the request signature the way WeChat does, then answers via `respond`. */
  function fakeWechat(respond: Responder) {
    const seen: Seen[] = [];
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const s: Seen = { url: req.url, method: req.method, headers: req.headers, body: await req.text() };
      seen.push(s);
      const u = new URL(s.url);
      const check = await verifyMerchantRequest(
        s.headers.get('Authorization'),
        s.method,
        u.pathname + u.search,
        s.body,
        merchantPublic,
        { mchid: MCHID, serialNo: MERCHANT_SERIAL, nowMs: NOW_MS },
      );
      if (!check.ok) {
        return new Response(errorBody('SIGN_ERROR', check.reason), { status: 401 });
      }
      const r = await respond(s);
      return new Response(r.status === 204 ? null : r.body, { status: r.status, headers: r.headers });
    }) as typeof fetch;
    return { seen, fetchImpl };
  }

  const sign = (status: number, body: string, nonce = 'RESPNONCE0123456789ABCDEF0123456') =>
    signResponse({
      status,
      body,
      platformPrivateKey: platformKey,
      platformPublicKeyId: PUB_KEY_ID,
      nowMs: NOW_MS,
      nonce,
    });

  function client(fetchImpl: typeof fetch, overrides: Partial<WechatPayOptions> = {}) {
    return createWechatPay(options({ fetch: fetchImpl, now: () => NOW_MS, nonce: () => REQUEST_NONCE, ...overrides }));
  }

  const order = {
    outTradeNo: 'PX20240624000001',
    description: '代理IP-月付套餐',
    amountFen: 990,
    timeExpireMs: NOW_MS + 30 * 60_000,
    notifyUrl: 'https://portal.example.cn/api/pay/wechat/notify',
    attach: 'order:1',
  };

  /** Verifies the Authorization header against the merchant public key imported independently of the code under test. */
  async function authorizationVerifies(s: Seen): Promise<boolean> {
    const auth = parseAuthorization(s.headers.get('Authorization') ?? '');
    if (!auth) return false;
    const u = new URL(s.url);
    const message = `${s.method}\n${u.pathname}${u.search}\n${auth.timestampSec}\n${auth.nonce}\n${s.body}\n`;
    return (await independentMerchantVerifier())(message, auth.signature);
  }

  it('creates a Native order with a signed request and returns code_url', async () => {
    const { seen, fetchImpl } = fakeWechat(() => sign(200, '{"code_url":"weixin://wxpay/bizpayurl?pr=p4lpSuKzz"}'));
    const pay = client(fetchImpl);
    expect(pay.name).toBe('wechat');
    expect(await pay.createNativeOrder(order)).toEqual({ codeUrl: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz' });

    expect(seen).toHaveLength(1);
    const s = seen[0] as Seen;
    expect(s.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/native');
    expect(s.method).toBe('POST');
    expect(s.headers.get('Content-Type')).toBe('application/json');
    expect(s.headers.get('Accept')).toBe('application/json');
    expect(JSON.parse(s.body)).toEqual({
      appid: APPID,
      mchid: MCHID,
      description: '代理IP-月付套餐',
      out_trade_no: 'PX20240624000001',
      time_expire: '2024-06-24T11:56:50+08:00',
      attach: 'order:1',
      notify_url: 'https://portal.example.cn/api/pay/wechat/notify',
      amount: { total: 990, currency: 'CNY' },
    });
    const auth = parseAuthorization(s.headers.get('Authorization') ?? '');
    expect(auth).toMatchObject({
      mchid: MCHID,
      serialNo: MERCHANT_SERIAL,
      nonce: REQUEST_NONCE,
      timestampSec: 1719199610,
    });
    expect(await authorizationVerifies(s)).toBe(true);
  });

  it('queries an order by out_trade_no with mchid in the signed query string', async () => {
    const tx = {
      mchid: MCHID,
      appid: APPID,
      outTradeNo: order.outTradeNo,
      transactionId: '4200000000202406240000000001',
      tradeState: 'SUCCESS' as const,
      amountTotalFen: 990,
      successTimeMs: Date.UTC(2024, 5, 24, 3, 26, 48),
      attach: 'order:1',
    };
    const { seen, fetchImpl } = fakeWechat(() => sign(200, JSON.stringify(transactionJson(tx))));
    const result = await client(fetchImpl).queryOrder(order.outTradeNo);
    const s = seen[0] as Seen;
    expect(s.url).toBe(
      `https://api.mch.weixin.qq.com/v3/pay/transactions/out-trade-no/${order.outTradeNo}?mchid=${MCHID}`,
    );
    expect(s.method).toBe('GET');
    expect(s.body).toBe('');
    expect(await authorizationVerifies(s)).toBe(true);
    expect(result).toMatchObject({
      outTradeNo: order.outTradeNo,
      mchid: MCHID,
      appid: APPID,
      tradeState: 'SUCCESS',
      transactionId: '4200000000202406240000000001',
      amountTotalFen: 990,
      currency: 'CNY',
      successTimeMs: Date.UTC(2024, 5, 24, 3, 26, 48),
      attach: 'order:1',
    });
  });

  it('reports an unpaid order without a transaction id', async () => {
    const tx = {
      mchid: MCHID,
      appid: APPID,
      outTradeNo: order.outTradeNo,
      tradeState: 'NOTPAY' as const,
      amountTotalFen: 990,
    };
    const { fetchImpl } = fakeWechat(() => sign(200, JSON.stringify(transactionJson(tx))));
    const result = await client(fetchImpl).queryOrder(order.outTradeNo);
    expect(result.tradeState).toBe('NOTPAY');
    expect(result.transactionId).toBeUndefined();
    expect(result.successTimeMs).toBeUndefined();
  });

  it('closes an order with {mchid} and accepts the signed 204', async () => {
    const { seen, fetchImpl } = fakeWechat(() => sign(204, ''));
    await client(fetchImpl).closeOrder(order.outTradeNo);
    const s = seen[0] as Seen;
    expect(s.url).toBe(`https://api.mch.weixin.qq.com/v3/pay/transactions/out-trade-no/${order.outTradeNo}/close`);
    expect(s.method).toBe('POST');
    expect(JSON.parse(s.body)).toEqual({ mchid: MCHID });
    expect(await authorizationVerifies(s)).toBe(true);
  });

  const refundRequest = {
    outTradeNo: order.outTradeNo,
    outRefundNo: 'R20240624112650ABCDEFGHJKMNPQRST',
    reason: '用户申请退款',
    refundFen: 990,
    totalFen: 990,
  };
  const refundAnswer = (status: 'SUCCESS' | 'PROCESSING', over: Partial<Parameters<typeof refundJson>[0]> = {}) =>
    JSON.stringify(
      refundJson({
        refundId: '50000000382019052709732678859',
        outRefundNo: refundRequest.outRefundNo,
        transactionId: '4200000000202406240000000001',
        outTradeNo: order.outTradeNo,
        status,
        refundFen: 990,
        totalFen: 990,
        createTimeMs: NOW_MS,
        ...over,
      }),
    );

  it('requests a domestic refund with a signed body and reads the verified answer', async () => {
    const { seen, fetchImpl } = fakeWechat(() => sign(200, refundAnswer('SUCCESS')));
    const result = await client(fetchImpl).refund(refundRequest);
    expect(seen).toHaveLength(1);
    const s = seen[0] as Seen;
    expect(s.url).toBe('https://api.mch.weixin.qq.com/v3/refund/domestic/refunds');
    expect(s.method).toBe('POST');
    expect(s.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(s.body)).toEqual({
      out_trade_no: order.outTradeNo,
      out_refund_no: refundRequest.outRefundNo,
      reason: '用户申请退款',
      amount: { refund: 990, total: 990, currency: 'CNY' },
    });
    expect(parseAuthorization(s.headers.get('Authorization') ?? '')).toMatchObject({
      mchid: MCHID,
      serialNo: MERCHANT_SERIAL,
      nonce: REQUEST_NONCE,
      timestampSec: 1719199610,
    });
    expect(await authorizationVerifies(s)).toBe(true);
    expect(result).toEqual({
      refundId: '50000000382019052709732678859',
      outRefundNo: refundRequest.outRefundNo,
      outTradeNo: order.outTradeNo,
      status: 'SUCCESS',
      refundFen: 990,
      totalFen: 990,
      successTimeMs: Math.floor(NOW_MS / 1000) * 1000,
    });
  });

  it('sends the refund notify_url (https, no query) so WeChat reports the outcome', async () => {
    const { seen, fetchImpl } = fakeWechat(() => sign(200, refundAnswer('PROCESSING')));
    await client(fetchImpl).refund({ ...refundRequest, notifyUrl: 'https://portal.example.cn/pay/notify/wechat' });
    expect(JSON.parse((seen[0] as Seen).body)).toMatchObject({
      notify_url: 'https://portal.example.cn/pay/notify/wechat',
    });
    for (const notifyUrl of ['http://portal.example.cn/pay/notify/wechat', 'https://portal.example.cn/n?x=1']) {
      await expect(client(fetchImpl).refund({ ...refundRequest, notifyUrl })).rejects.toThrow(RangeError);
    }
    expect(seen).toHaveLength(1);
  });

  it('accepts a PROCESSING refund and refuses unsigned, mismatched or invalid refunds', async () => {
    const processing = fakeWechat(() => sign(200, refundAnswer('PROCESSING')));
    expect(await client(processing.fetchImpl).refund(refundRequest)).toMatchObject({ status: 'PROCESSING' });

    const unsigned = fakeWechat(async () => ({ status: 200, headers: {}, body: refundAnswer('SUCCESS') }));
    expect(await reason(client(unsigned.fetchImpl).refund(refundRequest))).toBe('missing_header');

    const other = fakeWechat(() => sign(200, refundAnswer('SUCCESS', { outRefundNo: 'R-other' })));
    expect(await reason(client(other.fetchImpl).refund(refundRequest))).toBe('merchant_mismatch');

    const less = fakeWechat(() => sign(200, refundAnswer('SUCCESS', { refundFen: 1 })));
    await expect(client(less.fetchImpl).refund(refundRequest)).rejects.toMatchObject({
      upstream: { code: 'MALFORMED_RESPONSE' },
    });

    const refused = fakeWechat(() => sign(403, errorBody('NOT_ENOUGH', '基本账户余额不足')));
    await expect(client(refused.fetchImpl).refund(refundRequest)).rejects.toMatchObject({
      upstream: { status: 403, code: 'NOT_ENOUGH' },
    });

    const never = fakeWechat(() => sign(200, refundAnswer('SUCCESS')));
    await expect(client(never.fetchImpl).refund({ ...refundRequest, refundFen: 991 })).rejects.toThrow(RangeError);
    await expect(client(never.fetchImpl).refund({ ...refundRequest, outRefundNo: 'bad no' })).rejects.toThrow(
      RangeError,
    );
    expect(never.seen).toHaveLength(0);
  });

  it('surfaces signed WeChat errors as an AppError carrying the answer of WeChat', async () => {
    const { fetchImpl } = fakeWechat(() => sign(404, errorBody('ORDER_NOT_EXIST', '订单不存在')));
    const err = await client(fetchImpl)
      .queryOrder(order.outTradeNo)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).upstream).toMatchObject({ status: 404, code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  });

  it('rejects an unsigned success response', async () => {
    const { fetchImpl } = fakeWechat(async () => ({ status: 200, headers: {}, body: '{"code_url":"weixin://evil"}' }));
    expect(await reason(client(fetchImpl).createNativeOrder(order))).toBe('missing_header');
  });

  it('rejects a response signed with the wrong key, a tampered body and a foreign serial', async () => {
    const good = '{"code_url":"weixin://wxpay/bizpayurl?pr=p4lpSuKzz"}';
    const forged = fakeWechat(async () => {
      const r = await signResponse({
        status: 200,
        body: good,
        platformPrivateKey: merchantKey, // not WeChat's key
        platformPublicKeyId: PUB_KEY_ID,
        nowMs: NOW_MS,
        nonce: 'N',
      });
      return r;
    });
    expect(await reason(client(forged.fetchImpl).createNativeOrder(order))).toBe('bad_signature');

    const tampered = fakeWechat(async () => ({
      ...(await sign(200, good)),
      body: good.replace('p4lpSuKzz', 'attacker'),
    }));
    expect(await reason(client(tampered.fetchImpl).createNativeOrder(order))).toBe('bad_signature');

    const foreign = fakeWechat(async () => {
      const r = await sign(200, good);
      return { ...r, headers: { ...r.headers, 'Wechatpay-Serial': 'PUB_KEY_ID_OTHER' } };
    });
    expect(await reason(client(foreign.fetchImpl).createNativeOrder(order))).toBe('serial_mismatch');
  });

  it('rejects a stale signed response', async () => {
    const { fetchImpl } = fakeWechat(() =>
      signResponse({
        status: 200,
        body: '{"code_url":"weixin://x"}',
        platformPrivateKey: platformKey,
        platformPublicKeyId: PUB_KEY_ID,
        nowMs: NOW_MS - 10 * 60_000,
        nonce: 'OLD',
      }),
    );
    expect(await reason(client(fetchImpl).createNativeOrder(order))).toBe('timestamp_skew');
  });

  it('rejects a query answer for another order', async () => {
    const tx = {
      mchid: MCHID,
      appid: APPID,
      outTradeNo: 'PX_OTHER_ORDER',
      tradeState: 'SUCCESS' as const,
      amountTotalFen: 1,
    };
    const { fetchImpl } = fakeWechat(() => sign(200, JSON.stringify(transactionJson(tx))));
    expect(await reason(client(fetchImpl).queryOrder(order.outTradeNo))).toBe('merchant_mismatch');
  });

  it('validates orders before calling WeChat', async () => {
    const { seen, fetchImpl } = fakeWechat(() => sign(200, '{"code_url":"weixin://x"}'));
    const pay = client(fetchImpl);
    await expect(pay.createNativeOrder({ ...order, notifyUrl: 'http://portal.example.cn/notify' })).rejects.toThrow(
      /https/,
    );
    await expect(
      pay.createNativeOrder({ ...order, notifyUrl: 'https://portal.example.cn/notify?a=1' }),
    ).rejects.toThrow();
    await expect(pay.createNativeOrder({ ...order, amountFen: 9.9 })).rejects.toThrow(/amountFen/);
    await expect(pay.createNativeOrder({ ...order, amountFen: 0 })).rejects.toThrow(/amountFen/);
    await expect(pay.createNativeOrder({ ...order, outTradeNo: 'bad no' })).rejects.toThrow(/outTradeNo/);
    await expect(pay.createNativeOrder({ ...order, description: '长'.repeat(43) })).rejects.toThrow(/description/);
    expect(seen).toHaveLength(0);

    const sim = client(fetchImpl, {
      allowHttpNotify: true,
      providerName: 'simulator',
      baseUrl: 'http://127.0.0.1:8787/',
    });
    await sim.createNativeOrder({ ...order, notifyUrl: 'http://127.0.0.1:8787/api/pay/notify' });
    expect(sim.name).toBe('simulator');
    expect((seen[0] as Seen).url).toBe('http://127.0.0.1:8787/v3/pay/transactions/native');
  });

  it('refuses an APIv3 key that is not 32 bytes', () => {
    expect(() => createWechatPay(options({ apiV3Key: 'too-short' }))).toThrow(/32 bytes/);
  });

  it('the fake WeChat rejects a request signed with another key', async () => {
    const { fetchImpl } = fakeWechat(() => sign(200, '{"code_url":"weixin://x"}'));
    const pay = client(fetchImpl, { merchantPrivateKeyPem: TEST_PLATFORM_PRIVATE_PEM });
    const err = await pay.createNativeOrder(order).catch((e: unknown) => e);
    expect(err).toMatchObject({ upstream: { status: 401, code: 'SIGN_ERROR', message: 'bad_signature' } });
  });
});
