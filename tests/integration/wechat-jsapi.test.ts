// Paying inside WeChat's own browser (JSAPI, docs/decisions/237) through the local stand-ins: the official account's
// web authorisation (a one-time code exchanged for the payer's openid, bound to the customer by a signed state), the
// JSAPI order, the signed parameters for WeixinJSBridge (checked as WeChat's client checks them) and the payment's
// notification through the real notify route.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { importPublicKeyPem, jsapiSignMessage, rsaVerify } from '../../src/server/providers/pay/wechat-crypto';
import { simulatorKeys } from '../../src/server/providers/pay/simulator';
import { BASE, callApi } from '../helpers/api';
import { place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { forgetOpenids, openidCount, paymentCount, simTransactionCount } from '../helpers/money';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4750 fen, 15% off -> 4038
const PHONE = '13800001401';
const OTHER = '13800001402';

beforeEach(resetWithCatalogue);

async function jsapiOrder(phone = PHONE) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  return { cookie, orderNo: order.orderNo };
}

const jsapi = (orderNo: string, cookie: string) =>
  callApi('PayOrder.GetPayCode', { orderNo, mode: 'jsapi' }, { cookie });

/** Follow the authorize URL at the stand-in as WeChat's browser would: WeChat's redirect back, with code and state. */
async function authorize(authorizeUrl: string, wechatCookie = '') {
  const res = await SELF.fetch(new URL(authorizeUrl, BASE), {
    redirect: 'manual',
    headers: wechatCookie ? { cookie: wechatCookie } : {},
  });
  expect(res.status).toBe(302);
  return { back: new URL(res.headers.get('location') ?? '', BASE), setCookie: res.headers.get('set-cookie') ?? '' };
}

const openids = openidCount;

describe('JSAPI payment inside WeChat', () => {
  it('authorises once, then pays through WeixinJSBridge with a signature WeChat accepts', async () => {
    const { cookie, orderNo } = await jsapiOrder();
    const first = (await jsapi(orderNo, cookie)).body.P;
    if (!first || !('authorizeUrl' in first)) throw new Error(`expected an authorisation: ${JSON.stringify(first)}`);
    const auth = new URL(first.authorizeUrl, BASE);
    expect(auth.pathname).toBe('/dev/wechat/connect/oauth2/authorize');
    expect(auth.searchParams.get('scope')).toBe('snsapi_base');
    expect(auth.hash).toBe('#wechat_redirect');
    expect(auth.searchParams.get('redirect_uri')).toBe(`/pay/wechat/oauth?orderNo=${orderNo}`);

    const { back } = await authorize(first.authorizeUrl);
    const landed = await SELF.fetch(back, { redirect: 'manual', headers: { cookie } });
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe(`/payPage?orderNo=${orderNo}&wxpay=1`);
    expect(await openids()).toBe(1);

    const step = (await jsapi(orderNo, cookie)).body.P;
    if (!step || !('bridge' in step)) throw new Error(`expected bridge parameters: ${JSON.stringify(step)}`);
    const { bridge } = step;
    expect(bridge).toMatchObject({ appId: 'wxsimulator0000001', signType: 'RSA' });
    expect(bridge.package).toMatch(/^prepay_id=wx/);
    const keys = await simulatorKeys(env.DB, false, Date.now());
    const message = jsapiSignMessage(bridge.appId, bridge.timeStamp, bridge.nonceStr, bridge.package);
    expect(await rsaVerify(await importPublicKeyPem(keys.merchantPublicPem), message, bridge.paySign)).toBe(true);

    // Asked again: the same attempt (its prepay_id), freshly signed.
    const again = (await jsapi(orderNo, cookie)).body.P;
    if (!again || !('bridge' in again)) throw new Error('expected bridge parameters');
    expect(again.bridge.package).toBe(bridge.package);
    expect(await paymentCount({ orderNo, withPayer: true })).toBe(1);

    // WeChat's client (the stand-in) opens its payment sheet; paying sends the notification to the real route.
    const sheet = await SELF.fetch(new URL(again.standInUrl ?? '', BASE), { redirect: 'manual' });
    expect(sheet.status).toBe(302);
    const payPage = new URL(sheet.headers.get('location') ?? '', BASE);
    expect(payPage.pathname).toBe('/dev/wechatpay/pay');
    const paid = await SELF.fetch(`${BASE}/dev/wechatpay/pay`, {
      method: 'POST',
      body: new URLSearchParams({ out_trade_no: payPage.searchParams.get('out_trade_no') ?? '' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.status).toBe(200);
    const state = await callApi('PayOrder.GetOrderStateByOrderId', { orderNo }, { cookie });
    expect(state.body.P?.state).toBe(2);
    expect((await jsapi(orderNo, cookie)).body.E).toBe('订单已支付、已关闭或已过期');
  });

  it('a code works once, and only for the customer whose state it carries', async () => {
    const a = await jsapiOrder();
    const b = await jsapiOrder(OTHER);
    const step = (await jsapi(a.orderNo, a.cookie)).body.P;
    if (!step || !('authorizeUrl' in step)) throw new Error('expected an authorisation');
    const { back } = await authorize(step.authorizeUrl);

    // Another customer presenting A's return (A's state, a fresh code): refused, nothing stored.
    const stolen = await SELF.fetch(back, { redirect: 'manual', headers: { cookie: b.cookie } });
    expect(stolen.headers.get('location')).toBe(`/payPage?orderNo=${a.orderNo}&wxauth=failed`);
    expect(await openids()).toBe(0);

    // A forged state: refused. Then A's own return works, and the same code a second time does not.
    const forged = new URL(back);
    forged.searchParams.set('state', `${(Date.now() + 60_000).toString(36)}Z${'0'.repeat(32)}`);
    const forgedRes = await SELF.fetch(forged, { redirect: 'manual', headers: { cookie: a.cookie } });
    expect(forgedRes.headers.get('location')).toContain('wxauth=failed');
    expect(await openids()).toBe(0);

    const ok = await SELF.fetch(back, { redirect: 'manual', headers: { cookie: a.cookie } });
    expect(ok.headers.get('location')).toContain('wxpay=1');
    await forgetOpenids();
    const replay = await SELF.fetch(back, { redirect: 'manual', headers: { cookie: a.cookie } });
    expect(replay.headers.get('location')).toContain('wxauth=failed');
    expect(await openids()).toBe(0);
  });

  it("WeChat's client refuses bridge parameters that were not signed by the merchant", async () => {
    const { cookie, orderNo } = await jsapiOrder();
    const step = (await jsapi(orderNo, cookie)).body.P;
    if (!step || !('authorizeUrl' in step)) throw new Error('expected an authorisation');
    const { back } = await authorize(step.authorizeUrl);
    await SELF.fetch(back, { redirect: 'manual', headers: { cookie } });
    const signed = (await jsapi(orderNo, cookie)).body.P;
    if (!signed || !('bridge' in signed)) throw new Error('expected bridge parameters');
    const tampered = new URL(signed.standInUrl ?? '', BASE);
    tampered.searchParams.set('package', 'prepay_id=wxsimP00000000000000000000');
    const res = await SELF.fetch(tampered, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('支付验证签名失败');
    expect(await simTransactionCount('SUCCESS')).toBe(0);
  });
});
