// Partial refunds (docs/decisions/205) and the coupon of a refunded order (206): an operator refunds part of an order,
// capped by what is still refundable even under concurrent refunds; refunding what is left ends the order as a full
// refund does; the console's preview shows the package's usage and a pro-rata amount; a full refund gives a still
// valid coupon back, a partial one keeps it used; the customer sees each refund and gets a notice.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { USER_COUPON_STATE } from '../../src/lib/coupon-states';
import { REFUND_ROUTE_TEXT } from '../../src/lib/refund-rules';
import { findOrder } from '../../src/server/db/orders';
import { reserveRefund } from '../../src/server/db/refunds';
import { callApi } from '../helpers/api';
import { outTradeNoOf, payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import {
  expireUserCoupon,
  liveRefundedFen,
  newestUserCoupon,
  noticesOf,
  packageOfOrder,
  providerRefundedFen,
  providerRefunds,
  refundCount,
  useUpPackageTo,
  userCouponFacts,
} from '../helpers/money';
import { operatorLogin } from '../helpers/operators';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity (list 4750)
const NEWCOMER_COUPON = 1; // 新人专享券: ¥5 off from ¥10 (list price), types 10 and 40

beforeEach(resetWithCatalogue);

interface Preview {
  payFen: number;
  refundedFen: number;
  refundableFen: number;
  suggestedFen: number | null;
  usage: { ips: { total: number; used: number; left: number } | null; days: { used: number; left: number } }[];
  coupon: { name: string; returnable: boolean } | null;
  blocker: string | null;
}

interface Detail {
  state: number;
  payFen: number;
  refundedFen: number;
  refunds: { amountFen: number; status: string; reason: string; endsOrder: boolean; couponOutcome: string }[];
  coupon: { name: string } | null;
}

let phoneSeq = 0;

/** A customer's paid order (optionally with the newcomer coupon), and a finance operator. */
async function paidOrder(opts: { coupon?: boolean } = {}) {
  phoneSeq += 1;
  const cookie = await verifiedBuyer(`1380000${String(3000 + phoneSeq)}`);
  let couponId: number | undefined;
  if (opts.coupon) {
    await callApi('Coupon.Receive', { couponId: NEWCOMER_COUPON }, { cookie });
    couponId = await newestUserCoupon();
  }
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1, ...(couponId ? { couponId } : {}) }, cookie);
  expect(await (await payInSimulator(order.codeUrl ?? '')).text()).toContain('商户应答 HTTP 204');
  const finance = await operatorLogin('finance');
  return { ...order, outTradeNo: outTradeNoOf(order.codeUrl ?? ''), cookie, couponId, operator: finance.cookie };
}

const refund = (orderNo: string, cookie: string, p: { amountFen?: number; endPackages?: boolean } = {}) =>
  callApi('Order.RefundByOrderNo', { orderNo, reason: '客户申请部分退款', ...p }, { cookie });
const preview = async (orderNo: string, cookie: string) =>
  (await callApi('Admin.RefundPreview', { orderNo }, { cookie })).body.P as unknown as Preview;
const detail = async (orderNo: string, cookie: string) =>
  (await callApi('Order.GetDetail', { orderNo }, { cookie })).body.P as unknown as Detail;
const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const packageState = async (orderNo: string) => (await packageOfOrder(orderNo))?.state;
/** The notices sent to the customer of an order. */
const notices = async (orderNo: string) => noticesOf((await findOrder(env.DB, orderNo))?.userId ?? 0);

