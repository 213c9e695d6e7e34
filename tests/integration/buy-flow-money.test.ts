// Issue 13 (money and trust): the coupon threshold rule the pages state, cancelling a pending order, the order
// detail, and the commission rules both promotion pages show.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { couponThresholdText } from '../../src/lib/coupon-rules';
import { callApi } from '../helpers/api';
import { USER_COUPON_STATE } from '../../src/lib/coupon-states';
import { ORDER_STATE } from '../../src/lib/order-states';
import { findOrder } from '../../src/server/db/orders';
import { findSimTransaction } from '../../src/server/db/pay-simulator';
import { outTradeNoOf, payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { newestUserCoupon, orderCount, paymentCount, userCouponFacts } from '../helpers/money';

const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const couponState = async (id: number) => (await userCouponFacts(id))?.state;

/** The default ¥10.00 package: 短效动态IP 按量 10000个 · 3分钟, 15% off -> ¥8.50. */
const DEFAULT_MEAL = 101_000;
const NEW_USER_COUPON = 1; // ¥5, 满¥10.00

beforeEach(resetWithCatalogue);

describe('the coupon threshold is met by the original price', () => {
  it('applies the ¥5 新人专享券 「订单原价满¥10.00可用」 to the default ¥10.00 package discounted to ¥8.50', async () => {
    const cookie = await verifiedBuyer('13800013001');
    expect((await callApi('Coupon.Receive', { couponId: NEW_USER_COUPON }, { cookie })).body.E).toBeUndefined();
    const request = { kind: 'buy' as const, mealId: DEFAULT_MEAL, units: 1 };
    const q = (await callApi('PayOrder.Quote', { request }, { cookie })).body.P;
    expect(q).toMatchObject({ listFen: 1000, discountFen: 150, payFen: 850 });
    expect(q?.applicableCoupons).toHaveLength(1);
    expect(q?.applicableCoupons[0]?.reductionFen).toBe(500);
    const order = await place(
      'PayOrder.BuyProxy',
      { mealId: DEFAULT_MEAL, units: 1, couponId: q?.bestCouponId ?? undefined },
      cookie,
    );
    expect(order.payFen).toBe(350);
    expect((await findOrder(env.DB, order.orderNo))?.couponFen).toBe(500);
    // The wording the pages show comes from the same rule.
    expect(couponThresholdText(1000)).toBe('订单原价满¥10.00可用');
    expect(couponThresholdText(0)).toBe('无门槛');
  });

  it('still refuses an order whose original price is under the threshold', async () => {
    const cookie = await verifiedBuyer('13800013002');
    await callApi('Coupon.Receive', { couponId: 2 }, { cookie }); // 9折, 满¥50.00
    const couponId = await newestUserCoupon();
    const request = { kind: 'buy' as const, mealId: DEFAULT_MEAL, units: 1 };
    expect((await callApi('PayOrder.Quote', { request }, { cookie })).body.P?.applicableCoupons).toEqual([]);
    const res = await callApi('PayOrder.BuyProxy', { mealId: DEFAULT_MEAL, units: 1, couponId }, { cookie });
    expect(res.body.E).toBe('该优惠券不适用于当前订单');
    expect(await orderCount()).toBe(0);
  });
});

describe('取消订单', () => {
  it('closes the pending order at WeChat Pay, closes it and gives the coupon back, in one step', async () => {
    const cookie = await verifiedBuyer('13800013003');
    await callApi('Coupon.Receive', { couponId: NEW_USER_COUPON }, { cookie });
    const couponId = await newestUserCoupon();
    const order = await place('PayOrder.BuyProxy', { mealId: DEFAULT_MEAL, units: 1, couponId }, cookie);
    expect(await couponState(couponId)).toBe(USER_COUPON_STATE.locked);
    const res = await callApi('Order.Cancel', { orderNo: order.orderNo }, { cookie });
    expect(res.body.P?.state).toBe(3);
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.closed);
    expect(await couponState(couponId)).toBe(USER_COUPON_STATE.unused);
    expect(await paymentCount({ orderNo: order.orderNo, state: 'closed' })).toBe(1);
    const outTradeNo = outTradeNoOf(order.codeUrl ?? '');
    expect((await findSimTransaction(env.DB, outTradeNo))?.tradeState).toBe('CLOSED');
    // The coupon is offered again at once.
    const q = await callApi('PayOrder.Quote', { request: { kind: 'buy', mealId: DEFAULT_MEAL, units: 1 } }, { cookie });
    expect(q.body.P?.bestCouponId).toBe(couponId);
    // A second cancel is refused.
    expect((await callApi('Order.Cancel', { orderNo: order.orderNo }, { cookie })).body.E).toBe('只能取消待支付的订单');
  });

  it('belongs to the owner only, and refuses a paid order', async () => {
    const owner = await verifiedBuyer('13800013004');
    const other = await verifiedBuyer('13800013005');
    const order = await place('PayOrder.BuyProxy', { mealId: DEFAULT_MEAL, units: 1 }, owner);
    expect((await callApi('Order.Cancel', { orderNo: order.orderNo }, { cookie: other })).body.E).toBe('订单不存在');
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.pending);
    await payInSimulator(order.codeUrl ?? '');
    expect((await callApi('Order.Cancel', { orderNo: order.orderNo }, { cookie: owner })).body.E).toBe(
      '该订单已支付成功，无法取消，请刷新查看',
    );
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.paid);
    expect((await callApi('Order.Cancel', { orderNo: 'bad' }, { cookie: owner })).body.E).toBeTruthy();
  });

  it('treats an order paid at WeChat but not yet notified as paid, not cancelled', async () => {
    const cookie = await verifiedBuyer('13800013006');
    const order = await place('PayOrder.BuyProxy', { mealId: DEFAULT_MEAL, units: 1 }, cookie);
    await payInSimulator(order.codeUrl ?? '', true);
    expect((await callApi('Order.Cancel', { orderNo: order.orderNo }, { cookie })).body.E).toBe(
      '该订单已支付成功，无法取消，请刷新查看',
    );
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.paid);
  });
});

describe('order detail', () => {
  it('shows what was bought, every amount, the times and the payment numbers of a paid order', async () => {
    const cookie = await verifiedBuyer('13800013007');
    await callApi('Coupon.Receive', { couponId: NEW_USER_COUPON }, { cookie });
    const couponId = await newestUserCoupon();
    const order = await place('PayOrder.BuyProxy', { mealId: DEFAULT_MEAL, units: 2, couponId }, cookie);
    await payInSimulator(order.codeUrl ?? '');
    const d = (await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie })).body.P;
    expect(d).toMatchObject({
      state: 2,
      listFen: 2000,
      discountFen: 300,
      couponFen: 500,
      couponName: '新人专享券',
      payFen: 1200,
      outTradeNo: outTradeNoOf(order.codeUrl ?? ''),
    });
    expect(d?.items).toEqual([expect.objectContaining({ units: 2, addCount: 20_000, addDays: 365 })]);
    expect(d?.paidAt).toBeGreaterThan(0);
    expect(d?.transactionId).toMatch(/\d+/);
    const other = await verifiedBuyer('13800013008');
    expect((await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie: other })).body.E).toBe('订单不存在');
  });
});
