import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { PACKAGE_STATE } from '../../src/lib/package-states';
import { shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { listWhiteList } from '../../src/server/db/white-list';
import { runScheduledJobs } from '../../src/server/jobs';
import { userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  allocationCount,
  allowIp,
  endPackageAt,
  extractCall,
  makePackage,
  moveWholePool,
  simplePool,
} from '../helpers/delivery';
import { packageFacts } from '../helpers/money';
import { untilKept } from '../helpers/receipts';

beforeEach(resetDb);

async function login(phone = '13800005555') {
  const cookie = await loginBySms(phone);
  const id = await userIdOf(phone);
  return { cookie, id };
}

describe('ProxyWhiteList', () => {
  it('adds, validates, caps, edits, switches and removes entries', async () => {
    const { cookie, id } = await login();
    const add = (P: ActionInput<'ProxyWhiteList.AddProxyWhiteIp'>) =>
      callApi('ProxyWhiteList.AddProxyWhiteIp', P, { cookie });
    expect((await add({ ip: '2001:DB8::0:1', remark: '服务器' })).body.P).toEqual({ added: true, ip: '2001:db8::1' });
    expect((await add({ ip: '300.1.1.1' })).body.E).toBe('请输入正确的IPv4或IPv6地址');
    expect((await add({ ip: '2001:db8::1' })).body.E).toBe('该IP已在白名单中');
    expect((await add({ ip: '192.0.2.9', expiresAt: Date.now() - 5 })).body.E).toBe('过期时间必须晚于当前时间');
    for (let i = 1; i < 20; i++) expect((await add({ ip: `192.0.2.${i}` })).body.P).toBeTruthy();
    expect((await add({ ip: '192.0.2.100' })).body.E).toBe('白名单最多添加20个IP');
    expect(await listWhiteList(env.DB, id)).toHaveLength(20);

    const list = await callApi('ProxyWhiteList.GetWhiteList', {}, { cookie });
    const entry = list.body.P?.list.find((e) => e.ip === '192.0.2.1');
    expect(entry?.live).toBe(true);
    const entryId = entry?.id ?? 0;
    const edit = await callApi(
      'ProxyWhiteList.EditProxyWhiteIp',
      { id: entryId, ip: '192.0.2.201', remark: '新' },
      { cookie },
    );
    expect(edit.body.P).toEqual({ updated: true });
    expect(
      (await callApi('ProxyWhiteList.EditProxyWhiteIp', { id: entryId, ip: '192.0.2.2' }, { cookie })).body.E,
    ).toBe('该IP已在白名单中');
    expect((await callApi('ProxyWhiteList.ChangeWhiteIpState', { id: entryId, state: 0 }, { cookie })).body.P).toEqual({
      state: 0,
    });
    expect((await listWhiteList(env.DB, id)).find((e) => e.id === entryId)?.enabled).toBe(false);
    const removed = await callApi('ProxyWhiteList.BatchRemoveProxyWhiteIp', { ids: [entryId] }, { cookie });
    expect(removed.body.P).toEqual({ removed: 1 });
    // another user's entries are out of reach
    const other = await login('13800006666');
    expect(
      (await callApi('ProxyWhiteList.ChangeWhiteIpState', { id: entryId + 1, state: 0 }, { cookie: other.cookie })).body
        .E,
    ).toBe('白名单记录不存在');
  });

  it('reports the caller IP from cf-connecting-ip', async () => {
    const { cookie } = await login();
    const res = await callApi('ProxyWhiteList.currIp', {}, { cookie, ip: '203.0.113.77' });
    expect(res.body.P).toEqual({ ip: '203.0.113.77' });
  });
});

describe('packages, key and counts', () => {
  it('lists packages, counts them for the panel, and resets the key', async () => {
    const { cookie, id } = await login();
    await simplePool(5);
    const count = await makePackage(id, { remaining: 0, state: PACKAGE_STATE.usedUp });
    await makePackage(id, { billing: 2, dailyLimit: 100 });
    await makePackage(id, { type: 40, remaining: 7 });
    await makePackage(id, {
      type: 40,
      billing: 2,
      dailyLimit: 5,
      usedToday: 5,
      usageDay: shanghaiDay(Date.now()),
    });
    const meal = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(meal.body.P?.data).toMatchObject({
      shortDynamicsNum: { num: 0, state: 1 },
      shortDynamicsDate: { num: 100, state: 1 },
      longDynamicsNum: { num: 7, state: 1 },
      longDynamicsDate: { num: 0, state: 1 },
      fixed: { num: 0, state: 0 },
    });
    const list = await callApi('Proxy.GetProxys', { type: 10 }, { cookie });
    expect(list.body.P?.total).toBe(2);
    expect((await callApi('Proxy.AlterRemark', { id: count, remark: '爬虫' }, { cookie })).body.P).toEqual({
      updated: true,
    });
    expect((await callApi('Proxy.DeleteByIds', { ids: [count] }, { cookie })).body.P).toEqual({ deleted: 1 });
    expect((await packageFacts(count))?.state).toBe(PACKAGE_STATE.deleted);

    const tool = await callApi('Extract.GetMealAndRegion', { type: 10 }, { cookie });
    const key = tool.body.P?.apiKey ?? '';
    expect(key).toMatch(/^[a-z0-9]{32}$/);
    expect(tool.body.P?.meals).toHaveLength(1);
    await allowIp(id, '192.0.2.50');
    expect((await extractCall({ key })).status).toBe(200);
    const info = await callApi('User.GetMineInfo', {}, { cookie });
    expect(info.body.P?.proxyApiOpend).toBe(true);
    expect(info.body.P?.proxyApiKey).toMatch(/^[a-z0-9]{16}$/);
    const reset = await callApi('proxy.resetSecret', {}, { cookie });
    expect(reset.body.P?.apiKey).not.toBe(key);
    expect((await extractCall({ key })).text).toBe('ERROR 1001 密钥无效');
    expect((await extractCall({ key: reset.body.P?.apiKey ?? '' })).status).toBe(200);
  });

  it('shows extractions in records, IP logs and charts at once', async () => {
    const { cookie, id } = await login();
    await simplePool(5);
    await makePackage(id, { type: 40, minutes: 1440 });
    await allowIp(id, '192.0.2.50');
    const tool = await callApi('Extract.GetMealAndRegion', { type: 40 }, { cookie });
    await moveWholePool(40);
    expect((await extractCall({ key: tool.body.P?.apiKey ?? '', type: 40, num: 2 })).status).toBe(200);
    await untilKept(id, 1);
    const rpc = await callApi('ProxyRPC.GetList', {}, { cookie });
    expect(rpc.body.P?.list[0]).toMatchObject({ returned: 2, code: 0 });
    const chart = await callApi('ProxyRPC.GetCharts', { range: '24h' }, { cookie });
    // the call's own hour and Shanghai day, not the clock's after it: the test may run across an hour or midnight
    const calledAt = rpc.body.P?.list[0]?.createdAt ?? 0;
    const hour = Math.floor(calledAt / 3_600_000) * 3_600_000;
    expect(chart.body.P?.points).toEqual([{ at: hour, calls: 1, ips: 2 }]);
    const week = await callApi('ProxyRPC.GetCharts', { range: '7d' }, { cookie });
    const day = shanghaiMidnight(calledAt);
    expect(week.body.P?.points.map((p) => p.at)).toEqual([day]);
    expect(((day - (week.body.P?.from ?? 0)) / 86_400_000) % 1).toBe(0);
    const ips = await callApi('ProxyLog.GetList', {}, { cookie });
    expect(ips.body.P?.total).toBe(2);
    const long = await callApi('ProxyIp.GetLongStaticIpList', { type: 40 }, { cookie });
    expect(long.body.P?.total).toBe(2);
    const regions = await callApi('Proxymeal.GetLongRegularRegion', {});
    expect(regions.body.P?.regions[0]).toMatchObject({ province: '广东省', count: 5 });
  });

  it('allocates dedicated IPs to a fixed package, and the jobs expire what lapsed', async () => {
    const { cookie, id } = await login();
    await simplePool(4);
    await moveWholePool(30, Date.now() + 90 * 86_400_000);
    const fixed = await makePackage(id, { type: 30, ipCount: 3, billing: 2 });
    await allowIp(id, '192.0.2.70', { expiresAt: Date.now() + 50 });
    await runScheduledJobs('*/5 * * * *', env as never);
    const record = await callApi('FixedAllocation.FixedIpConsumerRecord', {}, { cookie });
    expect(record.body.P?.total).toBe(3);
    const dist = await callApi('FixedAllocation.fixedIpAreaDistribution', {}, { cookie });
    expect(dist.body.P).toEqual({ list: [{ province: '广东省', count: 3 }] });
    const first = record.body.P?.list[0]?.id ?? 0;
    expect((await callApi('FixedAllocation.Remark', { id: first, remark: '主站' }, { cookie })).body.P).toEqual({
      updated: true,
    });
    const meal = await callApi('Proxy.GetMealCount', {}, { cookie });
    expect(meal.body.P?.data.fixed.num).toBe(3);
    await new Promise((r) => setTimeout(r, 60));
    await endPackageAt(fixed);
    await runScheduledJobs('*/5 * * * *', env as never);
    expect((await packageFacts(fixed))?.state).toBe(PACKAGE_STATE.expired);
    expect(await allocationCount({ released: false })).toBe(0);
    expect((await listWhiteList(env.DB, id)).find((e) => e.ip === '192.0.2.70')?.enabled).toBe(false);
  });
});