describe('partial refunds', { timeout: 30_000 }, () => {
  it('refunds part of an order (package kept), refuses more than is left, and ends the order with the rest', async () => {
    const o = await paidOrder();
    const first = await refund(o.orderNo, o.operator, { amountFen: 1000 });
    expect(first.body.E).toBeUndefined();
    expect(first.body.P).toMatchObject({ amountFen: 1000, endsOrder: false, endsPackages: false, status: 'SUCCESS' });
    expect(await orderState(o.orderNo)).toBe(2);
    expect(await packageState(o.orderNo)).toBe(1);
    // WeChat was asked for 1000 of the 4038 transaction (refund and total amounts).
    const [asked] = await providerRefunds(o.outTradeNo);
    expect(asked).toMatchObject({ amountFen: 1000, totalFen: 4038 });
    expect(await preview(o.orderNo, o.operator)).toMatchObject({
      payFen: 4038,
      refundedFen: 1000,
      refundableFen: 3038,
    });

    // More than what is left: refused in words, nothing written, nothing asked of WeChat.
    const over = await refund(o.orderNo, o.operator, { amountFen: 3039 });
    expect(over.body.E).toBe('退款金额超过可退金额：可退 ¥30.38');
    expect(await refundCount()).toBe(1);
    expect(await providerRefundedFen(o.outTradeNo)).toBe(1000);

    // The customer sees the refund on the order: amount, route, reason; and got a notice.
    const seen = await detail(o.orderNo, o.cookie);
    expect(seen).toMatchObject({ state: 2, refundedFen: 1000 });
    expect(seen.refunds).toEqual([
      expect.objectContaining({ amountFen: 1000, status: 'SUCCESS', reason: '客户申请部分退款', endsOrder: false }),
    ]);
    const bills = await callApi('Order.GetBillList', {}, { cookie: o.cookie });
    expect(bills.body.P?.list.find((b) => b.orderNo === o.orderNo)?.refundedFen).toBe(1000);
    const [notice] = await notices(o.orderNo);
    expect(notice?.title).toBe('订单退款 ¥10.00');
    expect(notice?.html).toContain(REFUND_ROUTE_TEXT);
    expect(notice?.html).toContain('套餐可继续使用');

    // What is left (no amount typed) is a final refund: the order ends as a full refund always did.
    const rest = await refund(o.orderNo, o.operator);
    expect(rest.body.P).toMatchObject({ amountFen: 3038, endsOrder: true, endsPackages: true });
    expect(await orderState(o.orderNo)).toBe(4);
    expect(await packageState(o.orderNo)).toBe(5);
    expect(await providerRefundedFen(o.outTradeNo)).toBe(4038);
    expect((await refund(o.orderNo, o.operator, { amountFen: 1 })).body.E).toBe('该订单已退款');
    expect((await detail(o.orderNo, o.cookie)).refundedFen).toBe(4038);
  });

  it('never refunds more than was paid under two concurrent partial refunds that together exceed it', async () => {
    const o = await paidOrder();
    const [a, b] = await Promise.all([
      refund(o.orderNo, o.operator, { amountFen: 3000 }),
      refund(o.orderNo, o.operator, { amountFen: 3000 }),
    ]);
    const outcomes = [a, b].map((r) => (r.body.P ? 'ok' : r.body.E));
    expect(outcomes.filter((x) => x === 'ok')).toHaveLength(1);
    expect(outcomes.find((x) => x !== 'ok')).toMatch(/正在退款中|超过可退金额/);
    expect(await liveRefundedFen(o.orderNo)).toBe(3000);
    expect(await providerRefundedFen(o.outTradeNo)).toBe(3000);
    // A second refund once the first has committed is refused by the cap itself, even with a stale view of the order
    // (the reserving INSERT checks the sum; a caller that thinks 4038 is still refundable gets nothing reserved).
    const stale = await reserveRefund(
      env.DB,
      {
        outRefundNo: 'R20990101000000STALE0000001',
        orderNo: o.orderNo,
        outTradeNo: o.outTradeNo,
        userId: (await findOrder(env.DB, o.orderNo))?.userId ?? 0,
        amountFen: 3000,
        operatorId: 1,
        reason: '并发',
        totalFen: 4038,
        endsOrder: false,
        endsPackages: false,
      },
      Date.now(),
    );
    expect(stale).toBe(false);
    expect(await liveRefundedFen(o.orderNo)).toBe(3000);
    expect(((await findOrder(env.DB, o.orderNo))?.payFen ?? 0) - 3000).toBeGreaterThan(0);
  });

  it('ends the package with a partial refund when asked, and keeps the order paid with the rest refundable', async () => {
    const o = await paidOrder();
    const res = await refund(o.orderNo, o.operator, { amountFen: 2000, endPackages: true });
    expect(res.body.P).toMatchObject({ endsOrder: false, endsPackages: true });
    expect(await orderState(o.orderNo)).toBe(2);
    expect(await packageState(o.orderNo)).toBe(5);
    expect((await preview(o.orderNo, o.operator)).refundableFen).toBe(2038);
  });

  it('shows the usage of the package and suggests the unused share, less what was refunded', async () => {
    const o = await paidOrder();
    const pkg = (await packageOfOrder(o.orderNo))?.id ?? 0;
    // 40% of the IPs used: 60% unused.
    await useUpPackageTo(pkg, 60);
    const p = await preview(o.orderNo, o.operator);
    expect(p.usage).toHaveLength(1);
    expect(p.usage[0]?.ips).toEqual({ total: 50_000, used: 20_000, left: 30_000 });
    expect(p.suggestedFen).toBe(Math.floor((4038 * 6000) / 10_000));
    await refund(o.orderNo, o.operator, { amountFen: 1000 });
    expect((await preview(o.orderNo, o.operator)).suggestedFen).toBe(Math.floor((4038 * 6000) / 10_000) - 1000);
  });
});

