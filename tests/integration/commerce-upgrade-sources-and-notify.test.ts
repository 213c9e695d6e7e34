// Commerce safety: merge sources are frozen while their upgrade order is unpaid (no credit spent twice),
// extensions paid for a retired/disabled/reserved package deliver nothing and are flagged for a refund, verified but
// mismatched WeChat notifications are recorded and acknowledged, and the notify body is counted in bytes.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { runScheduledJobs } from '../../src/server/jobs';
import { BASE, callApi } from '../helpers/api';
import {
  notification,
  outTradeNoOf,
  payInSimulator,
  place,
  postNotify,
  scalar,
  seedCatalogue,
  userId,
  verifiedBuyer,
} from '../helpers/commerce';
import { allowIp, extractCall, resetAll, simplePool } from '../helpers/delivery';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the activity
const TARGET = 101_020; // 200000个 · 3分钟
const PHONE = '13800002001';
const CALLER = '192.0.2.50';

beforeEach(async () => {
  await resetAll();
  await seedCatalogue();
});

interface PackageRow {
  id: number;
  total_count: number;
  remaining_count: number;
  expires_at: number;
  state: number;
}

const pkgRow = (id: number) =>
  env.DB.prepare('SELECT id, total_count, remaining_count, expires_at, state FROM proxy_packages WHERE id = ?')
    .bind(id)
    .first<PackageRow>();

const paymentOf = (orderNo: string) =>
  env.DB.prepare('SELECT state, refund_needed, note FROM payments WHERE order_no = ? ORDER BY created_at DESC')
    .bind(orderNo)
    .first<{ state: string; refund_needed: number; note: string }>();

