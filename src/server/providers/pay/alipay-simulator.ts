// The local Alipay stand-in (development and tests only): the Alipay side of the gateway protocol at
// /dev/alipay/gateway.do. It verifies the portal's RSA2 signatures with the application's public key, signs its
// answers and notifications with its own key, keeps trades and refunds in D1, and serves the payer's cashier page
// (/dev/alipay/pay) whose button sends a signed notification through the portal's real notify route. The portal talks
// to it with the real client (alipay.ts): the same signing and verification code as with Alipay. Its keys are generated
// on first use and kept in D1, so no key material is committed or configured.
import {
  type AlipaySimKeys,
  type AlipaySimTrade,
  findAlipaySimKeys,
  findAlipaySimTrade,
  insertAlipaySimKeys,
  insertAlipaySimTrade,
  markAlipaySimClosed,
  markAlipaySimPaid,
  refundAlipaySimTrade,
} from '../../db/alipay-simulator';
import {
  ALIPAY_OK,
  alipayAmountToFen,
  alipaySigningString,
  alipayTime,
  fenToAlipayAmount,
  responseKey,
} from './alipay';
import { HOUR_MS, shanghaiWallTime } from '../../../lib/time';
import { generatePair } from './simulator';
import { importPrivateKeyPem, importPublicKeyPem, rsaSign, rsaVerify } from './wechat-crypto';

/** The stand-in's identities (not a real application or merchant). */
export const ALIPAY_SIMULATOR = { appId: '2021000000000001', sellerId: '2088000000000001' } as const;
/** Where the stand-in is mounted on the portal. */
export const ALIPAY_SIMULATOR_MOUNT = '/dev/alipay';
export const ALIPAY_SIMULATOR_GATEWAY = `${ALIPAY_SIMULATOR_MOUNT}/gateway.do`;

/** The stand-in's keys, generated and stored on first use. Refuses in production. */
export async function alipaySimulatorKeys(db: D1Database, isProduction: boolean, now: number): Promise<AlipaySimKeys> {
  if (isProduction) throw new Error('the Alipay stand-in is not available in production');
  const found = await findAlipaySimKeys(db);
  if (found) return found;
  const [app, alipay] = await Promise.all([generatePair(), generatePair()]);
  await insertAlipaySimKeys(
    db,
    {
      appPrivatePem: app.privatePem,
      appPublicPem: app.publicPem,
      alipayPrivatePem: alipay.privatePem,
      alipayPublicPem: alipay.publicPem,
    },
    now,
  );
  const stored = await findAlipaySimKeys(db);
  if (!stored) throw new Error('Alipay stand-in keys vanished');
  return stored;
}

const digits = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => String(b % 10)).join('');

/** A signed synchronous answer: the response object's text, and the signature over exactly that text. */
async function answer(keys: AlipaySimKeys, method: string, node: Record<string, unknown>): Promise<Response> {
  const text = JSON.stringify(node);
  const sign = await rsaSign(await importPrivateKeyPem(keys.alipayPrivatePem), text);
  return new Response(`{"${responseKey(method)}":${text},"sign":"${sign}"}`, {
    headers: { 'content-type': 'application/json;charset=utf-8' },
  });
}

const refusal = (subCode: string, subMsg: string, code = '40004') => ({
  code,
  msg: code === '40004' ? 'Business Failed' : 'Invalid Arguments',
  sub_code: subCode,
  sub_msg: subMsg,
});

/**
 * Answer one gateway call (form POST, or GET for the page/wap payments that send the payer's browser here).
 * `pageOrigin` prefixes the cashier page's URL ('' for same-site).
 */
