// Paying an order with Alipay (the local stand-in speaking the signed gateway protocol): the cashier's QR code, the
// page and phone payments, the real notify route (verified, checked against our attempt and order, applied once), the
// reconciling job for a lost notification, closing an expired order at Alipay first, and one order paid twice.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { runScheduledJobs } from '../../src/server/jobs';
import { findAlipaySimTrade } from '../../src/server/db/alipay-simulator';
import { findOrder } from '../../src/server/db/orders';
import {
  alipaySimulatorKeys,
  signedNotification,
  simulateAlipayPayment,
} from '../../src/server/providers/pay/alipay-simulator';
import { generatePair } from '../../src/server/providers/pay/simulator';
import { BASE, callApi, callApiUntyped } from '../helpers/api';
import { operatorLogin } from '../helpers/operators';
import { outTradeNoOf, payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { newestNoticeTitled, packageCount, paymentCount, refundCount, refundNeeded } from '../helpers/money';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4750 fen, 15% off -> 4038
const PHONE = '13800001301';

beforeEach(resetWithCatalogue);

async function alipayOrder(mode: 'qr' | 'page' | 'wap' = 'qr') {
  const cookie = await verifiedBuyer(PHONE);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  const code = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'alipay', mode }, { cookie });
  const p = code.body.P;
  if (!p) throw new Error(`no pay code: ${JSON.stringify(code.body)}`);
  const outTradeNo =
    mode === 'qr'
      ? outTradeNoOf(p.codeUrl)
      : JSON.parse(new URL(p.codeUrl, BASE).searchParams.get('biz_content') ?? '{}').out_trade_no;
  return { cookie, order, code: p, outTradeNo: outTradeNo as string };
}