/** A verified buyer holding one paid 50000-IP count package (plus an extraction key, white list and pool). */
async function holder(phone = PHONE) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  await payInSimulator(order.codeUrl ?? '');
  const uid = await userId(phone);
  const pkgId = await scalar('SELECT id AS n FROM proxy_packages WHERE user_id = ?', uid);
  const key = `reviewkey${String(uid).padStart(6, '0')}${'y'.repeat(17)}`;
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, rate_limit, created_at, updated_at)
     VALUES (?, ?, 'aeskey0000000001', 'aesiv00000000001', 100, ?, ?)`,
  )
    .bind(uid, key, now, now)
    .run();
  await allowIp(uid, CALLER);
  return { cookie, uid, pkgId, key };
}

describe('sources of an unpaid upgrade/merge order are frozen', () => {
  it('refuses concurrent extractions during the payment window, shows 升级中, and releases the package on close', async () => {
    await simplePool(30);
    const { cookie, pkgId, key } = await holder();
    expect((await extractCall({ key, num: 1 })).status).toBe(200);
    const merge = await place('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, cookie);
    const remaining = (await pkgRow(pkgId))?.remaining_count;
    expect(remaining).toBe(49_999);

    // The credit was fixed at order time: nothing can be drained from it meanwhile, however many calls race.
    const calls = await Promise.all(Array.from({ length: 6 }, () => extractCall({ key, num: 5 })));
    expect(calls.map((c) => c.status)).toEqual(Array(6).fill(403));
    expect(calls[0]?.text).toContain('1003');
    // Named explicitly, it is not charged either: the charge's own condition excludes a reserved package.
    const named = await extractCall({ key, num: 1, package: pkgId });
    expect([named.status, named.text]).toEqual([403, 'ERROR 1003 套餐不存在或已过期']);
    expect((await pkgRow(pkgId))?.remaining_count).toBe(remaining);

    const list = await callApi('Proxy.GetProxys', { type: 10 }, { cookie });
    expect(list.body.P?.list[0]).toMatchObject({ id: pkgId, stateText: '升级中', available: 0, reserved: true });
    // Nor does the account panel count it as extractable while frozen.
    const counts = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(counts.body.P?.data.shortDynamicsNum.num).toBe(0);

    // Closing the order (expired, closed at the provider) releases the reservation: the package extracts again.
    await runScheduledJobs('*/5 * * * *', env as never, Date.now() + 31 * 60_000);
    expect(await scalar('SELECT state AS n FROM orders WHERE order_no = ?', merge.orderNo)).toBe(3);
    expect(await scalar('SELECT count(*) AS n FROM order_merge_sources WHERE active = 1')).toBe(0);
    expect((await extractCall({ key, num: 1 })).status).toBe(200);
    expect((await pkgRow(pkgId))?.remaining_count).toBe(49_998);
    const after = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(after.body.P?.data.shortDynamicsNum.num).toBeGreaterThan(0);
  });

  it('credits exactly what it freezes when extractions race the merge order', async () => {
    await simplePool(30);
    const { cookie, pkgId, key } = await holder();
    await env.DB.prepare('UPDATE proxy_packages SET remaining_count = 25000 WHERE id = ?').bind(pkgId).run();
    const [merge, ...calls] = await Promise.all([
      callApi('ProxyUpgrade.mergeProxy', { packageIds: [pkgId], mealId: TARGET, units: 1 }, { cookie }),
      ...Array.from({ length: 8 }, () => extractCall({ key, num: 3 })),
    ]);
    const after = await pkgRow(pkgId);
    const served = calls.filter((c) => c.status === 200).length;
    expect(after?.remaining_count).toBe(25_000 - served * 3);
    if (merge.body.P) {
      // The credit matches the package as frozen: no IP was taken after the credit was computed.
      const credit = await scalar('SELECT credit_fen AS n FROM orders WHERE order_no = ?', merge.body.P.orderNo);
      expect(credit).toBe(Math.floor((4038 * (after?.remaining_count ?? 0)) / 50_000));
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
    expect(await scalar('SELECT count(*) AS n FROM orders WHERE kind IN (2, 3, 4)')).toBe(0);
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
    expect(after).toMatchObject({ state: 4, total_count: before?.total_count, expires_at: before?.expires_at });
    expect(await scalar('SELECT state AS n FROM orders WHERE order_no = ?', renew.orderNo)).toBe(2);
    expect(await paymentOf(renew.orderNo)).toMatchObject({ state: 'paid', refund_needed: 1 });
    expect((await paymentOf(renew.orderNo))?.note).toBe(
      '已支付，但要续费的套餐已被升级合并或删除、已停用或正被升级订单占用，套餐未续费：需退款，请用订单的「退款」',
    );
    expect(await paymentOf(merge.orderNo)).toMatchObject({ state: 'paid', refund_needed: 0 });
    expect(await scalar('SELECT paid_fen AS n FROM package_terms WHERE package_id = ?', pkgId)).toBe(4038);
  });

  it('renews nothing for a package disabled between ordering and paying, and flags a refund', async () => {
    const { cookie, pkgId } = await holder();
    const before = await pkgRow(pkgId);
    const renew = await place('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, cookie);
    await env.DB.prepare('UPDATE proxy_packages SET state = 5 WHERE id = ?').bind(pkgId).run();
    await payInSimulator(renew.codeUrl ?? '');
    expect(await pkgRow(pkgId)).toMatchObject({ state: 5, total_count: 50_000, expires_at: before?.expires_at });
    expect(await paymentOf(renew.orderNo)).toMatchObject({ state: 'paid', refund_needed: 1 });
    expect((await paymentOf(renew.orderNo))?.note).toMatch(/^已支付，但要续费的套餐.*套餐未续费：需退款/);
    // A normal renewal still works and flags nothing.
    await env.DB.prepare('UPDATE proxy_packages SET state = 1 WHERE id = ?').bind(pkgId).run();
    const again = await place('PayOrder.RenewProxy', { packageId: pkgId, periods: 1 }, cookie);
    await payInSimulator(again.codeUrl ?? '');
    expect((await pkgRow(pkgId))?.total_count).toBe(100_000);
    expect(await paymentOf(again.orderNo)).toMatchObject({ state: 'paid', refund_needed: 0 });
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
    expect(flagged?.refund_needed).toBe(1);
    expect(flagged?.note).toMatch(
      /^微信通知支付成功（SUCCESS），但与本单记录不符：金额 1 分，币种 CNY，附加数据 D\d+[0-9A-Z]+，微信支付单号 \S+。订单未因此支付，需退款；/,
    );
    expect(await scalar('SELECT state AS n FROM orders WHERE order_no = ?', order.orderNo)).toBe(1);
    expect(await scalar('SELECT count(*) AS n FROM proxy_packages')).toBe(0);
    // An attempt we never created is still refused; the genuine payment still pays the order.
    const unknown = await notification({ outTradeNo: 'P20990101000000AAAAAAAAAAAAAAAA', amountTotalFen: 100 });
    expect((await postNotify(unknown)).status).toBe(400);
    await payInSimulator(order.codeUrl ?? '');
    expect(await scalar('SELECT state AS n FROM orders WHERE order_no = ?', order.orderNo)).toBe(2);
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
