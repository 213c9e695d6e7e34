// The console's customer tools: the extraction rate limit holds from the next /extract call; a granted package is in
// the customer's package list with its audit row (a failed grant leaves neither); sellers are created and assigned
// customers; a promoter's commission ledger; roles (support writes customer tools, finance sellers; customers 403).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput, ActionOutput } from '../../src/lib/api-core';
import { grantPackage } from '../../src/server/domain/console-customer-tools';
import { sellerCustomerCount, userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped, loginBySms, resetDb } from '../helpers/api';
import {
  addExit,
  addPool,
  allocationCount,
  allowIp,
  extractCall,
  feedCount,
  makePackage,
  makeUser,
  setExitHealthy,
} from '../helpers/delivery';
import { accrueCommission, addMealRegions, packageCount, packageFacts } from '../helpers/money';
import { auditRows, operatorLogin } from '../helpers/operators';
import { findCredentials } from '../../src/server/db/credentials';

type Grant = ActionInput<'Admin.GrantPackage'>;
type DedicatedGrant = Extract<Grant, { productType: 30 | 50 }>;
/** What a grant made at once answered (undefined for a request left for approval). */
const granted = (p: ActionOutput<'Admin.GrantPackage'> | undefined) => (p && !p.pending ? p : undefined);
beforeEach(async () => {
  await resetDb();
});

const audits = (action: string, operatorId: number) => auditRows({ action, operatorId });

describe('extraction rate limit', { timeout: 60_000 }, () => {
  it('takes effect on the next /extract call; bad values change nothing', async () => {
    const support = await operatorLogin('support');
    const u = await makeUser({ rateLimit: 10 });
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, '192.0.2.50');
    await addPool(Array.from({ length: 10 }, (_, i) => ({ ip: `203.0.113.${i + 1}` })));
    const burst = async () => Promise.all([1, 2, 3].map(() => extractCall({ key: u.key, num: 1 })));
    expect((await burst()).map((r) => r.status)).toEqual([200, 200, 200]);

    for (const bad of [0, 201, 1.5]) {
      const res = await callApi(
        'Admin.CustomerRateLimit',
        { userId: u.id, rateLimit: bad, reason: '限流' },
        { cookie: support.cookie },
      );
      expect(res.body.E).toBe('提取频率（次/秒）须为1-200的整数');
    }
    expect((await findCredentials(env.DB, u.id))?.rateLimit).toBe(10);
    const set = await callApi(
      'Admin.CustomerRateLimit',
      { userId: u.id, rateLimit: 1, reason: '异常高频提取' },
      { cookie: support.cookie },
    );
    expect(set.body.P).toEqual({ rateLimit: 1 });
    // Three calls within at most two seconds: at least two share a second, and the second of those is refused.
    const limited = await burst();
    expect(limited.some((r) => r.status === 429 && r.text.includes('请求过于频繁'))).toBe(true);
    expect(await audits('Admin.CustomerRateLimit', support.id)).toEqual([
      expect.objectContaining({
        target: `user:${u.id}`,
        before: '{"rateLimit":10}',
        after: '{"rateLimit":1}',
        reason: '异常高频提取',
      }),
    ]);
  });
});

