// Catalogue, checkout, coupons and bills through /api; and the payment simulator locked out of production.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEdgeApp } from '../../src/edge/app';
import { readConfig } from '../../src/server/env';
import { payProviderFor } from '../../src/server/providers/pay';
import { userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped, loginBySms } from '../helpers/api';
import { place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { makePackage } from '../helpers/delivery';
import {
  couponIssued,
  firstSimTransaction,
  forceOrderPaid,
  newestUserCoupon,
  orderCount,
  packagesOfUser,
  simTransactionCount,
  userCouponFacts,
} from '../helpers/money';
import { ORDER_STATE } from '../../src/lib/order-states';
import { USER_COUPON_STATE } from '../../src/lib/coupon-states';
import { findOrder } from '../../src/server/db/orders';
import { findSimulatorKeys } from '../../src/server/db/pay-simulator';

const MEAL = 101_010; // 4750 fen, 15% off -> 4038

beforeEach(resetWithCatalogue);

describe('catalogue', () => {
  it('reports the overview maxima and the seed discount tags', async () => {
    const overview = await callApi('ProxyMeal.GetMealOverview');
    expect(overview.body.P?.meaDiscountMax).toEqual({ 10: 15, 40: 10, 30: 5, 50: 0 });
    expect(overview.body.P?.mealSendMax).toEqual({ 10: 20, 40: 0, 30: 0, 50: 0 });
    const short = await callApi('ProxyMeal.GetMealWithActivity', {
      type: 10,
    });
    expect(short.body.P?.ipTimes.map((t) => t.minutes)).toEqual([3, 5, 10, 15, 30]);
    expect(short.body.P?.meals.find((m) => m.id === MEAL)).toMatchObject({ tag: '折扣15%', payFen: 4038 });
    expect(short.body.P?.meals.find((m) => m.billingMethod === 2)?.tag).toBe('赠量20%');
    const premium = await callApi('ProxyMeal.GetMealWithActivity', { type: 50 });
    expect(premium.body.P?.meals.find((m) => m.isOverseas)?.tag).toBe('超低折扣');
    expect(premium.body.P?.regions.length).toBe(26);
    expect((await callApiUntyped('ProxyMeal.GetMealWithActivity', { type: 20 })).body.E).toBe(
      '产品类型必须是 10、40、30 或 50',
    );
  });
});

describe('checkout', () => {
  it('requires a session and real-name authentication to buy', async () => {
    expect((await callApi('PayOrder.BuyProxy', { mealId: MEAL, units: 1 })).status).toBe(401);
    const cookie = await loginBySms('13800002001');
    const res = await callApi('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, { cookie });
    expect(res.body.E).toBe('请先完成实名认证');
    expect(await orderCount()).toBe(0);
  });

  it('ignores a client-sent amount: the order and the WeChat order carry the catalogue price', async () => {
    const cookie = await verifiedBuyer('13800002002');
    const sent = { mealId: MEAL, units: 2, payFen: 1, amount: 1, price: 1, discountPercent: 99 };
    const order = await place('PayOrder.BuyProxy', sent, cookie);
    expect(order.payFen).toBe(8075); // 9500 - 15% (1425)
    expect((await findOrder(env.DB, order.orderNo))?.payFen).toBe(8075);
    expect((await firstSimTransaction())?.amountFen).toBe(8075);
  });

  it('quotes what it charges and offers the best coupon', async () => {
    const cookie = await verifiedBuyer('13800002003');
    await callApi('Coupon.Receive', { couponId: 1 }, { cookie });
    await callApi('Coupon.Receive', { couponId: 2 }, { cookie });
    const request = { kind: 'buy' as const, mealId: MEAL, units: 2 };
    const q = await callApi('PayOrder.Quote', { request }, { cookie });
    expect(q.body.P?.payFen).toBe(8075);
    expect(q.body.P?.applicableCoupons.map((c) => c.reductionFen)).toEqual([807, 500]);
    const best = q.body.P?.bestCouponId ?? undefined;
    const withCoupon = await callApi('PayOrder.Quote', { request, couponId: best }, { cookie });
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 2, couponId: best }, cookie);
    expect(order.payFen).toBe(withCoupon.body.P?.payFen);
    expect(order.payFen).toBe(7268);
    // Visitors get prices without coupons.
    expect((await callApi('PayOrder.Quote', { request })).body.P?.payFen).toBe(8075);
  });

  it('lets one of two concurrent checkouts use a coupon, never both', async () => {
    const cookie = await verifiedBuyer('13800002004');
    await callApi('Coupon.Receive', { couponId: 1 }, { cookie });
    const couponId = await newestUserCoupon();
    const results = await Promise.all(
      [1, 2, 3].map(() => callApi('PayOrder.BuyProxy', { mealId: MEAL, units: 1, couponId }, { cookie })),
    );
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === '优惠券不可用或已被使用').length).toBe(2);
    expect(await orderCount()).toBe(1);
    expect(await orderCount({ userCouponId: couponId })).toBe(1);
    expect((await userCouponFacts(couponId))?.state).toBe(USER_COUPON_STATE.locked);
  });

  it("refuses someone else's coupon and package", async () => {
    const a = await verifiedBuyer('13800002005');
    const b = await verifiedBuyer('13800002006');
    await callApi('Coupon.Receive', { couponId: 1 }, { cookie: a });
    const couponId = await newestUserCoupon();
    expect((await callApi('PayOrder.BuyProxy', { mealId: MEAL, units: 1, couponId }, { cookie: b })).body.E).toBe(
      '优惠券不可用或已被使用',
    );
    await makePackage(await userIdOf('13800002005'));
    const pkg = (await packagesOfUser(await userIdOf('13800002005')))[0]?.id ?? 0;
    expect((await callApi('PayOrder.RenewProxy', { packageId: pkg, periods: 1 }, { cookie: b })).body.E).toBe(
      '套餐不存在',
    );
    expect((await callApi('PayOrder.RenewProxy', { packageId: pkg, periods: 1 }, { cookie: a })).body.E).toBe(
      '该套餐不支持续费',
    );
  });

  it('requires a matching region for fixed and premium IPs', async () => {
    const cookie = await verifiedBuyer('13800002007');
    expect((await callApi('PayOrder.BuyProxy', { mealId: 302_001, units: 2 }, { cookie })).body.E).toBe('请选择地区');
    expect((await callApi('PayOrder.BuyProxy', { mealId: 502_100, units: 1, regionId: 1 }, { cookie })).body.E).toBe(
      '所选地区不可用',
    );
    const ok = await place('PayOrder.BuyProxy', { mealId: 302_001, units: 2, regionId: 3 }, cookie);
    expect(ok.payFen).toBe(11_400); // 2 x 6000 - 5%
  });
});

