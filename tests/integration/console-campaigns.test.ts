// The console's campaigns: coupon rules validated as the engine applies them, issuing by phone or id within stock and
// the per-user limit (concurrent issues never oversell), the stock never below what was issued, red-packet launches
// whose budget holds against concurrent receipts and never falls below what was received, their use figures, audit
// rows in the same batch, and roles (admin writes, finance reads, others and customers refused).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped } from '../helpers/api';
import { place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { couponIssued, issuedCoupons } from '../helpers/money';
import { auditRows, operatorLogin } from '../helpers/operators';
import { redRecordCount } from '../helpers/trust';
import {
  findCouponForAdmin,
  findLaunchForAdmin,
  listCouponsForAdmin,
  listLaunchesForAdmin,
} from '../../src/server/db/console-campaigns';
import { findOrder } from '../../src/server/db/orders';

beforeEach(resetWithCatalogue);

const audits = (action: string, operatorId: number) => auditRows({ action, operatorId });
const couponCount = async () => (await listCouponsForAdmin(env.DB)).length;

const window = () => ({ startsAt: Date.now() - 60_000, endsAt: Date.now() + 7 * 86_400_000 });
const coupon = (): ActionInput<'Admin.CouponSave'> => ({
  name: '立减10元券',
  kind: 1,
  value: 1000,
  thresholdFen: 5000,
  productTypes: [10],
  validDays: 7,
  perUserLimit: 1,
  totalStock: 1,
  ...window(),
});

describe('coupons', { timeout: 60_000 }, () => {
  it('refuses rules the engine would not apply, and changes nothing', async () => {
    const admin = await operatorLogin('admin');
    const n = await couponCount();
    for (const [bad, message] of [
      [{ kind: 2, value: 95 }, '折扣券的折扣比例为1-90（%）；立减券的金额须小于使用门槛或不设门槛'],
      [{ value: 5000 }, '折扣券的折扣比例为1-90（%）；立减券的金额须小于使用门槛或不设门槛'],
      [{ endsAt: 1 }, '结束时间须晚于开始时间'],
      [{ productTypes: [20] }, '请选择适用产品'],
      [{ totalStock: -1 }, '库存（0为不限）须为0-10000000的整数'],
    ] as const) {
      expect((await callApiUntyped('Admin.CouponSave', { ...coupon(), ...bad }, { cookie: admin.cookie })).body.E).toBe(
        message,
      );
    }
    expect(await couponCount()).toBe(n);
    expect(await audits('Admin.CouponSave', admin.id)).toEqual([]);
  });

  it('issues by phone or id within stock; concurrent issues never oversell; the buyer uses it at checkout', async () => {
    const admin = await operatorLogin('admin');
    const created = await callApi('Admin.CouponSave', { ...coupon(), totalStock: 2 }, { cookie: admin.cookie });
    const couponId = created.body.P?.id ?? 0;
    const buyers = await Promise.all(['13900001301', '13900001302', '13900001303'].map((p) => verifiedBuyer(p)));
    const ids = await Promise.all(['13900001301', '13900001302', '13900001303'].map((p) => userIdOf(p)));

    expect(
      (await callApi('Admin.CouponIssue', { couponId, targets: 'abc', reason: '补偿' }, { cookie: admin.cookie })).body
        .E,
    ).toBe('请填写要发放的客户：手机号或用户ID，每行一个，最多200个');
    expect(await issuedCoupons(couponId)).toHaveLength(0);

    // Three operators' issues race for a stock of two: exactly two coupons exist afterwards.
    const results = await Promise.all([
      callApi('Admin.CouponIssue', { couponId, targets: '13900001301', reason: '活动补发' }, { cookie: admin.cookie }),
      callApi('Admin.CouponIssue', { couponId, targets: String(ids[1]), reason: '活动补发' }, { cookie: admin.cookie }),
      callApi('Admin.CouponIssue', { couponId, targets: '13900001303', reason: '活动补发' }, { cookie: admin.cookie }),
    ]);
    expect(results.filter((r) => r.body.P).length).toBe(2);
    expect(results.filter((r) => r.body.E === '没有发放成功：优惠券未生效、库存不足或客户已达领取上限').length).toBe(1);
    expect(await issuedCoupons(couponId)).toHaveLength(2);
    expect(await couponIssued(couponId)).toBe(2);
    // One audit row per successful issue, none for the refused one.
    expect(await audits('Admin.CouponIssue', admin.id)).toHaveLength(2);

    // The stock cannot be lowered below what was issued.
    expect(
      (await callApi('Admin.CouponSave', { ...coupon(), id: couponId, totalStock: 1 }, { cookie: admin.cookie })).body
        .E,
    ).toBe('库存不能少于已发放数量');
    expect((await findCouponForAdmin(env.DB, couponId))?.totalStock).toBe(2);

    // A holder uses it: the engine takes ¥10 off; the console counts it as locked by the unpaid order.
    const [uc] = await issuedCoupons(couponId);
    const cookie = buyers[ids.indexOf(uc?.userId ?? 0)] ?? '';
    const order = await place('PayOrder.BuyProxy', { mealId: 101_010, units: 2, couponId: uc?.id }, cookie);
    expect((await findOrder(env.DB, order.orderNo))?.couponFen).toBe(1000);
    const list = await callApi('Admin.CampaignList', {}, { cookie: admin.cookie });
    expect(list.body.P?.coupons.find((c) => c.id === couponId)).toMatchObject({ issued: 2, locked: 1, remaining: 0 });
  });

  it('honours the per-user limit and skips unknown customers by name', async () => {
    const admin = await operatorLogin('admin');
    const created = await callApi('Admin.CouponSave', { ...coupon(), totalStock: 0 }, { cookie: admin.cookie });
    await verifiedBuyer('13900001311');
    const first = await callApi(
      'Admin.CouponIssue',
      { couponId: created.body.P?.id ?? 0, targets: '13900001311\n13900009999', reason: '老客回馈' },
      { cookie: admin.cookie },
    );
    expect(first.body.P).toEqual({ issued: 1, skipped: ['13900009999'] });
    const again = await callApi(
      'Admin.CouponIssue',
      { couponId: created.body.P?.id ?? 0, targets: '13900001311', reason: '老客回馈' },
      { cookie: admin.cookie },
    );
    expect(again.body.E).toBe('没有发放成功：优惠券未生效、库存不足或客户已达领取上限');
    expect(await issuedCoupons(created.body.P?.id ?? 0)).toHaveLength(1);
  });
});

describe('red-packet launches', { timeout: 60_000 }, () => {
  const launch = (): ActionInput<'Admin.RedLaunchSave'> => ({
    title: '周末红包',
    productType: 10,
    ipDurationMinutes: 5,
    ipCount: 100,
    validDays: 3,
    budget: 2,
    ...window(),
  });

  it('budget holds against concurrent receipts; never below what was received; terms locked once received', async () => {
    const admin = await operatorLogin('admin');
    expect(
      (await callApi('Admin.RedLaunchSave', { ...launch(), ipDurationMinutes: 7 }, { cookie: admin.cookie })).body.E,
    ).toBe('红包的IP时长须从该产品的可选时长中选择');
    expect(await listLaunchesForAdmin(env.DB)).toHaveLength(0);
    const created = await callApi('Admin.RedLaunchSave', launch(), { cookie: admin.cookie });
    const id = created.body.P?.id ?? 0;
    expect(id).toBeGreaterThan(0);
    const phones = ['13900001401', '13900001402', '13900001403', '13900001404'];
    const cookies = await Promise.all(phones.map((p) => verifiedBuyer(p)));
    const got = await Promise.all(cookies.map((cookie) => callApi('RedLaunch.Receive', { id }, { cookie })));
    expect(got.filter((r) => r.body.P !== undefined && !r.body.E).length).toBe(2);
    expect(await redRecordCount(id)).toBe(2);

    expect(
      (await callApi('Admin.RedLaunchSave', { ...launch(), id, budget: 1 }, { cookie: admin.cookie })).body.E,
    ).toBe('预算不能少于已领取数量');
    expect(
      (await callApi('Admin.RedLaunchSave', { ...launch(), id, budget: 5, ipCount: 500 }, { cookie: admin.cookie }))
        .body.E,
    ).toBe('已有用户领取，红包内容（产品、IP时长、数量、有效期）不能再修改');
    expect((await findLaunchForAdmin(env.DB, id))?.budget).toBe(2);
    const more = await callApi(
      'Admin.RedLaunchSave',
      { ...launch(), id, budget: 5, reason: '追加预算' },
      {
        cookie: admin.cookie,
      },
    );
    expect(more.body.E).toBeUndefined();
    expect(await audits('Admin.RedLaunchSave', admin.id)).toHaveLength(2);
    const list = await callApi('Admin.CampaignList', {}, { cookie: admin.cookie });
    expect(list.body.P?.launches.find((l) => l.id === id)).toMatchObject({ received: 2, used: 0, remaining: 3 });
  });

  it('admin writes, finance reads, other roles and customers are refused', async () => {
    const finance = await operatorLogin('finance');
    expect((await callApi('Admin.CampaignList', {}, { cookie: finance.cookie })).status).toBe(200);
    expect((await callApi('Admin.CouponSave', coupon(), { cookie: finance.cookie })).status).toBe(403);
    expect((await callApi('Admin.RedLaunchSave', launch(), { cookie: finance.cookie })).status).toBe(403);
    for (const role of ['support', 'content', 'ops'] as const) {
      const { cookie } = await operatorLogin(role);
      expect((await callApi('Admin.CampaignList', {}, { cookie })).status, role).toBe(403);
      expect(
        (await callApi('Admin.CouponIssue', { couponId: 1, targets: '1', reason: '测试' }, { cookie })).status,
      ).toBe(403);
    }
    const customer = await verifiedBuyer('13900001501');
    expect((await callApi('Admin.CouponSave', coupon(), { cookie: customer })).status).toBe(403);
    expect((await callApi('Admin.CampaignList', {}, { cookie: customer })).status).toBe(403);
    expect((await listCouponsForAdmin(env.DB)).filter((c) => c.name === '立减10元券')).toHaveLength(0);
  });
});
