// The local WeChat Pay simulator (development and tests only): the WeChat side of API v3 under /dev/wechatpay/v3/...
// It verifies our merchant signatures, signs its answers with its own platform key, keeps transactions in D1, and
// on "pay" builds a signed, encrypted notification for our real notify route. Its keys are generated on first use
// and kept in D1, so no key material is committed or configured.
import { toBase64 } from '../../../lib/bytes';
import {
  findSimTransaction,
  findSimulatorKeys,
  insertSimRefund,
  insertSimTransaction,
  insertSimulatorKeys,
  markSimClosed,
  markSimPaid,
  type SimTransaction,
} from '../../db/pay-simulator';
import {
  buildSignedNotification,
  errorBody,
  refundJson,
  type SimulatedTransaction,
  signResponse,
  transactionJson,
  verifyMerchantRequest,
} from './simulator-protocol';
import { parseWechatTime } from './wechat-responses';
import { insertOAuthCode, takeOAuthCode } from '../../db/wechat-openids';
import { importPrivateKeyPem, importPublicKeyPem, jsapiSignMessage, randomNonce, rsaVerify } from './wechat-crypto';

/** The simulator's merchant identity (not a real merchant). */
export const SIMULATOR_MERCHANT = {
  mchid: '1900000001',
  appid: 'wxsimulator0000001',
  merchantSerialNo: 'SIMULATOR0000000000000000000000000000001',
  platformPublicKeyId: 'PUB_KEY_ID_SIMULATOR00000000000000000001',
  /** The simulated official account's AppSecret (JSAPI's web authorisation); not a secret of any real account. */
  mpSecret: 'simulator-official-account-secret-0001',
} as const;

/** Where the simulator's routes are mounted on the portal. */
export const SIMULATOR_MOUNT = '/dev/wechatpay';

/** Where the official account's web-authorisation stand-in is mounted (open.weixin.qq.com and api.weixin.qq.com). */
export const WECHAT_OAUTH_STAND_IN = '/dev/wechat';

/** How long a web-authorisation code works (WeChat: 5 minutes, once). */
const OAUTH_CODE_MS = 5 * 60_000;

/** A JSAPI prepay_id of the simulator names its transaction (WeChat's are opaque; the stand-in's bridge reads it back). */
const PREPAY_PREFIX = 'wxsim';

