// The IP records (ProxyLog.GetList) and the long-lived IP list (ProxyIp.GetLongStaticIpList, type 40) read the same
// leases with different filters; each filter in use narrows both the page and its total, and no filter shows all of
// the customer's leases and nobody else's (docs/decisions/186 writes only the filters in use into the statements).
import { beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { addLease, addMinuteLeases } from '../helpers/delivery';

beforeEach(resetDb);

/** A lease of `ip`:40000 (pool IP 1 of package 1) of product type 10 or 40. */
const lease = (userId: number, ip: string, productType: 10 | 40, from: number, to: number) =>
  addLease({ userId, ipId: 1, ip, port: 40000, productType, from, to });

describe('IP records filters', () => {
  it('narrow the page and the total together, and never show another customer', async () => {
    const cookie = await loginBySms('13800008888');
    const me = await userIdOf('13800008888');
    const now = Date.now();
    await lease(me, '203.0.113.1', 10, now - 5000, now - 1000); // dynamic, expired
    await lease(me, '203.0.113.2', 40, now - 4000, now + 86_400_000); // long-lived, live
    await lease(me, '203.0.113.3', 40, now - 3000, now - 500); // long-lived, expired
    await lease(me, '203.0.113.2', 10, now - 2000, now + 60_000); // the same address again, dynamic, live
    await lease(me + 1000, '203.0.113.2', 40, now - 1000, now + 86_400_000); // someone else's

    const all = await callApi('ProxyLog.GetList', {}, { cookie });
    expect(all.body.P).toMatchObject({ total: 4, totalCapped: false });
    expect(all.body.P?.list.map((l) => l.ip)).toEqual(['203.0.113.2', '203.0.113.3', '203.0.113.2', '203.0.113.1']);

    const paged = await callApi('ProxyLog.GetList', { page: 2, pageSize: 3 }, { cookie });
    expect(paged.body.P).toMatchObject({ total: 4, list: [{ ip: '203.0.113.1' }] });

    const one = await callApi('ProxyLog.GetList', { ip: '203.0.113.2' }, { cookie });
    expect(one.body.P?.total).toBe(2);
    expect(one.body.P?.list.map((l) => l.ip)).toEqual(['203.0.113.2', '203.0.113.2']);

    const long = await callApi('ProxyIp.GetLongStaticIpList', { type: 40 }, { cookie });
    expect(long.body.P).toMatchObject({ total: 1, list: [{ ip: '203.0.113.2' }] });
    const longByIp = await callApi('ProxyIp.GetLongStaticIpList', { type: 40, ip: '203.0.113.3' }, { cookie });
    expect(longByIp.body.P).toEqual({ total: 0, totalCapped: false, list: [] });
  });

  it('counts at most 10,000 leases and says there are more', async () => {
    const cookie = await loginBySms('13800008889');
    const me = await userIdOf('13800008889');
    const now = Date.now();
    const add = (n: number, from: number) => addMinuteLeases(me, n, from);
    await add(10_000, now - 100_000);
    const exact = await callApi('ProxyLog.GetList', { pageSize: 15 }, { cookie });
    expect(exact.body.P).toMatchObject({ total: 10_000, totalCapped: false });
    await add(1, now);
    const more = await callApi('ProxyLog.GetList', { pageSize: 15 }, { cookie });
    expect(more.body.P).toMatchObject({ total: 10_000, totalCapped: true });
    expect(more.body.P?.list).toHaveLength(15);
  });
});
