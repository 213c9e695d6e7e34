// The console's customer tools: the extraction rate limit holds from the next /extract call; a granted package is in
// the customer's package list with its audit row (a failed grant leaves neither); sellers are created and assigned
// customers; a promoter's commission ledger; roles (support writes customer tools, finance sellers; customers 403).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { grantPackage } from '../../src/server/domain/operators-customer-tools';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { addPool, allowIp, extractCall, makePackage, makeUser } from '../helpers/delivery';
import { operatorLogin } from '../helpers/operators';

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM proxy_packages').run();
  await resetDb();
});

const audits = (action: string, operatorId: number) =>
  env.DB.prepare('SELECT * FROM audit_log WHERE action = ? AND operator_id = ? ORDER BY id')
    .bind(action, operatorId)
    .all<Record<string, unknown>>()
    .then((r) => r.results);
const n = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

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
    expect(await n('SELECT rate_limit AS n FROM proxy_api_credentials WHERE user_id = ?', u.id)).toBe(10);
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
        before_summary: '{"rateLimit":10}',
        after_summary: '{"rateLimit":1}',
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
    const userId = await n('SELECT id AS n FROM users WHERE phone = ?', phone);
    const grant = {
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
      [{ productType: 30 }, '只能赠送短效动态IP或长效静态IP'],
      [{ days: 400 }, '有效天数须为1-365的整数'],
      [{ reason: '' }, '请填写操作原因（2-200个字）'],
      [{ userId: 99_999_999 }, '用户不存在'],
    ] as const) {
      const res = await callApi('Admin.GrantPackage', { ...grant, ...bad }, { cookie: support.cookie });
      expect(res.body.E, JSON.stringify(bad)).toBe(message);
    }
    expect(await n("SELECT count(*) AS n FROM proxy_packages WHERE source = 'operator'")).toBe(0);
    expect(await audits('Admin.GrantPackage', support.id)).toEqual([]);
    // An audit row that cannot be written (a role outside the table's CHECK) takes the package down with it.
    const broken = { operatorId: support.id, operatorName: 'x', role: 'nobody' as never, ip: '1', now: Date.now() };
    await expect(grantPackage(env.DB, broken, { ...grant, productType: 10, billingMethod: 1 })).rejects.toThrow();
    expect(await n("SELECT count(*) AS n FROM proxy_packages WHERE source = 'operator'")).toBe(0);

    const res = await callApi<{ packageId: number; name: string }>('Admin.GrantPackage', grant, {
      cookie: support.cookie,
    });
    expect(res.body.P?.name).toBe('赠送 · 短效动态IP · 按量 2000个 · 5分钟');
    const list = await callApi<{ list: { id: number; name?: string }[] }>(
      'Proxy.GetProxys',
      { type: 10, page: 1, pageSize: 10 },
      { cookie },
    );
    expect(JSON.stringify(list.body)).toContain('赠送 · 短效动态IP · 按量 2000个 · 5分钟');
    expect(
      await n(
        "SELECT remaining_count AS n FROM proxy_packages WHERE id = ? AND source = 'operator' AND user_id = ?",
        res.body.P?.packageId,
        userId,
      ),
    ).toBe(2000);
    expect(await audits('Admin.GrantPackage', support.id)).toEqual([
      expect.objectContaining({ target: `user:${userId}`, reason: '故障补偿' }),
    ]);
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
    const created = await callApi<{ id: number }>('Admin.SellerSave', seller, { cookie: finance.cookie });
    const sellerId = created.body.P?.id ?? 0;
    expect(sellerId).toBeGreaterThan(0);
    expect((await callApi('Admin.SellerSave', seller, { cookie: finance.cookie })).body.E).toBe('该销售编码已被使用');

    const a = await makeUser();
    const b = await makeUser();
    const assigned = await callApi<{ assigned: number; unknown: string[] }>(
      'Admin.SellerAssign',
      { sellerId, targets: `${a.phone}\n${b.id}\n13900009998`, reason: '划归销售' },
      { cookie: finance.cookie },
    );
    expect(assigned.body.P).toEqual({ assigned: 2, unknown: ['13900009998'] });
    expect(await n('SELECT count(*) AS n FROM users WHERE seller_id = ?', sellerId)).toBe(2);
    const list = await callApi<{ list: { id: number; customers: number }[] }>(
      'Admin.SellerList',
      {},
      { cookie: support.cookie },
    );
    expect(list.body.P?.list.find((s) => s.id === sellerId)?.customers).toBe(2);
    expect(await audits('Admin.SellerAssign', finance.id)).toHaveLength(1);

    // Commission ledger of a promoter.
    await env.DB.prepare(
      `INSERT INTO commission_entries (promoter_id, invitee_id, order_no, product_type, base_fen, rate_bp, amount_fen,
         state, created_at) VALUES (?, ?, 'P0001', 10, 10000, 1000, 1000, 1, ?)`,
    )
      .bind(a.id, b.id, Date.now())
      .run();
    const tools = await callApi<{
      seller: { id: number } | null;
      commission: { summary: { availableFen: number }; list: { inviteePhone: string }[] };
    }>('Admin.CustomerTools', { userId: a.id }, { cookie: finance.cookie });
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
    expect(await n("SELECT count(*) AS n FROM proxy_packages WHERE source = 'operator'")).toBe(0);
    expect(await n('SELECT rate_limit AS n FROM proxy_api_credentials WHERE user_id = ?', u.id)).toBe(10);
  });
});