export async function handleAlipayGateway(
  req: Request,
  db: D1Database,
  o: { now: number; isProduction: boolean; pageOrigin: string },
): Promise<Response> {
  const keys = await alipaySimulatorKeys(db, o.isProduction, o.now);
  const url = new URL(req.url);
  const params: Record<string, string> = Object.fromEntries(
    req.method === 'GET' ? url.searchParams : new URLSearchParams(await req.text()),
  );
  const method = params.method ?? '';
  const signedOk =
    params.sign_type === 'RSA2' &&
    !!params.sign &&
    (await rsaVerify(await importPublicKeyPem(keys.appPublicPem), alipaySigningString(params), params.sign));
  if (!signedOk || params.app_id !== ALIPAY_SIMULATOR.appId) {
    const why = signedOk
      ? refusal('isv.invalid-app-id', '无效的AppID参数', '40002')
      : refusal('isv.invalid-signature', '验签出错', '40002');
    return answer(keys, method || 'alipay.error', why);
  }
  let biz: Record<string, string>;
  try {
    biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
  } catch {
    return answer(keys, method, refusal('isv.invalid-parameter', 'biz_content不是JSON', '40002'));
  }
  const outTradeNo = String(biz.out_trade_no ?? '');
  if (!/^[0-9A-Za-z_]{1,64}$/.test(outTradeNo)) {
    return answer(keys, method, refusal('isv.invalid-parameter', 'out_trade_no不合法', '40002'));
  }
  const cashier = `${o.pageOrigin}${ALIPAY_SIMULATOR_MOUNT}/pay?out_trade_no=${encodeURIComponent(outTradeNo)}`;

  if (['alipay.trade.page.pay', 'alipay.trade.wap.pay', 'alipay.trade.precreate'].includes(method)) {
    const amountFen = alipayAmountToFen(biz.total_amount);
    if (!amountFen) return answer(keys, method, refusal('isv.invalid-parameter', 'total_amount不合法', '40002'));
    const existing = await findAlipaySimTrade(db, outTradeNo);
    if (existing && existing.amountFen !== amountFen) {
      return answer(keys, method, refusal('ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改'));
    }
    if (!existing) {
      const expire = shanghaiWallTime(String(biz.time_expire ?? ''));
      await insertAlipaySimTrade(
        db,
        {
          outTradeNo,
          subject: String(biz.subject ?? ''),
          amountFen,
          notifyUrl: params.notify_url ?? '',
          returnUrl: params.return_url ?? null,
          timeExpireMs: Number.isNaN(expire) ? o.now + 2 * HOUR_MS : expire,
        },
        o.now,
      );
    }
    if (method === 'alipay.trade.precreate') {
      return answer(keys, method, { code: ALIPAY_OK, msg: 'Success', out_trade_no: outTradeNo, qr_code: cashier });
    }
    return Response.redirect(new URL(cashier, url).toString(), 302);
  }

  const trade = await findAlipaySimTrade(db, outTradeNo);
  if (method === 'alipay.trade.query') {
    if (!trade) return answer(keys, method, refusal('ACQ.TRADE_NOT_EXIST', '交易不存在'));
    return answer(keys, method, {
      code: ALIPAY_OK,
      msg: 'Success',
      out_trade_no: outTradeNo,
      trade_status: trade.status,
      total_amount: fenToAlipayAmount(trade.amountFen),
      ...(trade.tradeNo ? { trade_no: trade.tradeNo } : {}),
      ...(trade.paidAt ? { send_pay_date: alipayTime(trade.paidAt) } : {}),
    });
  }
  if (method === 'alipay.trade.close') {
    if (!trade) return answer(keys, method, refusal('ACQ.TRADE_NOT_EXIST', '交易不存在'));
    if (!(await markAlipaySimClosed(db, outTradeNo))) {
      return answer(keys, method, refusal('ACQ.TRADE_STATUS_ERROR', '交易状态不合法'));
    }
    return answer(keys, method, { code: ALIPAY_OK, msg: 'Success', out_trade_no: outTradeNo });
  }
  if (method === 'alipay.trade.refund') {
    const refundFen = alipayAmountToFen(biz.refund_amount);
    const requestNo = String(biz.out_request_no ?? outTradeNo);
    if (!refundFen) return answer(keys, method, refusal('isv.invalid-parameter', 'refund_amount不合法', '40002'));
    if (!trade?.tradeNo) return answer(keys, method, refusal('ACQ.TRADE_NOT_EXIST', '交易不存在'));
    const r = await refundAlipaySimTrade(db, outTradeNo, requestNo, refundFen, o.now);
    if (!r) return answer(keys, method, refusal('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限'));
    return answer(keys, method, {
      code: ALIPAY_OK,
      msg: 'Success',
      out_trade_no: outTradeNo,
      trade_no: trade.tradeNo,
      fund_change: r.fundChange ? 'Y' : 'N',
      refund_fee: fenToAlipayAmount(r.refundedFen),
    });
  }
  return answer(keys, method || 'alipay.error', refusal('isv.invalid-method', '不存在的方法名', '40002'));
}

/** The trade behind a cashier page. */
export const findAlipaySimulatedTrade = findAlipaySimTrade;

/**
 * The payer pays: WAIT_BUYER_PAY -> TRADE_SUCCESS, then the asynchronous notification Alipay would POST, signed with
 * the stand-in's key. Null when the trade cannot be paid (unknown, paid, closed, expired).
 */
export async function simulateAlipayPayment(
  db: D1Database,
  outTradeNo: string,
  o: { now: number; isProduction: boolean },
): Promise<{ trade: AlipaySimTrade; notifyUrl: string; body: string } | null> {
  const keys = await alipaySimulatorKeys(db, o.isProduction, o.now);
  if (!(await markAlipaySimPaid(db, outTradeNo, `2026${digits(24)}`, o.now))) return null;
  const trade = await findAlipaySimTrade(db, outTradeNo);
  if (!trade?.tradeNo) return null;
  return { trade, notifyUrl: trade.notifyUrl, body: await signedNotification(keys, trade, o.now) };
}

/** The form body of a trade_status_sync notification for a trade, signed as Alipay signs it (RSA2). */
export async function signedNotification(
  keys: AlipaySimKeys,
  trade: AlipaySimTrade,
  now: number,
  override: Record<string, string> = {},
): Promise<string> {
  const params: Record<string, string> = {
    notify_time: alipayTime(now),
    notify_type: 'trade_status_sync',
    notify_id: `${digits(20)}`,
    charset: 'utf-8',
    version: '1.0',
    app_id: ALIPAY_SIMULATOR.appId,
    auth_app_id: ALIPAY_SIMULATOR.appId,
    seller_id: ALIPAY_SIMULATOR.sellerId,
    out_trade_no: trade.outTradeNo,
    trade_no: trade.tradeNo ?? '',
    trade_status: trade.status,
    total_amount: fenToAlipayAmount(trade.amountFen),
    receipt_amount: fenToAlipayAmount(trade.amountFen),
    subject: trade.subject,
    gmt_create: alipayTime(now),
    ...(trade.paidAt ? { gmt_payment: alipayTime(trade.paidAt) } : {}),
    ...override,
  };
  params.sign = await rsaSign(
    await importPrivateKeyPem(keys.alipayPrivatePem),
    alipaySigningString(params, ['sign', 'sign_type']),
  );
  params.sign_type = 'RSA2';
  return new URLSearchParams(params).toString();
}
