// Commerce safety: merge sources are frozen while their upgrade order is unpaid (no credit spent twice),
// extensions paid for a retired/disabled/reserved package deliver nothing and are flagged for a refund, verified but
// mismatched WeChat notifications are recorded and acknowledged, and the notify body is counted in bytes.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { ORDER_KIND } from '../../src/lib/commerce';
import { ORDER_STATE } from '../../src/lib/order-states';
import { PACKAGE_STATE } from '../../src/lib/package-states';
import { findOrder } from '../../src/server/db/orders';
import { listOrderPayments } from '../../src/server/db/payments';
import { runScheduledJobs } from '../../src/server/jobs';
import { giveExtractionKey, userIdOf } from '../helpers/accounts';
import { BASE, callApi, resetDb } from '../helpers/api';
import {
  notification,
  outTradeNoOf,
  payInSimulator,
  place,
  postNotify,
  seedCatalogue,
  verifiedBuyer,
} from '../helpers/commerce';
import { allowIp, extractCall, simplePool } from '../helpers/delivery';
import {
  activeMergeSources,
  orderCount,
  packageCount,
  packageFacts,
  packagesOfUser,
  setPackageState,
  setRemainingCount,
  termsPaidFen,
} from '../helpers/money';

const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the activity
const TARGET = 101_020; // 200000个 · 3分钟
const PHONE = '13800002001';
const CALLER = '192.0.2.50';

beforeEach(async () => {
  await resetDb();
  await seedCatalogue();
});

const pkgRow = packageFacts;

const paymentOf = async (orderNo: string) => (await listOrderPayments(env.DB, orderNo))[0];

/** A verified buyer holding one paid 50000-IP count package (plus an extraction key, white list and pool). */
async function holder(phone = PHONE) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  await payInSimulator(order.codeUrl ?? '');
  const uid = await userIdOf(phone);
  const pkgId = (await packagesOfUser(uid))[0]?.id ?? 0;
  const key = `reviewkey${String(uid).padStart(6, '0')}${'y'.repeat(17)}`;
  await giveExtractionKey(uid, key);
  await allowIp(uid, CALLER);
  return { cookie, uid, pkgId, key };
}