const postAlipayNotify = (body: string) =>
  SELF.fetch(`${BASE}/pay/notify/alipay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  });

const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const packages = () => packageCount();

/** Pay a trade at the stand-in and return the notification it would send (without sending it). */
async function paidNotification(outTradeNo: string) {
  const paid = await simulateAlipayPayment(env.DB, outTradeNo, { now: Date.now(), isProduction: false });
  if (!paid) throw new Error('not payable');
  return paid;
}

describe('the cashier offers Alipay', () => {
  it('a QR code for desktops, a signed gateway redirect for page and phone payments', async () => {
    const { code, order, cookie } = await alipayOrder('qr');
    expect(code).toMatchObject({ rail: 'alipay', mode: 'qr', provider: 'alipay-simulator', alipayAvailable: true });
    expect(code.codeUrl).toMatch(/\/dev\/alipay\/pay\?out_trade_no=P\d{14}/);
    const cashier = await SELF.fetch(new URL(code.codeUrl, BASE));
    expect(await cashier.text()).toContain('¥40.38');
    for (const mode of ['page', 'wap'] as const) {
      const r = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'alipay', mode }, { cookie });
      const url = new URL(r.body.P?.codeUrl ?? '', BASE);
      expect(url.pathname).toBe('/dev/alipay/gateway.do');
      expect(url.searchParams.get('method')).toBe(mode === 'page' ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay');
      expect(url.searchParams.get('return_url')).toContain(`/payPage?orderNo=${order.orderNo}`);
      const opened = await SELF.fetch(url, { redirect: 'manual' });
      expect(opened.status).toBe(302);
    }
    // WeChat stays the default rail, and asking again reuses each live attempt instead of opening new ones: the
    // order's WeChat attempt (opened when it was placed) and one Alipay attempt per way of paying.
    const wechat = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo }, { cookie });
    expect(wechat.body.P?.rail).toBe('wechat');
    await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'alipay' }, { cookie });
    expect(await paymentCount({ orderNo: order.orderNo })).toBe(4);
  });

  it('refuses an unknown rail or mode', async () => {
    const { cookie, order } = await alipayOrder();
    const bad = await callApiUntyped('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'paypal' }, { cookie });
    expect(bad.body.E).toBe('参数错误');
    expect(bad.body.P).toBeUndefined();
  });
});

describe('the notify route', () => {
  it('pays the order once through the cashier, and answers success to every verified repeat', async () => {
    const { cookie, order, code } = await alipayOrder();
    const page = new URL(code.codeUrl, BASE);
    const res = await SELF.fetch(`${BASE}/dev/alipay/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `out_trade_no=${page.searchParams.get('out_trade_no')}`,
    });
    expect(await res.text()).toContain('商户应答：success');
    const state = await callApi('PayOrder.GetOrderStateByOrderId', { orderNo: order.orderNo }, { cookie });
    expect(state.body.P?.state).toBe(2);
    expect(await packages()).toBe(1);
    expect(await paymentCount({ state: 'paid', provider: 'alipay-simulator' })).toBe(1);
  });

  it('a replayed notification changes nothing', async () => {
    const { order, outTradeNo } = await alipayOrder();
    const paid = await paidNotification(outTradeNo);
    const [a, b] = await Promise.all([postAlipayNotify(paid.body), postAlipayNotify(paid.body)]);
    expect([await a.text(), await b.text()]).toEqual(['success', 'success']);
    expect(await (await postAlipayNotify(paid.body)).text()).toBe('success');
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packages()).toBe(1);
  });

  it('a forged, tampered or foreign notification changes nothing and is not acknowledged', async () => {
    const { order, outTradeNo } = await alipayOrder();
    const paid = await paidNotification(outTradeNo);
    const keys = await alipaySimulatorKeys(env.DB, false, Date.now());
    const other = await generatePair();
    const forged = await signedNotification({ ...keys, alipayPrivatePem: other.privatePem }, paid.trade, Date.now());
    const tampered = new URLSearchParams(paid.body);
    tampered.set('total_amount', '0.01');
    const foreign = await signedNotification(keys, paid.trade, Date.now(), { app_id: '2021999999999999' });
    for (const body of [forged, tampered.toString(), foreign, 'not a form', '']) {
      const res = await postAlipayNotify(body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toBe('success');
    }
    expect(await orderState(order.orderNo)).toBe(1);
    expect(await packages()).toBe(0);
  });

  it('a verified notification whose amount differs from our order is recorded for a refund, never fulfilled', async () => {
    const { order, outTradeNo } = await alipayOrder();
    const paid = await paidNotification(outTradeNo);
    const keys = await alipaySimulatorKeys(env.DB, false, Date.now());
    const wrong = await signedNotification(keys, { ...paid.trade, amountFen: 1 }, Date.now());
    expect(await (await postAlipayNotify(wrong)).text()).toBe('success');
    expect(await orderState(order.orderNo)).toBe(1);
    expect(await refundNeeded(outTradeNo)).toBe(true);
  });

  it('an Alipay notification never pays a WeChat attempt', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const wechatNo = outTradeNoOf(order.codeUrl ?? '');
    const keys = await alipaySimulatorKeys(env.DB, false, Date.now());
    const body = await signedNotification(
      keys,
      {
        outTradeNo: wechatNo,
        subject: '',
        amountFen: order.payFen,
        notifyUrl: '',
        returnUrl: null,
        timeExpireMs: 0,
        status: 'TRADE_SUCCESS',
        tradeNo: '2026000000000000000000000001',
        paidAt: Date.now(),
        refundedFen: 0,
      },
      Date.now(),
    );
    const res = await postAlipayNotify(body);
    expect(res.status).toBe(400);
    expect(await orderState(order.orderNo)).toBe(1);
  });
});