describe('the coupon of a refunded order', { timeout: 30_000 }, () => {
  const couponState = (id: number | undefined) => userCouponFacts(id ?? 0);

  it('a full refund gives a still valid coupon back, in the same batch, and tells the customer', async () => {
    const o = await paidOrder({ coupon: true });
    expect(o.payFen).toBe(3538);
    expect(await couponState(o.couponId)).toEqual({ state: USER_COUPON_STATE.used, orderNo: o.orderNo });
    expect((await preview(o.orderNo, o.operator)).coupon).toMatchObject({ name: '新人专享券', returnable: true });
    const res = await refund(o.orderNo, o.operator);
    expect(res.body.P).toMatchObject({ amountFen: 3538, endsOrder: true });
    expect(await couponState(o.couponId)).toEqual({ state: USER_COUPON_STATE.unused, orderNo: null });
    const seen = await detail(o.orderNo, o.cookie);
    expect(seen.refunds[0]?.couponOutcome).toBe('returned');
    const [notice] = await notices(o.orderNo);
    expect(notice?.html).toContain('优惠券「新人专享券」已退回您的账户');
    // The coupon is usable again.
    const mine = await callApi('Coupon.GetList', { state: 1 }, { cookie: o.cookie });
    expect(mine.body.P?.list.map((c) => c.id)).toContain(o.couponId);
  });

  it('a partial refund keeps the coupon used; an expired coupon is not given back by the final refund', async () => {
    const o = await paidOrder({ coupon: true });
    await refund(o.orderNo, o.operator, { amountFen: 500 });
    expect(await couponState(o.couponId)).toEqual({ state: USER_COUPON_STATE.used, orderNo: o.orderNo });
    expect((await detail(o.orderNo, o.cookie)).refunds[0]?.couponOutcome).toBe('kept');
    await expireUserCoupon(o.couponId ?? 0, Date.now() - 1000);
    await refund(o.orderNo, o.operator);
    expect(await couponState(o.couponId)).toEqual({ state: USER_COUPON_STATE.used, orderNo: o.orderNo });
    const seen = await detail(o.orderNo, o.cookie);
    expect(seen.refunds.map((r) => r.couponOutcome)).toEqual(['kept', 'expired']);
    const texts = (await notices(o.orderNo)).map((n) => n.html);
    expect(texts[0]).toContain('部分退款，优惠券「新人专享券」仍按已使用计');
    expect(texts[1]).toContain('优惠券「新人专享券」已过期，不再退回');
  });
});
