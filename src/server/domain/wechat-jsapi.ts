// JSAPI payment inside WeChat's own browser (docs/decisions/237). WeChat's browser cannot open an H5 payment and a QR
// code on the same phone cannot be scanned, so the cashier asks WeChat's client to pay: it needs the payer's openid,
// learned once through the official account's web authorisation (snsapi_base: silent, asks the payer nothing), then a
// JSAPI order whose prepay_id the page hands to WeixinJSBridge with the merchant's signature. The authorisation's
// `state` is an HMAC of customer, order and expiry, so a code can only be bound to the customer who asked for it.
import 'server-only';
import { AppError } from '../../lib/errors';
import { hmacSha256Hex, timingSafeEqual } from '../crypto';
import type { OrderRecord } from '../db/orders';
import { findOpenid, saveOpenid } from '../db/wechat-openids';
import type { PaySetup } from '../providers/pay';
import type { JsapiBridge } from '../providers/pay/types';
import { paymentCodeFor, userOrder } from './payments';
import { ORDER_STATE } from '../../lib/order-states';

/** Where WeChat returns the payer after the web authorisation (edge/routes/pay.ts). */
export const WECHAT_OAUTH_RETURN = '/pay/wechat/oauth';
/** How long an authorisation started from the cashier may take to come back. */
const STATE_TTL_MS = 10 * 60_000;

/** WeChat allows only [A-Za-z0-9] in state (at most 128 bytes): expiry in base 36, 'Z', 32 hex digits of the MAC. */
async function signState(secret: string, userId: number, orderNo: string, exp: number): Promise<string> {
  const mac = await hmacSha256Hex(secret, `wechat-oauth|${userId}|${orderNo}|${exp}`);
  return `${exp.toString(36)}Z${mac.slice(0, 32)}`;
}

async function stateValid(secret: string, userId: number, orderNo: string, state: string, now: number) {
  const m = /^([0-9a-z]{1,12})Z[0-9a-f]{32}$/.exec(state);
  if (!m) return false;
  const exp = Number.parseInt(m[1] as string, 36);
  if (!(exp > now)) return false;
  const enc = new TextEncoder();
  return timingSafeEqual(enc.encode(await signState(secret, userId, orderNo, exp)), enc.encode(state));
}

export type JsapiStep =
  /** Send the browser here first (the payer's openid is not known yet). */
  | { authorizeUrl: string }
  /** Hand `bridge` to WeixinJSBridge; in development `standInUrl` plays WeChat's client. */
  | { bridge: JsapiBridge; standInUrl?: string };

/** The next step of a JSAPI payment of the customer's unpaid order. */
export async function jsapiStep(
  db: D1Database,
  pay: PaySetup,
  secret: string,
  order: OrderRecord,
  now: number,
): Promise<JsapiStep> {
  const oauth = pay.wechatOAuth;
  if (!oauth) throw new AppError('wechatJsapiUnavailable');
  if (order.state !== ORDER_STATE.pending || order.expiresAt <= now) throw new AppError('orderNotPayable');
  const openid = await findOpenid(db, order.userId, oauth.appid);
  if (!openid) {
    const back = `${pay.portalOrigin}${WECHAT_OAUTH_RETURN}?orderNo=${encodeURIComponent(order.orderNo)}`;
    const state = await signState(secret, order.userId, order.orderNo, now + STATE_TTL_MS);
    return { authorizeUrl: oauth.authorizeUrl(back, state) };
  }
  const { codeUrl: prepayId } = await paymentCodeFor(db, pay, order, now, { rail: 'wechat', mode: 'wap', openid });
  const bridge = await pay.provider.jsapiBridge(prepayId);
  if (!pay.jsapiStandIn) return { bridge };
  const q = new URLSearchParams({ ...bridge, redirect_url: `${pay.portalOrigin}/payPage?orderNo=${order.orderNo}` });
  return { bridge, standInUrl: `${pay.jsapiStandIn}?${q}` };
}

/**
 * WeChat returned the customer with a code: check the state is theirs for this order and fresh, learn and keep their
 * openid. Throws wechatAuthFailed otherwise (nothing is stored).
 */
export async function completeWechatAuth(
  db: D1Database,
  pay: PaySetup,
  secret: string,
  userId: number,
  q: { orderNo: string; code: string; state: string },
  now: number,
): Promise<void> {
  const oauth = pay.wechatOAuth;
  if (!oauth) throw new AppError('wechatJsapiUnavailable');
  await userOrder(db, userId, q.orderNo);
  if (!(await stateValid(secret, userId, q.orderNo, q.state, now))) throw new AppError('wechatAuthFailed');
  const openid = await oauth.openidFor(q.code);
  await saveOpenid(db, userId, oauth.appid, openid, now);
}