describe('package grants', { timeout: 60_000 }, () => {
  it('appear in the customer package list with an audit row; invalid grants change nothing', async () => {
    const support = await operatorLogin('support');
    const phone = '13900001601';
    const cookie = await loginBySms(phone);
    const userId = await userIdOf(phone);
    const grant: Grant = {
      userId,
      productType: 10,
      billingMethod: 1,
      ipDurationMinutes: 5,
      amount: 2000,
      days: 30,
      reason: '故障补偿',
    };
    for (const [bad, message] of [
      [{ ipDurationMinutes: 60 }, 'IP时长须从该产品的可选时长中选择'],
      [{ productType: 20 }, '请选择要赠送的产品：短效动态IP、固定IP、长效静态IP或优质IP'],
      [{ days: 400 }, '有效天数须为1-365的整数'],
      [{ reason: '' }, '请填写操作原因（2-200个字）'],
      [{ userId: 99_999_999 }, '用户不存在'],
    ] as const) {
      const res = await callApiUntyped('Admin.GrantPackage', { ...grant, ...bad }, { cookie: support.cookie });
      expect(res.body.E, JSON.stringify(bad)).toBe(message);
    }
    expect(await packageCount({ source: 'operator' })).toBe(0);
    expect(await audits('Admin.GrantPackage', support.id)).toEqual([]);
    // An audit row that cannot be written (a role outside the table's CHECK) takes the package down with it.
    const broken = { operatorId: support.id, operatorName: 'x', role: 'nobody' as never, ip: '1', now: Date.now() };
    await expect(grantPackage(env.DB, broken, { ...grant, productType: 10, billingMethod: 1 })).rejects.toThrow();
    expect(await packageCount({ source: 'operator' })).toBe(0);

    const res = await callApi('Admin.GrantPackage', grant, {
      cookie: support.cookie,
    });
    expect(granted(res.body.P)?.name).toBe('赠送 · 短效动态IP · 按量 2000个 · 5分钟');
    const list = await callApi('Proxy.GetProxys', { type: 10, page: 1, pageSize: 10 }, { cookie });
    expect(JSON.stringify(list.body)).toContain('赠送 · 短效动态IP · 按量 2000个 · 5分钟');
    expect(await packageFacts(granted(res.body.P)?.packageId ?? 0)).toMatchObject({
      source: 'operator',
      userId,
      remainingCount: 2000,
    });
    expect(await audits('Admin.GrantPackage', support.id)).toEqual([
      expect.objectContaining({ target: `user:${userId}`, reason: '故障补偿' }),
    ]);
  });
});

