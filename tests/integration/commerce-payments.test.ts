// Paying through WeChat Pay (the local simulator speaking the signed v3 protocol): the notify route accepts only
// verified, matching callbacks, marks an order paid exactly once and fulfils it in the same batch.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { USER_COUPON_STATE } from '../../src/lib/coupon-states';
import { findOrder } from '../../src/server/db/orders';
import { runScheduledJobs } from '../../src/server/jobs';
import { TEST_PLATFORM_PRIVATE_PEM } from '../fixtures/wechatpay/keys';
import { userIdOf } from '../helpers/accounts';
import { BASE, callApi } from '../helpers/api';
import {
  notification,
  outTradeNoOf,
  payInSimulator,
  place,
  postNotify,
  resetWithCatalogue,
  verifiedBuyer,
} from '../helpers/commerce';
import {
  firstSimTransaction,
  newestUserCoupon,
  orderCount,
  packageCount,
  packagesOfUser,
  paymentCount,
  paymentNote,
  refundNeeded,
  setRemainingCount,
  userCouponFacts,
} from '../helpers/money';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4750 fen, 15% off -> 4038
const PHONE = '13800001001';

beforeEach(resetWithCatalogue);

const packagesOf = async (phone: string) => packagesOfUser(await userIdOf(phone));

const orderRow = (orderNo: string) => findOrder(env.DB, orderNo);

async function buy(phone = PHONE) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  if (!order.codeUrl) throw new Error('no code url');
  return { cookie, order, outTradeNo: outTradeNoOf(order.codeUrl) };
}