describe('coupons', () => {
  it('gives each user at most the per-user limit, even concurrently', async () => {
    const cookie = await verifiedBuyer('13800003001');
    const res = await Promise.all([1, 2, 3, 4].map(() => callApi('Coupon.Receive', { couponId: 1 }, { cookie })));
    expect(res.filter((r) => r.body.P).length).toBe(1);
    expect(res.find((r) => r.body.E)?.body.E).toBe('您已领取过该优惠券');
    const list = await callApi('Coupon.GetList', { state: 1 }, { cookie });
    expect(list.body.P?.list.map((c) => c.name)).toEqual(['新人专享券']);
    expect(await couponIssued(1)).toBe(1);
  });
});

describe('bills', () => {
  it('lists, counts and deletes only the owner’s unpaid or closed orders', async () => {
    const a = await verifiedBuyer('13800004001');
    const b = await verifiedBuyer('13800004002');
    const o1 = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, a);
    const o2 = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 3 }, a);
    await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, b);
    expect((await callApi('Order.GetPayNoCount', {}, { cookie: a })).body.P).toEqual({ count: 2 });
    const page = await callApi('Order.GetBillList', { page: 2, pageSize: 1 }, { cookie: a });
    expect(page.body.P?.total).toBe(2);
    expect(page.body.P?.list.map((o) => o.orderNo)).toEqual([o1.orderNo]);

    expect((await callApi('Order.DeleteByOrderNos', { orderNos: [o1.orderNo] }, { cookie: b })).body.E).toBe(
      '只能删除待支付或已关闭的订单',
    );
    await forceOrderPaid(o2.orderNo);
    const del = await callApi('Order.DeleteByOrderNos', { orderNos: [o1.orderNo, o2.orderNo] }, { cookie: a });
    expect(del.body.P).toEqual({ deleted: 1 });
    expect((await findOrder(env.DB, o1.orderNo))?.state).toBe(ORDER_STATE.closed);
    expect(await simTransactionCount('CLOSED')).toBe(1);
    const left = await callApi('Order.GetBillList', {}, { cookie: a });
    expect(left.body.P?.total).toBe(1);
    expect((await callApi('Order.GetPayNoCount', {}, { cookie: a })).body.P).toEqual({ count: 0 });
  });
});

describe('the payment simulator in production', () => {
  const prodEnv = {
    ...env,
    APP_ENV: 'production',
    API_AES_KEY: 'a1'.repeat(32),
    API_AES_IV: 'b2'.repeat(16),
    SESSION_SECRET: 'p'.repeat(40),
    CHAT_SIGN_SECRET: 'c'.repeat(40),
    PAY_PROVIDER: 'simulator',
  };

  it('cannot be reached or selected', async () => {
    const app = createEdgeApp();
    for (const path of ['/dev/wechatpay/pay?out_trade_no=P123456', '/dev/wechatpay/v3/pay/transactions/native']) {
      expect((await app.request(path, { method: path.includes('v3') ? 'POST' : 'GET' }, prodEnv)).status).toBe(404);
    }
    expect((await app.request('/dev/wechatpay/pay', { method: 'POST', body: 'out_trade_no=P1' }, prodEnv)).status).toBe(
      404,
    );
    const config = readConfig(prodEnv as never);
    expect(config.pay.kind).toBe('wechat');
    await expect(payProviderFor(prodEnv as never, config)).rejects.toThrow(/WeChat Pay is not configured/);
    expect(await findSimulatorKeys(env.DB)).toBeNull();
  });
});
