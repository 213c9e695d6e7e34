// Test helpers for the buying flows: the demo catalogue, verified buyers, placing orders, the payment simulator and
// WeChat's signed notifications. What the tables hold afterwards: tests/helpers/money.ts.
import { env, SELF } from 'cloudflare:test';
import type { ActionInput } from '../../src/lib/api-core';
import { SIMULATOR_MERCHANT, simulatorKeys } from '../../src/server/providers/pay/simulator';
import {
  buildSignedNotification,
  buildSignedRefundNotification,
  type RefundNotificationInput,
  type SimulatedTransaction,
} from '../../src/server/providers/pay/simulator-protocol';
import { importPrivateKeyPem, randomNonce } from '../../src/server/providers/pay/wechat-crypto';
import { demoCommerceSql } from '../../src/server/seed/commerce';
import { BASE, callApi, loginBySms, resetDb } from './api';
import { seedStatements } from './rows';
import { freshIp, markIdentityVerified } from './trust';

/** Empty the database (packages first: they reference users) and load the demo catalogue and coupons. */
export async function resetWithCatalogue(): Promise<void> {
  await env.DB.prepare('DELETE FROM proxy_packages').run();
  await resetDb();
  await seedCatalogue();
}

/** Load the demo catalogue and coupons. */
export async function seedCatalogue(): Promise<void> {
  await env.DB.batch(seedStatements(demoCommerceSql(Date.now())).map((s) => env.DB.prepare(s)));
}

/** A logged-in, real-name verified user (cookie), logged in from a fresh client IP. */
export async function verifiedBuyer(phone: string): Promise<string> {
  const cookie = await loginBySms(phone, freshIp());
  await markIdentityVerified(phone);
  return cookie;
}

/** The actions that place an order. */
type PlacingAction = 'PayOrder.BuyProxy' | 'PayOrder.RenewProxy' | 'ProxyUpgrade.mergeProxy';

/** Place an order through an action and fail loudly on E. */
export async function place<N extends PlacingAction>(action: N, params: ActionInput<N>, cookie: string) {
  const res = await callApi(action, params, { cookie });
  if (!res.body.P) throw new Error(`${action}: ${res.body.E}`);
  return res.body.P;
}

/** The out_trade_no in a simulator code_url. */
export const outTradeNoOf = (codeUrl: string): string => new URL(codeUrl, BASE).searchParams.get('out_trade_no') ?? '';

/** Press "pay" on the simulator page (optionally without sending the notification). */
export async function payInSimulator(codeUrl: string, skipNotify = false): Promise<Response> {
  const form = new URLSearchParams({ out_trade_no: outTradeNoOf(codeUrl) });
  if (skipNotify) form.set('skip_notify', '1');
  return SELF.fetch(`${BASE}/dev/wechatpay/pay`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** A notification for a transaction, signed with the simulator's platform key (or another key) as WeChat would. */
export async function notification(
  t: Partial<SimulatedTransaction> & { outTradeNo: string; amountTotalFen: number },
  o: { nowMs?: number; probe?: boolean; platformPrivatePem?: string } = {},
): Promise<{ headers: Record<string, string>; body: string }> {
  const keys = await simulatorKeys(env.DB, false, Date.now());
  return buildSignedNotification({
    transaction: {
      mchid: SIMULATOR_MERCHANT.mchid,
      appid: SIMULATOR_MERCHANT.appid,
      tradeState: 'SUCCESS',
      transactionId: `4200${Date.now()}`,
      successTimeMs: Date.now(),
      ...t,
    },
    apiV3Key: keys.apiV3Key,
    platformPrivateKey: await importPrivateKeyPem(o.platformPrivatePem ?? keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: o.nowMs ?? Date.now(),
    nonce: randomNonce(),
    ...(o.probe ? { probe: true } : {}),
  });
}

/** A refund notification (REFUND.SUCCESS / CLOSED / ABNORMAL), signed with the simulator's platform key as WeChat would. */
export async function refundNotification(
  refund: RefundNotificationInput['refund'],
  o: { eventType?: string; mchid?: string } = {},
): Promise<{ headers: Record<string, string>; body: string }> {
  const keys = await simulatorKeys(env.DB, false, Date.now());
  return buildSignedRefundNotification({
    mchid: o.mchid ?? SIMULATOR_MERCHANT.mchid,
    refund,
    apiV3Key: keys.apiV3Key,
    platformPrivateKey: await importPrivateKeyPem(keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: Date.now(),
    nonce: randomNonce(),
    ...(o.eventType ? { eventType: o.eventType } : {}),
  });
}

/** POST a notification to the real notify route. */
export const postNotify = (n: { headers: Record<string, string>; body: string }) =>
  SELF.fetch(`${BASE}/pay/notify/wechat`, { method: 'POST', headers: n.headers, body: n.body });