describe('paying in the simulator', () => {
  it('pays through the real notify route, fulfils the package, then renews it', async () => {
    const { cookie, order } = await buy();
    expect(order.payFen).toBe(4038);
    const pagePath = new URL(order.codeUrl ?? '', BASE);
    const page = await SELF.fetch(`${BASE}${pagePath.pathname}${pagePath.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('¥40.38');

    const paid = await payInSimulator(order.codeUrl ?? '');
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('商户应答 HTTP 204');

    const state = await callApi('PayOrder.GetOrderStateByOrderId', { orderNo: order.orderNo }, { cookie });
    expect(state.body.P?.state).toBe(2);
    const [pkg] = await packagesOf(PHONE);
    expect(pkg).toMatchObject({ totalCount: 50_000, remainingCount: 50_000, state: 1, sourceRef: order.orderNo });
    expect((await orderRow(order.orderNo))?.fulfilledAt).not.toBeNull();

    const renew = await place('PayOrder.RenewProxy', { packageId: pkg?.id ?? 0, periods: 1 }, cookie);
    expect(renew.payFen).toBe(4038);
    await payInSimulator(renew.codeUrl ?? '');
    const [after] = await packagesOf(PHONE);
    expect(after?.totalCount).toBe(100_000);
    expect(after?.remainingCount).toBe(100_000);
    expect((after?.expiresAt ?? 0) - (pkg?.expiresAt ?? 0)).toBe(365 * 86_400_000);
    expect(await packagesOf(PHONE)).toHaveLength(1);

    const bills = await callApi('Order.GetBillList', { state: 2 }, { cookie });
    expect(bills.body.P?.total).toBe(2);
    expect(bills.body.P?.list.map((b) => b.kindText)).toEqual(['续费', '新购']);
  });

  it('answers two concurrent identical callbacks with success and fulfils once', async () => {
    const { order, outTradeNo } = await buy();
    const n = await notification({ outTradeNo, amountTotalFen: order.payFen, attach: order.orderNo });
    const [a, b] = await Promise.all([postNotify(n), postNotify(n)]);
    expect([a.status, b.status]).toEqual([204, 204]);
    expect(await packagesOf(PHONE)).toHaveLength(1);
    expect(await paymentCount({ state: 'paid' })).toBe(1);
    // ...and a later replay of the same callback changes nothing either.
    expect((await postNotify(n)).status).toBe(204);
    expect(await packagesOf(PHONE)).toHaveLength(1);
    expect((await orderRow(order.orderNo))?.state).toBe(2);
  });

  it('rejects a forged callback signed with another key', async () => {
    const { order, outTradeNo } = await buy();
    const forged = await notification(
      { outTradeNo, amountTotalFen: order.payFen, attach: order.orderNo },
      { platformPrivatePem: TEST_PLATFORM_PRIVATE_PEM },
    );
    const res = await postNotify(forged);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'FAIL' });
    expect((await orderRow(order.orderNo))?.state).toBe(1);
    expect(await packagesOf(PHONE)).toHaveLength(0);
  });

  it('rejects a tampered body, a stale replay and a SIGNTEST probe', async () => {
    const { order, outTradeNo } = await buy();
    const good = await notification({ outTradeNo, amountTotalFen: order.payFen, attach: order.orderNo });
    const tampered = { ...good, body: good.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') };
    expect((await postNotify(tampered)).status).toBe(401);
    const stale = await notification(
      { outTradeNo, amountTotalFen: order.payFen, attach: order.orderNo },
      { nowMs: Date.now() - 6 * 60_000 },
    );
    expect((await postNotify(stale)).status).toBe(401);
    const probe = await notification(
      { outTradeNo, amountTotalFen: order.payFen, attach: order.orderNo },
      { probe: true },
    );
    expect((await postNotify(probe)).status).toBe(401);
    expect((await orderRow(order.orderNo))?.state).toBe(1);
    expect(await packagesOf(PHONE)).toHaveLength(0);
  });

  it('never pays an order from a signed callback whose amount or order does not match ours', async () => {
    const a = await buy('13800001002');
    const b = await buy('13800001003');
    // Verified but mismatched: recorded on the attempt for a refund and acknowledged (WeChat stops retrying).
    const cheap = await notification({ outTradeNo: b.outTradeNo, amountTotalFen: 1, attach: b.order.orderNo });
    expect((await postNotify(cheap)).status).toBe(204);
    const foreign = await notification({
      outTradeNo: b.outTradeNo,
      amountTotalFen: b.order.payFen,
      attach: a.order.orderNo,
    });
    expect((await postNotify(foreign)).status).toBe(204);
    const dollars = await notification({
      outTradeNo: b.outTradeNo,
      amountTotalFen: b.order.payFen,
      attach: b.order.orderNo,
      currency: 'USD',
    });
    expect((await postNotify(dollars)).status).toBe(204);
    expect(await refundNeeded(b.outTradeNo)).toBe(true);
    expect(await paymentNote(b.outTradeNo)).toMatch(
      /^微信通知支付成功（SUCCESS），但与本单记录不符：金额 1 分，.*；微信通知支付成功（SUCCESS）.*；微信通知支付成功（SUCCESS），但与本单记录不符：金额 \d+ 分，币种 USD，/,
    );
    expect(await refundNeeded(a.outTradeNo)).toBe(false);
    // An attempt we never created has nothing to record against: refused.
    const unknown = await notification({ outTradeNo: 'P20990101000000AAAAAAAAAAAAAAAA', amountTotalFen: 100 });
    expect((await postNotify(unknown)).status).toBe(400);
    expect((await orderRow(a.order.orderNo))?.state).toBe(1);
    expect((await orderRow(b.order.orderNo))?.state).toBe(1);
    expect(await packageCount()).toBe(0);
  });

  it("keeps a mismatch note's instruction to the operator whole, however long WeChat's attach", async () => {
    const { order, outTradeNo } = await buy('13800001004');
    const attach = `${order.orderNo}${'X'.repeat(100)}`;
    const long = await notification({ outTradeNo, amountTotalFen: order.payFen, attach });
    expect((await postNotify(long)).status).toBe(204);
    const note = String(await paymentNote(outTradeNo));
    expect(note).toContain(`附加数据 ${attach.slice(0, 64)}…，微信支付单号`);
    expect(note).toMatch(/请在微信支付商户平台按商户单号退款后手动清除需退款标记$/);
    expect((await orderRow(order.orderNo))?.state).toBe(1);
  });

  it('heals a lost callback: the reconcile job asks the provider and fulfils', async () => {
    const { order } = await buy();
    const res = await payInSimulator(order.codeUrl ?? '', true);
    expect(await res.text()).toContain('未发送回调');
    expect((await orderRow(order.orderNo))?.state).toBe(1);
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 2 * 60_000);
    expect((await orderRow(order.orderNo))?.state).toBe(2);
    expect(await packagesOf(PHONE)).toHaveLength(1);
  });

  it('closes expired unpaid orders at the provider and returns their coupon', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const uid = await userIdOf(PHONE);
    await callApi('Coupon.Receive', { couponId: 1 }, { cookie });
    const couponId = await newestUserCoupon(uid);
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1, couponId }, cookie);
    expect(order.payFen).toBe(3538);
    expect((await userCouponFacts(couponId))?.state).toBe(USER_COUPON_STATE.locked);
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 31 * 60_000);
    expect((await orderRow(order.orderNo))?.state).toBe(3);
    expect((await userCouponFacts(couponId))?.state).toBe(USER_COUPON_STATE.unused);
    expect((await firstSimTransaction())?.tradeState).toBe('CLOSED');
    // The page can no longer pay it.
    expect((await payInSimulator(order.codeUrl ?? '')).status).toBe(409);
  });
});

describe('upgrade and merge', () => {
  it('credits the remaining value, retires the sources once, and refuses a package already in another order', async () => {
    const { cookie, order } = await buy();
    await payInSimulator(order.codeUrl ?? '');
    const [src] = await packagesOf(PHONE);
    await setRemainingCount(src?.id ?? 0, 25_000);
    const list = await callApi('ProxyUpgrade.getProxyList', { type: 10 }, { cookie });
    expect(list.body.P?.list[0]?.creditFen).toBe(2019); // 4038 * 25000 / 50000
    const target = 101_020; // 200000个 · 3分钟
    const merge = await place(
      'ProxyUpgrade.mergeProxy',
      { packageIds: [src?.id ?? 0], mealId: target, units: 1 },
      cookie,
    );
    const again = await callApi(
      'ProxyUpgrade.mergeProxy',
      { packageIds: [src?.id ?? 0], mealId: target, units: 1 },
      { cookie },
    );
    expect(again.body.E).toBe('套餐已在其他待支付订单中，请先完成或取消该订单');
    const o = await orderRow(merge.orderNo);
    expect(o?.creditFen).toBe(2019);
    expect(o?.payFen).toBe((o?.listFen ?? 0) - (o?.discountFen ?? 0) - 2019);
    await payInSimulator(merge.codeUrl ?? '');
    const after = await packagesOf(PHONE);
    expect(after.map((p) => p.state)).toEqual([4, 1]);
    expect(after[1]?.totalCount).toBe(200_000);
    // A retired package cannot be credited twice.
    const twice = await callApi(
      'ProxyUpgrade.mergeProxy',
      { packageIds: [src?.id ?? 0], mealId: target, units: 1 },
      { cookie },
    );
    expect(twice.body.E).toBe('只能合并同一产品类型的有效套餐');
  });

  it('refuses an upgrade the credit would pay for entirely', async () => {
    const { cookie, order } = await buy();
    await payInSimulator(order.codeUrl ?? '');
    const [src] = await packagesOf(PHONE);
    const res = await callApi(
      'ProxyUpgrade.mergeProxy',
      { packageIds: [src?.id ?? 0], mealId: 101_000, units: 1 },
      { cookie },
    );
    expect(res.body.E).toBe('所选规格的价格需高于原套餐剩余价值，请选择更高规格');
    expect(await orderCount()).toBe(1);
  });
});