describe('dedicated-IP grants', { timeout: 90_000 }, () => {
  const YEAR = 400 * 86_400;
  /** A region offered for fixed and premium IPs (Shenzhen) and one offered for fixed IPs only (Hangzhou). */
  async function regions() {
    await addMealRegions([
      { id: 501, name: '深圳', province: '广东省', provinceKey: '广东', cityKey: '深圳', productTypes: [30, 50] },
      { id: 502, name: '杭州', province: '浙江省', provinceKey: '浙江', cityKey: '杭州', productTypes: [30] },
    ]);
  }
  const dedicated = (userId: number, extra: Partial<DedicatedGrant> = {}): DedicatedGrant => ({
    userId,
    productType: 30,
    regionId: 501,
    carrier: '',
    ipCount: 2,
    days: 30,
    reason: '大客户补偿',
    ...extra,
  });
  const live = (userId: number) => allocationCount({ userId, released: false });

  it('allocates the region and carrier at once; the customer sees the IPs; the audit row is in the batch', async () => {
    await regions();
    await addPool([
      { ip: '203.0.113.1', pool: 30, carrier: '联通', ttlSeconds: YEAR },
      { ip: '203.0.113.2', pool: 30, carrier: '电信', ttlSeconds: YEAR },
      { ip: '203.0.113.3', pool: 30, carrier: '电信', ttlSeconds: YEAR },
      // Not to be taken: another city, an unhealthy exit, an exit expiring before the package, a shared pool.
      { ip: '203.0.113.4', pool: 30, carrier: '电信', city: '杭州市', province: '浙江省', ttlSeconds: YEAR },
      { ip: '203.0.113.5', pool: 30, carrier: '电信', ttlSeconds: YEAR },
      { ip: '203.0.113.6', pool: 30, carrier: '电信', ttlSeconds: 3600 },
      { ip: '203.0.113.7', pool: 40, carrier: '电信', ttlSeconds: YEAR },
    ]);
    await setExitHealthy('203.0.113.5', false);
    const support = await operatorLogin('support');
    const phone = '13900001651';
    const cookie = await loginBySms(phone);
    const userId = await userIdOf(phone);

    // The form's regions and their free IPs per carrier (the short-lived exit counts now, not for a 30-day package).
    const tools = await callApi('Admin.CustomerTools', { userId }, { cookie: support.cookie });
    expect(tools.body.P?.dedicatedRegions).toEqual([
      { id: 501, name: '深圳', productTypes: [30, 50], free: { 电信: 3, 联通: 1, 移动: 0 } },
      { id: 502, name: '杭州', productTypes: [30], free: { 电信: 1, 联通: 0, 移动: 0 } },
    ]);

    const res = await callApi('Admin.GrantPackage', dedicated(userId, { productType: 50, carrier: '电信' }), {
      cookie: support.cookie,
    });
    expect(res.body.E).toBeUndefined();
    expect(granted(res.body.P)?.name).toBe('赠送 · 优质IP · 深圳 · 2个IP');
    expect(granted(res.body.P)?.ips).toEqual(['203.0.113.2:40001', '203.0.113.3:40002']);
    const record = await callApi('FixedAllocation.FixedIpConsumerRecord', { page: 1, pageSize: 10 }, { cookie });
    expect(record.body.P?.list.map((a) => [a.ip, a.carrier, a.live, a.packageId]).sort()).toEqual([
      ['203.0.113.2', '电信', true, granted(res.body.P)?.packageId],
      ['203.0.113.3', '电信', true, granted(res.body.P)?.packageId],
    ]);
    const pkgs = await callApi('Proxy.GetProxys', { type: 50, page: 1, pageSize: 10 }, { cookie });
    expect(JSON.stringify(pkgs.body)).toContain('赠送 · 优质IP · 深圳 · 2个IP');
    // The allocations expire with the package; their nodes learn of them from the change feed.
    expect(await packageFacts(granted(res.body.P)?.packageId ?? 0)).toMatchObject({
      source: 'operator',
      ipCount: 2,
      expiringWithPackage: 2,
    });
    expect(await feedCount('f')).toBe(2);
    expect(await audits('Admin.GrantPackage', support.id)).toEqual([
      expect.objectContaining({
        target: `user:${userId}`,
        reason: '大客户补偿',
        after: expect.stringContaining('"region":"深圳"'),
      }),
    ]);
  });

  it('refuses a grant the region cannot fill, a region not offered and bad input, writing nothing', async () => {
    await regions();
    await addPool([
      { ip: '203.0.113.1', pool: 30, carrier: '电信', ttlSeconds: YEAR },
      { ip: '203.0.113.2', pool: 30, carrier: '联通', ttlSeconds: YEAR },
    ]);
    const support = await operatorLogin('support');
    const u = await makeUser();
    for (const [bad, message] of [
      [{ ipCount: 3 }, '可分配的独享IP不足，未赠送：深圳需要3个，当前可分配2个'],
      [{ ipCount: 2, carrier: '移动' }, '可分配的独享IP不足，未赠送：深圳·移动需要2个，当前可分配0个'],
      [{ regionId: 502 }, '可分配的独享IP不足，未赠送：杭州需要2个，当前可分配0个'],
      [{ productType: 50, regionId: 502 }, '请选择该产品在售的地区'],
      [{ regionId: 9999 }, '请选择该产品在售的地区'],
      [{ carrier: '铁通' }, '运营商只能是电信、联通、移动或不限'],
      [{ ipCount: 0 }, 'IP数须为1-100的整数'],
      [{ ipCount: 101 }, 'IP数须为1-100的整数'],
      [{ days: 366 }, '有效天数须为1-365的整数'],
      [{ reason: '' }, '请填写操作原因（2-200个字）'],
      [{ userId: 99_999_999 }, '用户不存在'],
      // Then a valid grant: the only write of this test.
      [{ days: 365, ipCount: 1 }, undefined],
    ] as const) {
      const res = await callApiUntyped(
        'Admin.GrantPackage',
        { ...dedicated(u.id), ...bad },
        { cookie: support.cookie },
      );
      if (message) expect(res.body.E, JSON.stringify(bad)).toBe(message);
      else expect(res.body.E, JSON.stringify(bad)).toBeUndefined();
      if (!message) break;
    }
    // Only the last (valid) grant wrote anything.
    expect(await packageCount({ source: 'operator' })).toBe(1);
    expect(await live(u.id)).toBe(1);
    expect(await audits('Admin.GrantPackage', support.id)).toHaveLength(1);

    // A failed audit row takes the package and its allocations down with it.
    const broken = { operatorId: support.id, operatorName: 'x', role: 'nobody' as never, ip: '1', now: Date.now() };
    await expect(
      grantPackage(env.DB, broken, { ...dedicated(u.id), ipCount: 1, productType: 30, carrier: '' }),
    ).rejects.toThrow();
    expect(await packageCount({ source: 'operator' })).toBe(1);
    expect(await live(u.id)).toBe(1);
  });

  it('two grants racing for the last free IP: one wins, the other writes nothing', async () => {
    await regions();
    await addPool([{ ip: '203.0.113.9', pool: 30, carrier: '电信', ttlSeconds: YEAR }]);
    const support = await operatorLogin('support');
    const a = await makeUser();
    const b = await makeUser();
    const results = await Promise.all(
      [a, b].map((u) => callApi('Admin.GrantPackage', dedicated(u.id, { ipCount: 1 }), { cookie: support.cookie })),
    );
    const errors = results.map((r) => r.body.E ?? null);
    expect(errors.filter((e) => e === null)).toHaveLength(1);
    expect(errors.find((e) => e !== null)).toMatch(/^可分配的独享IP不足，未赠送/);
    expect((await live(a.id)) + (await live(b.id))).toBe(1);
    expect(await packageCount({ source: 'operator' })).toBe(1);
    expect(await audits('Admin.GrantPackage', support.id)).toHaveLength(1);
    // Exactly interleaved: both pass the pre-check, then the competitor's batch commits just before this one. The
    // batch's own guard (not the pre-check) refuses the loser, and nothing of it is written.
    await addExit({
      node: 1,
      pool: 30,
      ip: '203.0.113.10',
      port: 40010,
      province: '广东省',
      city: '深圳市',
      carrier: '电信',
      expiresAt: Date.now() + YEAR * 1000,
      checkedAt: 0,
    });
    const [c, d] = [await makeUser(), await makeUser()];
    const actor = { operatorId: support.id, operatorName: 'x', role: 'support' as const, ip: '1', now: Date.now() };
    const one = (userId: number) => ({
      ...dedicated(userId),
      ipCount: 1,
      productType: 30 as const,
      carrier: '' as const,
    });
    const racing = new Proxy(env.DB, {
      get(target, key) {
        if (key === 'batch')
          return async (statements: D1PreparedStatement[]) => {
            await grantPackage(env.DB, { ...actor, now: actor.now + 1 }, one(d.id));
            return target.batch(statements);
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(grantPackage(racing, actor, one(c.id))).rejects.toThrow(/可分配的独享IP不足/);
    expect([await live(c.id), await live(d.id)]).toEqual([0, 1]);
    expect(await packageCount({ source: 'operator', userId: c.id })).toBe(0);
    expect((await auditRows({ operatorId: support.id, target: `user:${c.id}` })).length).toBe(0);
  });

  it('refuses customers and roles other than support', async () => {
    await regions();
    await addPool([{ ip: '203.0.113.9', pool: 30, carrier: '电信', ttlSeconds: YEAR }]);
    const customer = await loginBySms('13900001702');
    const u = await makeUser();
    expect((await callApi('Admin.GrantPackage', dedicated(u.id, { ipCount: 1 }), { cookie: customer })).status).toBe(
      403,
    );
    for (const role of ['finance', 'content', 'ops'] as const) {
      const op = await operatorLogin(role);
      const res = await callApi('Admin.GrantPackage', dedicated(u.id, { ipCount: 1 }), { cookie: op.cookie });
      expect(res.status, role).toBe(403);
    }
    expect(await live(u.id)).toBe(0);
    expect(await packageCount({ source: 'operator' })).toBe(0);
  });
});

describe('sellers and commission', { timeout: 60_000 }, () => {
  it('finance creates a seller and assigns customers; support reads; the ledger shows a promoter', async () => {
    const finance = await operatorLogin('finance');
    const support = await operatorLogin('support');
    const seller = { code: 'S001', name: '张销售', phone: '13700000001' };
    expect((await callApi('Admin.SellerSave', seller, { cookie: support.cookie })).status).toBe(403);
    expect((await callApi('Admin.SellerSave', { ...seller, code: 'x' }, { cookie: finance.cookie })).body.E).toBe(
      '销售编码为3-16位字母或数字',
    );
    const created = await callApi('Admin.SellerSave', seller, { cookie: finance.cookie });
    const sellerId = created.body.P?.id ?? 0;
    expect(sellerId).toBeGreaterThan(0);
    expect((await callApi('Admin.SellerSave', seller, { cookie: finance.cookie })).body.E).toBe('该销售编码已被使用');

    const a = await makeUser();
    const b = await makeUser();
    const assigned = await callApi(
      'Admin.SellerAssign',
      { sellerId, targets: `${a.phone}\n${b.id}\n13900009998`, reason: '划归销售' },
      { cookie: finance.cookie },
    );
    expect(assigned.body.P).toEqual({ assigned: 2, unknown: ['13900009998'] });
    expect(await sellerCustomerCount(sellerId)).toBe(2);
    const list = await callApi('Admin.SellerList', {}, { cookie: support.cookie });
    expect(list.body.P?.list.find((s) => s.id === sellerId)?.customers).toBe(2);
    expect(await audits('Admin.SellerAssign', finance.id)).toHaveLength(1);

    // Commission ledger of a promoter.
    await accrueCommission({
      promoterId: a.id,
      inviteeId: b.id,
      orderNo: 'P0001',
      productType: 10,
      baseFen: 10000,
      rateBp: 1000,
      amountFen: 1000,
    });
    const tools = await callApi('Admin.CustomerTools', { userId: a.id }, { cookie: finance.cookie });
    expect(tools.body.P?.seller?.id).toBe(sellerId);
    expect(tools.body.P?.commission.summary.availableFen).toBe(1000);
    expect(tools.body.P?.commission.list[0]?.inviteePhone).toMatch(/^139\*{4}\d{4}$/);
  });

  it('refuses customers and roles outside each tool', async () => {
    const customer = await loginBySms('13900001701');
    const u = await makeUser();
    for (const [action, params] of [
      ['Admin.CustomerRateLimit', { userId: u.id, rateLimit: 5, reason: '测试' }],
      [
        'Admin.GrantPackage',
        { userId: u.id, productType: 10, billingMethod: 1, ipDurationMinutes: 5, amount: 1, days: 1, reason: '测试' },
      ],
      ['Admin.SellerAssign', { sellerId: 0, targets: String(u.id), reason: '测试' }],
    ] as const) {
      expect((await callApi(action, params, { cookie: customer })).status, action).toBe(403);
    }
    const finance = await operatorLogin('finance');
    expect(
      (
        await callApi(
          'Admin.GrantPackage',
          { userId: u.id, productType: 10, billingMethod: 1, ipDurationMinutes: 5, amount: 1, days: 1, reason: '测试' },
          { cookie: finance.cookie },
        )
      ).status,
    ).toBe(403);
    const content = await operatorLogin('content');
    expect((await callApi('Admin.CustomerTools', { userId: u.id }, { cookie: content.cookie })).status).toBe(403);
    expect(await packageCount({ source: 'operator' })).toBe(0);
    expect((await findCredentials(env.DB, u.id))?.rateLimit).toBe(10);
  });
});