describe('sources of an unpaid upgrade/merge order are frozen', () => {
  it('refuses concurrent extractions during the payment window, shows 升级中, and releases the package on close', async () => {
    await simplePool(30);
    const { cookie, pkgId, key } = await holder();
    expect((await extractCall({ key, num: 1 })).status).toBe(200);
    const merge = await place('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, cookie);
    const remaining = (await pkgRow(pkgId))?.remainingCount;
    expect(remaining).toBe(49_999);

    // The credit was fixed at order time: nothing can be drained from it meanwhile, however many calls race.
    const calls = await Promise.all(Array.from({ length: 6 }, () => extractCall({ key, num: 5 })));
    expect(calls.map((c) => c.status)).toEqual(Array(6).fill(403));
    expect(calls[0]?.text).toContain('1003');
    // Named explicitly, it is not charged either: the charge's own condition excludes a reserved package.
    const named = await extractCall({ key, num: 1, package: pkgId });
    expect([named.status, named.text]).toEqual([403, 'ERROR 1003 套餐不存在或已过期']);
    expect((await pkgRow(pkgId))?.remainingCount).toBe(remaining);

    const list = await callApi('Proxy.GetProxys', { type: 10 }, { cookie });
    expect(list.body.P?.list[0]).toMatchObject({ id: pkgId, stateText: '升级中', available: 0, reserved: true });
    // Nor does the account panel count it as extractable while frozen.
    const counts = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(counts.body.P?.data.shortDynamicsNum.num).toBe(0);

    // Closing the order (expired, closed at the provider) releases the reservation: the package extracts again.
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 31 * 60_000);
    expect(await orderState(merge.orderNo)).toBe(ORDER_STATE.closed);
    expect(await activeMergeSources()).toBe(0);
    expect((await extractCall({ key, num: 1 })).status).toBe(200);
    expect((await pkgRow(pkgId))?.remainingCount).toBe(49_998);
    const after = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(after.body.P?.data.shortDynamicsNum.num).toBeGreaterThan(0);
  });

  it('credits exactly what it freezes when extractions race the merge order', async () => {
    await simplePool(30);
    const { cookie, pkgId, key } = await holder();
    await setRemainingCount(pkgId, 25_000);
    const [merge, ...calls] = await Promise.all([
      callApi('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, { cookie }),
      ...Array.from({ length: 8 }, () => extractCall({ key, num: 3 })),
    ]);
    const after = await pkgRow(pkgId);
    const served = calls.filter((c) => c.status === 200).length;
    expect(after?.remainingCount).toBe(25_000 - served * 3);
    if (merge.body.P) {
      // The credit matches the package as frozen: no IP was taken after the credit was computed.
      const credit = (await findOrder(env.DB, merge.body.P.orderNo))?.creditFen;
      expect(credit).toBe(Math.floor((4038 * (after?.remainingCount ?? 0)) / 50_000));
      expect((await extractCall({ key, num: 1 })).status).toBe(403);
    } else {
      expect(merge.body.E).toBe(messages.packageChanged);
      expect(served).toBeGreaterThan(0);
    }
  });
});

describe('extensions of a retired, disabled or reserved package', () => {
  it('refuses renew, extra count and period change while the package is reserved by a merge order', async () => {
    const { cookie, pkgId } = await holder();
    await place('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, cookie);
    const renew = await callApi('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, { cookie });
    expect(renew.body.E).toBe(messages.packageBusy);
    const add = await callApi('PayOrder.BuyAddTimes', { packageId: pkgId, count: 1000 }, { cookie });
    expect(add.body.E).toBe(messages.packageBusy);
    const change = await callApi('PayOrder.BuyChangeDate', { packageId: pkgId, days: 3 }, { cookie });
    expect([messages.packageBusy, messages.changeDateTimeOnly]).toContain(change.body.E);
    expect(await orderCount({ kinds: [ORDER_KIND.renew, ORDER_KIND.addTimes, ORDER_KIND.changeDate] })).toBe(0);
  });

  it('renews nothing when a merge retires the package before or while the renewal is paid, and flags a refund', async () => {
    const { cookie, pkgId } = await holder();
    const before = await pkgRow(pkgId);
    const renew = await place('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, cookie);
    const merge = await place('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, cookie);
    // Both payments race: whichever lands first, the renewal must not put money into a package being retired.
    const paid = await Promise.all([payInSimulator(merge.codeUrl ?? ''), payInSimulator(renew.codeUrl ?? '')]);
    expect(paid.map((r) => r.status)).toEqual([200, 200]);
    const after = await pkgRow(pkgId);
    expect(after).toMatchObject({ state: 4, totalCount: before?.totalCount, expiresAt: before?.expiresAt });
    expect(await orderState(renew.orderNo)).toBe(ORDER_STATE.paid);
    expect(await paymentOf(renew.orderNo)).toMatchObject({ state: 'paid', refundNeeded: true });
    expect((await paymentOf(renew.orderNo))?.note).toBe(
      '已支付，但要续费的套餐已被升级合并或删除、已停用或正被升级订单占用，套餐未续费：需退款，请用订单的「退款」',
    );
    expect(await paymentOf(merge.orderNo)).toMatchObject({ state: 'paid', refundNeeded: false });
    expect(await termsPaidFen(pkgId)).toBe(4038);
  });

  it('renews nothing for a package disabled between ordering and paying, and flags a refund', async () => {
    const { cookie, pkgId } = await holder();
    const before = await pkgRow(pkgId);
    const renew = await place('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, cookie);
    await setPackageState(pkgId, PACKAGE_STATE.disabled);
    await payInSimulator(renew.codeUrl ?? '');
    expect(await pkgRow(pkgId)).toMatchObject({ state: 5, totalCount: 50_000, expiresAt: before?.expiresAt });
    expect(await paymentOf(renew.orderNo)).toMatchObject({ state: 'paid', refundNeeded: true });
    expect((await paymentOf(renew.orderNo))?.note).toMatch(/^已支付，但要续费的套餐.*套餐未续费：需退款/);
    // A normal renewal still works and flags nothing.
    await setPackageState(pkgId, PACKAGE_STATE.active);
    const again = await place('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, cookie);
    await payInSimulator(again.codeUrl ?? '');
    expect((await pkgRow(pkgId))?.totalCount).toBe(100_000);
    expect(await paymentOf(again.orderNo)).toMatchObject({ state: 'paid', refundNeeded: false });
  });
});

describe('the WeChat notify route', () => {
  it('records a verified but mismatched SUCCESS for a refund and acknowledges it with 204', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const outTradeNo = outTradeNoOf(order.codeUrl ?? '');
    const cheap = await notification({ outTradeNo, amountTotalFen: 1, attach: order.orderNo });
    expect((await postNotify(cheap)).status).toBe(204);
    const flagged = await paymentOf(order.orderNo);
    expect(flagged?.refundNeeded).toBe(true);
    expect(flagged?.note).toMatch(
      /^微信通知支付成功（SUCCESS），但与本单记录不符：金额 1 分，币种 CNY，附加数据 D\d+[0-9A-Z]+，微信支付单号 \S+。订单未因此支付，需退款；/,
    );
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.pending);
    expect(await packageCount()).toBe(0);
    // An attempt we never created is still refused; the genuine payment still pays the order.
    const unknown = await notification({ outTradeNo: 'P20990101000000AAAAAAAAAAAAAAAA', amountTotalFen: 100 });
    expect((await postNotify(unknown)).status).toBe(400);
    await payInSimulator(order.codeUrl ?? '');
    expect(await orderState(order.orderNo)).toBe(ORDER_STATE.paid);
  });

  it('refuses a streamed body over 64 KiB counted in bytes (multi-byte text, no Content-Length)', async () => {
    const bytes = new TextEncoder().encode('支'.repeat(30_000)); // 90,000 bytes, 30,000 characters
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const res = await SELF.fetch(`${BASE}/pay/notify/wechat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'FAIL' });
  });
});