describe('jobs', () => {
  it('a lost notification is healed by the reconciling job asking Alipay', async () => {
    const { order, outTradeNo } = await alipayOrder();
    await paidNotification(outTradeNo); // paid at Alipay; the notification never arrives
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 2 * 60_000);
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packages()).toBe(1);
  });

  it('an expired unpaid order is closed at Alipay first', async () => {
    const { order, outTradeNo } = await alipayOrder();
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 31 * 60_000);
    expect(await orderState(order.orderNo)).toBe(3);
    expect((await findAlipaySimTrade(env.DB, outTradeNo))?.status).toBe('TRADE_CLOSED');
  });

  it('one order paid on both rails: the first payment fulfils it, the second goes back to Alipay by itself', async () => {
    const { cookie, order, outTradeNo } = await alipayOrder();
    const wechat = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo }, { cookie });
    await payInSimulator(wechat.body.P?.codeUrl ?? '');
    expect(await orderState(order.orderNo)).toBe(2);
    const paid = await paidNotification(outTradeNo);
    expect(await (await postAlipayNotify(paid.body)).text()).toBe('success');
    expect(await packages()).toBe(1);
    expect(await refundNeeded(outTradeNo)).toBe(true);
    // The payments job refunds the second payment to its own rail, once, without an operator.
    await runScheduledJobs('*/5 * * * *', env as never, Date.now());
    await runScheduledJobs('*/5 * * * *', env as never, Date.now());
    expect((await findAlipaySimTrade(env.DB, outTradeNo))?.refundedFen).toBe(order.payFen);
    expect(await refundNeeded(outTradeNo)).toBe(false);
    expect(await refundCount({ outTradeNo, status: 'SUCCESS' })).toBe(1);
    // The order stays paid by the first payment, with its package.
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packages()).toBe(1);
  });
});

describe('refunds', () => {
  it('an order paid with Alipay is refunded to Alipay, in part and then the rest', async () => {
    const { order, outTradeNo, code, cookie } = await alipayOrder();
    await SELF.fetch(`${BASE}/dev/alipay/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `out_trade_no=${new URL(code.codeUrl, BASE).searchParams.get('out_trade_no')}`,
    });
    expect(await orderState(order.orderNo)).toBe(2);
    const finance = await operatorLogin('finance');
    const part = await callApi(
      'Order.RefundByOrderNo',
      { orderNo: order.orderNo, reason: '部分退款', amountFen: 1000 },
      { cookie: finance.cookie },
    );
    expect(part.body.E).toBeUndefined();
    expect((await findAlipaySimTrade(env.DB, outTradeNo))?.refundedFen).toBe(1000);
    expect(await orderState(order.orderNo)).toBe(2);
    const rest = await callApi(
      'Order.RefundByOrderNo',
      { orderNo: order.orderNo, reason: '余额退款' },
      { cookie: finance.cookie },
    );
    expect(rest.body.E).toBeUndefined();
    expect((await findAlipaySimTrade(env.DB, outTradeNo))?.refundedFen).toBe(order.payFen);
    expect(await orderState(order.orderNo)).toBe(4);
    // The customer is told the money went back to Alipay, on the order and in the notice.
    const detail = await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie });
    expect(detail.body.P?.payRail).toBe('alipay');
    expect(detail.body.P?.refunds.map((r) => r.amountFen).sort()).toEqual([1000, order.payFen - 1000].sort());
    const notice = await newestNoticeTitled('订单退款 ¥10.00');
    expect(notice?.html).toContain('原路退回支付宝');
    // The operator reads Alipay's words wherever the refund shows: the answer the toast words, the order detail, the
    // audit log (docs/decisions/241).
    expect(rest.body.P).toMatchObject({ status: 'SUCCESS', rail: 'alipay' });
    const seen = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, { cookie: finance.cookie });
    expect(seen.body.P?.refunds.map((r) => [r.rail, r.statusText])).toEqual([
      ['alipay', '已退回支付宝'],
      ['alipay', '已退回支付宝'],
    ]);
    const log = await callApi(
      'Admin.AuditSearch',
      { action: 'Order.RefundByOrderNo', target: `order:${order.orderNo}` },
      { cookie: finance.cookie },
    );
    const changes = log.body.P?.list.flatMap((e) => e.changes) ?? [];
    expect(changes).toContainEqual({ field: '退款状态', before: null, after: '已退回支付宝' });
    expect(changes).toContainEqual({ field: '退回渠道', before: null, after: '支付宝' });
    expect(JSON.stringify(changes)).not.toContain('微信');
  });
});