export interface SimulatorKeys {
  merchantPrivatePem: string;
  merchantPublicPem: string;
  platformPrivatePem: string;
  platformPublicPem: string;
  apiV3Key: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = toBase64(new Uint8Array(der)).replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${b64.trim()}\n-----END ${label}-----\n`;
}

export async function generatePair(): Promise<{ privatePem: string; publicPem: string }> {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const priv = (await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer;
  const pub = (await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer;
  return { privatePem: pem('PRIVATE KEY', priv), publicPem: pem('PUBLIC KEY', pub) };
}

/** The simulator's keys, generated and stored on first use. Refuses in production. */
export async function simulatorKeys(db: D1Database, isProduction: boolean, now: number): Promise<SimulatorKeys> {
  if (isProduction) throw new Error('the payment simulator is not available in production');
  let row = await findSimulatorKeys(db);
  if (!row) {
    const [merchant, platform] = await Promise.all([generatePair(), generatePair()]);
    const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const apiV3Key = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => alnum[b % 62]).join('');
    await insertSimulatorKeys(
      db,
      {
        merchant_private_pem: merchant.privatePem,
        merchant_public_pem: merchant.publicPem,
        platform_private_pem: platform.privatePem,
        platform_public_pem: platform.publicPem,
        api_v3_key: apiV3Key,
      },
      now,
    );
    row = await findSimulatorKeys(db);
    if (!row) throw new Error('simulator keys vanished');
  }
  return {
    merchantPrivatePem: row.merchant_private_pem,
    merchantPublicPem: row.merchant_public_pem,
    platformPrivatePem: row.platform_private_pem,
    platformPublicPem: row.platform_public_pem,
    apiV3Key: row.api_v3_key,
  };
}

async function signed(keys: SimulatorKeys, status: number, body: string, now: number): Promise<Response> {
  const r = await signResponse({
    platformPrivateKey: await importPrivateKeyPem(keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: now,
    nonce: randomNonce(),
    status,
    body,
  });
  return new Response(r.body === '' ? null : r.body, { status: r.status, headers: r.headers });
}

const asSimulated = (t: SimTransaction): SimulatedTransaction => ({
  mchid: t.mchid,
  appid: t.appid,
  outTradeNo: t.outTradeNo,
  tradeState: t.tradeState,
  amountTotalFen: t.amountFen,
  ...(t.transactionId ? { transactionId: t.transactionId } : {}),
  ...(t.successTimeMs ? { successTimeMs: t.successTimeMs } : {}),
  ...(t.attach !== null ? { attach: t.attach } : {}),
});

/**
 * Answer one WeChat Pay API v3 request addressed to the simulator (path under SIMULATOR_MOUNT). `pageOrigin` prefixes
 * the code_url of the local payment page ('' for a same-site relative URL).
 */
export async function handleSimulatorApi(
  req: Request,
  db: D1Database,
  o: { now: number; isProduction: boolean; pageOrigin: string },
): Promise<Response> {
  const keys = await simulatorKeys(db, o.isProduction, o.now);
  const url = new URL(req.url);
  const path = url.pathname.startsWith(SIMULATOR_MOUNT) ? url.pathname.slice(SIMULATOR_MOUNT.length) : url.pathname;
  const body = req.method === 'GET' ? '' : await req.text();
  const check = await verifyMerchantRequest(
    req.headers.get('Authorization'),
    req.method,
    `${path}${url.search}`,
    body,
    await importPublicKeyPem(keys.merchantPublicPem),
    { mchid: SIMULATOR_MERCHANT.mchid, serialNo: SIMULATOR_MERCHANT.merchantSerialNo, nowMs: o.now },
  );
  if (!check.ok) {
    return new Response(errorBody('SIGN_ERROR', `签名错误：${check.reason}`), {
      status: 401,
      headers: { 'Content-Type': 'application/json' },
    });
  }

  const placed = /^\/v3\/pay\/transactions\/(native|h5|jsapi)$/.exec(path)?.[1];
  if (req.method === 'POST' && placed) {
    const h5 = placed === 'h5';
    let p: Record<string, unknown>;
    try {
      p = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return signed(keys, 400, errorBody('PARAM_ERROR', '请求体不是JSON'), o.now);
    }
    const amount = p.amount as { total?: unknown } | undefined;
    const outTradeNo = String(p.out_trade_no ?? '');
    if (p.mchid !== SIMULATOR_MERCHANT.mchid || p.appid !== SIMULATOR_MERCHANT.appid) {
      return signed(keys, 400, errorBody('PARAM_ERROR', 'mchid与appid不匹配'), o.now);
    }
    if (typeof amount?.total !== 'number' || !/^[0-9A-Za-z_\-*]{6,32}$/.test(outTradeNo)) {
      return signed(keys, 400, errorBody('PARAM_ERROR', '参数错误'), o.now);
    }
    const existing = await findSimTransaction(db, outTradeNo);
    if (existing && existing.amountFen !== amount.total) {
      return signed(keys, 400, errorBody('INVALID_REQUEST', '商户订单号重复'), o.now);
    }
    if (!existing) {
      await insertSimTransaction(
        db,
        {
          outTradeNo,
          mchid: SIMULATOR_MERCHANT.mchid,
          appid: SIMULATOR_MERCHANT.appid,
          description: String(p.description ?? ''),
          amountFen: amount.total,
          notifyUrl: String(p.notify_url ?? ''),
          attach: typeof p.attach === 'string' ? p.attach : null,
          timeExpireMs: parseWechatTime(String(p.time_expire)),
          tradeState: 'NOTPAY',
          transactionId: null,
          successTimeMs: null,
        },
        o.now,
      );
    }
    const scene = p.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined;
    if (h5 && (typeof scene?.payer_client_ip !== 'string' || scene.h5_info?.type !== 'Wap')) {
      return signed(keys, 400, errorBody('PARAM_ERROR', 'scene_info参数错误'), o.now);
    }
    if (placed === 'jsapi') {
      const payer = p.payer as { openid?: unknown } | undefined;
      if (typeof payer?.openid !== 'string' || !/^[0-9A-Za-z_-]{1,128}$/.test(payer.openid)) {
        return signed(keys, 400, errorBody('PARAM_ERROR', 'payer.openid参数错误'), o.now);
      }
      return signed(keys, 200, JSON.stringify({ prepay_id: `${PREPAY_PREFIX}${outTradeNo}` }), o.now);
    }
    const codeUrl = `${o.pageOrigin}${SIMULATOR_MOUNT}/pay?out_trade_no=${encodeURIComponent(outTradeNo)}`;
    return signed(keys, 200, JSON.stringify(h5 ? { h5_url: `${codeUrl}&h5=1` } : { code_url: codeUrl }), o.now);
  }

  if (req.method === 'POST' && path === '/v3/refund/domestic/refunds') {
    let p: Record<string, unknown>;
    try {
      p = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return signed(keys, 400, errorBody('PARAM_ERROR', '请求体不是JSON'), o.now);
    }
    const amount = p.amount as { refund?: unknown; total?: unknown; currency?: unknown } | undefined;
    const outTradeNo = String(p.out_trade_no ?? '');
    const outRefundNo = String(p.out_refund_no ?? '');
    const refundFen = amount?.refund;
    const totalFen = amount?.total;
    if (
      !/^[0-9A-Za-z_\-*]{6,32}$/.test(outTradeNo) ||
      !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(outRefundNo) ||
      typeof refundFen !== 'number' ||
      typeof totalFen !== 'number' ||
      !Number.isSafeInteger(refundFen) ||
      refundFen <= 0 ||
      refundFen > totalFen ||
      amount?.currency !== 'CNY'
    ) {
      return signed(keys, 400, errorBody('PARAM_ERROR', '参数错误'), o.now);
    }
    const t = await findSimTransaction(db, outTradeNo);
    if (!t) return signed(keys, 404, errorBody('RESOURCE_NOT_EXISTS', '订单不存在'), o.now);
    if (t.amountFen !== totalFen) return signed(keys, 400, errorBody('PARAM_ERROR', '订单金额不一致'), o.now);
    if (!t.transactionId || (t.tradeState !== 'SUCCESS' && t.tradeState !== 'REFUND')) {
      return signed(keys, 400, errorBody('INVALID_REQUEST', '订单未支付，不能退款'), o.now);
    }
    const digits = Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => String(b % 10)).join('');
    const r = await insertSimRefund(
      db,
      {
        outRefundNo,
        outTradeNo,
        refundId: `50${digits}`,
        amountFen: refundFen,
        totalFen,
        status: 'SUCCESS',
        reason: typeof p.reason === 'string' ? p.reason : '',
      },
      o.now,
    );
    if (!r) return signed(keys, 403, errorBody('NOT_ENOUGH', '可退款金额不足'), o.now);
    const json = refundJson({
      ...r,
      transactionId: t.transactionId,
      refundFen: r.amountFen,
      createTimeMs: r.createdAt,
    });
    return signed(keys, 200, JSON.stringify(json), o.now);
  }

  const m = /^\/v3\/pay\/transactions\/out-trade-no\/([0-9A-Za-z_\-*]{6,32})(\/close)?$/.exec(path);
  if (m?.[1]) {
    const t = await findSimTransaction(db, m[1]);
    if (!t) return signed(keys, 404, errorBody('ORDER_NOT_EXIST', '订单不存在'), o.now);
    if (req.method === 'GET' && !m[2]) return signed(keys, 200, JSON.stringify(transactionJson(asSimulated(t))), o.now);
    if (req.method === 'POST' && m[2]) {
      if (!(await markSimClosed(db, t.outTradeNo)))
        return signed(keys, 400, errorBody('ORDERPAID', '订单已支付'), o.now);
      return signed(keys, 204, '', o.now);
    }
  }
  return signed(keys, 404, errorBody('NOT_FOUND', '接口不存在'), o.now);
}

/** The transaction behind a payment page. */
export const findSimulatedTransaction = findSimTransaction;

/**
 * The payer pays: NOTPAY -> SUCCESS, then the notification WeChat would send (signed with the simulator's platform
 * key, resource encrypted with its APIv3 key). Null when the transaction cannot be paid (unknown, paid, closed, expired).
 */
export async function simulatePayment(
  db: D1Database,
  outTradeNo: string,
  o: { now: number; isProduction: boolean },
): Promise<{ notifyUrl: string; headers: Record<string, string>; body: string } | null> {
  const keys = await simulatorKeys(db, o.isProduction, o.now);
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => String(b % 10)).join('');
  if (!(await markSimPaid(db, outTradeNo, `4200${digits}`, o.now))) return null;
  const t = await findSimTransaction(db, outTradeNo);
  if (!t) return null;
  const n = await buildSignedNotification({
    transaction: asSimulated(t),
    apiV3Key: keys.apiV3Key,
    platformPrivateKey: await importPrivateKeyPem(keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: o.now,
    nonce: randomNonce(),
  });
  return { notifyUrl: t.notifyUrl, ...n };
}

/**
 * The stand-in for WeChat's client receiving WeixinJSBridge.invoke('getBrandWCPayRequest', params): it checks what
 * WeChat checks (our appid, RSA, a fresh time stamp, the merchant's signature over the four fields, a prepay_id it
 * issued) and names the transaction to pay; null with the reason when WeChat would refuse.
 */
export async function openJsapiBridge(
  db: D1Database,
  params: Record<string, string | undefined>,
  o: { now: number; isProduction: boolean },
): Promise<{ outTradeNo: string } | { refused: string }> {
  const keys = await simulatorKeys(db, o.isProduction, o.now);
  const { appId = '', timeStamp = '', nonceStr = '', package: pkg = '', signType = '', paySign = '' } = params;
  if (appId !== SIMULATOR_MERCHANT.appid) return { refused: 'appId与商户不匹配' };
  if (signType !== 'RSA') return { refused: 'signType必须为RSA' };
  if (!/^\d{1,12}$/.test(timeStamp) || Math.abs(o.now - Number(timeStamp) * 1000) > OAUTH_CODE_MS) {
    return { refused: 'timeStamp已过期' };
  }
  const message = jsapiSignMessage(appId, timeStamp, nonceStr, pkg);
  if (!(await rsaVerify(await importPublicKeyPem(keys.merchantPublicPem), message, paySign))) {
    return { refused: '支付验证签名失败' };
  }
  const outTradeNo = pkg.startsWith(`prepay_id=${PREPAY_PREFIX}`) ? pkg.slice(`prepay_id=${PREPAY_PREFIX}`.length) : '';
  if (!(await findSimTransaction(db, outTradeNo))) return { refused: 'prepay_id不存在' };
  return { outTradeNo };
}

/** The web-authorisation stand-in's authorize step: a one-time code for this browser's simulated WeChat user. */
export async function issueOAuthCode(
  db: D1Database,
  openid: string,
  o: { now: number; isProduction: boolean },
): Promise<string> {
  if (o.isProduction) throw new Error('the WeChat authorisation stand-in is not available in production');
  const code = randomNonce(16);
  await insertOAuthCode(db, code, openid, o.now);
  return code;
}

/** The web-authorisation stand-in's api.weixin.qq.com side: GET /sns/oauth2/access_token, answered as WeChat does. */
export async function handleOAuthStandIn(
  req: Request,
  db: D1Database,
  o: { now: number; isProduction: boolean },
): Promise<Response> {
  if (o.isProduction) return new Response('Not Found', { status: 404 });
  const url = new URL(req.url);
  const json = (body: object) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  if (url.pathname !== `${WECHAT_OAUTH_STAND_IN}/sns/oauth2/access_token`) {
    return json({ errcode: 40001, errmsg: 'invalid path' });
  }
  const q = url.searchParams;
  if (q.get('appid') !== SIMULATOR_MERCHANT.appid) return json({ errcode: 40013, errmsg: 'invalid appid' });
  if (q.get('secret') !== SIMULATOR_MERCHANT.mpSecret) return json({ errcode: 40125, errmsg: 'invalid appsecret' });
  if (q.get('grant_type') !== 'authorization_code') return json({ errcode: 40002, errmsg: 'invalid grant_type' });
  const openid = await takeOAuthCode(db, q.get('code') ?? '', o.now, OAUTH_CODE_MS);
  if (!openid) return json({ errcode: 40029, errmsg: 'invalid code' });
  return json({
    access_token: randomNonce(16),
    expires_in: 7200,
    refresh_token: randomNonce(16),
    openid,
    scope: 'snsapi_base',
  });
}
