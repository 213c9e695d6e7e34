// The records pages read three tiers, newest first (decision 246): the calls and leases kept by the customer's object
// (every call since decision 243), then the rows D1 still holds from before, then the archive. Totals and pages run
// across the tiers; the IP search finds leases in the object; each of the object's leases shows the usage D1's node
// reports give it by decision 222's rule; the CSV download holds the object's rows.
import { beforeEach, describe, expect, it } from 'vitest';
import { holdHandOvers } from '../../src/server/domain/extract';
import { PACKAGE_STATE } from '../../src/lib/package-states';
import { DAY_MS, HOUR_MS, shanghaiDay } from '../../src/lib/time';
import { receiptLeaseNumber } from '../../src/server/objects/node-leases';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { operatorLogin } from '../helpers/operators';
import {
  addLease,
  addUsage,
  allowIp,
  extractCall,
  makePackage,
  makeUser,
  moveWholePool,
  simplePool,
} from '../helpers/delivery';
import { setPackageState } from '../helpers/money';
import { recordsOf, settleRecords, untilNodesHold } from '../helpers/receipts';
import { archiveAt, CALLER, extractAndKeep, extractingCustomer, legacyCall, linesOf } from '../helpers/records';

beforeEach(resetDb);

describe('records over the object, D1 and the archive', () => {
  it('list the calls kept by the object before those D1 holds, newest first, with one total and pages across both', async () => {
    await simplePool(10);
    const c = await extractingCustomer({ remaining: 6 });
    const now = Date.now();
    await legacyCall(c.id, now - 3 * DAY_MS, 5);
    await legacyCall(c.id, now - DAY_MS, 4);
    await legacyCall(c.id, now - 3 * HOUR_MS, 3);
    // A refused call (more than the package holds), then three charged ones: all four are kept by the object.
    const calls = await extractAndKeep(c, [{ num: 7 }, { num: 2 }, { num: 2 }, { num: 2 }]);
    expect(calls.map((x) => x.status === 200)).toEqual([false, true, true, true]);

    const all = await callApi('ProxyRPC.GetList', { range: '30d', pageSize: 20 }, { cookie: c.cookie });
    expect(all.body.P?.total).toBe(7);
    const list = all.body.P?.list ?? [];
    expect(list.map((x) => x.returned)).toEqual([2, 2, 2, 0, 3, 4, 5]);
    expect(list[3]?.code).not.toBe(0);
    const times = list.map((x) => x.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const page = async (n: number) =>
      (await callApi('ProxyRPC.GetList', { range: '30d', page: n, pageSize: 3 }, { cookie: c.cookie })).body.P;
    const pages = [await page(1), await page(2), await page(3)];
    expect(pages.map((p) => p?.total)).toEqual([7, 7, 7]);
    expect(pages.map((p) => p?.list.map((x) => x.returned))).toEqual([[2, 2, 2], [0, 3, 4], [5]]);

    // A shorter range leaves D1's older calls out of the list and the total.
    const day = await callApi('ProxyRPC.GetList', { range: '24h', pageSize: 20 }, { cookie: c.cookie });
    expect(day.body.P?.total).toBe(5);
    expect(day.body.P?.list.map((x) => x.returned)).toEqual([2, 2, 2, 0, 3]);
  });

  it('list the leases kept by the object before those D1 holds, find one by address, and give each the usage it owns', async () => {
    await simplePool(2);
    const c = await extractingCustomer();
    const now = Date.now();
    await addLease({
      userId: c.id,
      ipId: 1,
      ip: '198.51.100.7',
      port: 40000,
      from: now - 2 * DAY_MS,
      to: now - DAY_MS,
    });
    await addLease({ userId: c.id, ipId: 1, ip: '198.51.100.8', port: 40000, from: now - DAY_MS, to: now - HOUR_MS });
    // The pool has two exits: each call of two gets both, so each exit is leased twice, by the first call then the second.
    const [first, second] = await extractAndKeep(c, [{ num: 2 }, { num: 2 }]);
    expect(first?.lines).toHaveLength(2);
    expect(new Set(second?.lines)).toEqual(new Set(first?.lines));

    const get = async (P: { ip?: string; page?: number; pageSize?: number }) =>
      (await callApi('ProxyLog.GetList', P, { cookie: c.cookie })).body.P;
    const all = await get({ pageSize: 10 });
    expect(all).toMatchObject({ total: 6, totalCapped: false });
    const list = all?.list ?? [];
    expect(new Set(list.slice(0, 2).map((l) => `${l.ip}:${l.port}`))).toEqual(new Set(second?.lines));
    expect(new Set(list.slice(2, 4).map((l) => `${l.ip}:${l.port}`))).toEqual(new Set(first?.lines));
    expect(list.slice(4).map((l) => l.ip)).toEqual(['198.51.100.8', '198.51.100.7']);
    const t2 = list[0]?.assignedAt ?? 0;
    const t1 = list[2]?.assignedAt ?? 0;
    expect(list[1]?.assignedAt).toBe(t2);
    expect(list[3]?.assignedAt).toBe(t1);
    expect(t2).toBeGreaterThan(t1);

    const paged = await get({ page: 2, pageSize: 4 });
    expect(paged).toMatchObject({ total: 6 });
    expect(paged?.list.map((l) => l.ip)).toEqual(['198.51.100.8', '198.51.100.7']);

    // The address search finds the object's two leases of one exit, and still D1's.
    const [ip = '', port = '0'] = (first?.lines[0] ?? '').split(':');
    const found = await get({ ip });
    expect(found?.total).toBe(2);
    expect(found?.list.map((l) => [l.ip, l.assignedAt])).toEqual([
      [ip, t2],
      [ip, t1],
    ]);
    expect((await get({ ip: '198.51.100.7' }))?.list.map((l) => l.ip)).toEqual(['198.51.100.7']);

    // Usage through that exit: each row goes to the one lease that started last before its period ended.
    const usage = { userId: c.id, ip, port: Number(port), client: '198.51.100.50' };
    await addUsage({ ...usage, at: t1 - 20_000, periodEnd: t1 - 1, bytesIn: 7 }); // before either lease
    await addUsage({ ...usage, at: t1 - 5_000, periodEnd: t1, bytesIn: 1_000, bytesOut: 24, connections: 2 });
    await addUsage({ ...usage, at: t2 + 1_000, bytesIn: 500, connections: 1 });
    await addUsage({ ...usage, userId: c.id + 1000, at: t2 + 1_000, bytesIn: 9_999 }); // someone else's traffic
    const withUsage = (await get({ ip }))?.list ?? [];
    expect(withUsage.map((l) => [l.assignedAt, l.bytes, l.connections])).toEqual([
      [t2, 500, 1],
      [t1, 1_024, 2],
    ]);
    // The page adds up to the bytes the leases own, each byte once.
    const page = (await get({ pageSize: 10 }))?.list ?? [];
    expect(page.reduce((s, l) => s + l.bytes, 0)).toBe(1_524);
  });

  it('download the object’s leases and calls with D1’s in one CSV', async () => {
    await simplePool(2);
    const c = await extractingCustomer();
    const now = Date.now();
    await addLease({ userId: c.id, ipId: 1, ip: '198.51.100.7', port: 40000, from: now - HOUR_MS, to: now });
    await legacyCall(c.id, now - HOUR_MS, 1);
    const [call] = await extractAndKeep(c, [{ num: 2 }]);
    const [ip = '', port = '0'] = (call?.lines[0] ?? '').split(':');
    await addUsage({ userId: c.id, ip, port: Number(port), client: '198.51.100.61', at: now, bytesIn: 4_096 });

    const range = { from: shanghaiDay(now - DAY_MS), to: shanghaiDay(now) };
    const ips = (await callApi('ProxyLog.Export', { kind: 'ips', ...range }, { cookie: c.cookie })).body.P;
    expect(ips?.rows).toBe(3);
    const lines = ips?.csv.split('\r\n') ?? [];
    const line = lines.find((l) => l.includes(`,${ip},${port},`)) ?? '';
    expect(line).toContain(',4096,');
    expect(line).toContain('198.51.100.61');
    expect(ips?.csv).toContain('198.51.100.7');

    const calls = (await callApi('ProxyLog.Export', { kind: 'calls', ...range }, { cookie: c.cookie })).body.P;
    expect(calls?.rows).toBe(2);
    expect(calls?.csv).toContain('num=2');
  });

  it('page across all three tiers: the object, then D1, then the archive', async () => {
    await simplePool(2);
    const c = await extractingCustomer();
    const now = Date.now();
    const old = now - 10 * DAY_MS;
    await addLease({ userId: c.id, ipId: 1, ip: '198.51.100.7', port: 40000, from: old, to: old + HOUR_MS });
    await legacyCall(c.id, old, 1);
    await addLease({ userId: c.id, ipId: 1, ip: '198.51.100.8', port: 40000, from: now - HOUR_MS, to: now });
    await legacyCall(c.id, now - HOUR_MS, 1);
    expect(await archiveAt(now)).toMatchObject({ archived: { lease: 1, extract: 1 } });
    const [call] = await extractAndKeep(c, [{ num: 2 }]);

    const ips = async (page: number, pageSize: number) =>
      (await callApi('ProxyLog.GetList', { page, pageSize }, { cookie: c.cookie })).body.P;
    const all = await ips(1, 10);
    expect(all?.total).toBe(4);
    expect(new Set(all?.list.slice(0, 2).map((l) => `${l.ip}:${l.port}`))).toEqual(new Set(call?.lines));
    expect(all?.list.slice(2).map((l) => l.ip)).toEqual(['198.51.100.8', '198.51.100.7']);
    const byOne = [await ips(3, 1), await ips(4, 1)];
    expect(byOne.map((p) => [p?.total, p?.list.map((l) => l.ip)])).toEqual([
      [4, ['198.51.100.8']],
      [4, ['198.51.100.7']],
    ]);
    expect((await ips(2, 3))?.list.map((l) => l.ip)).toEqual(['198.51.100.7']);

    const calls = async (page: number, pageSize: number) =>
      (await callApi('ProxyRPC.GetList', { range: '30d', page, pageSize }, { cookie: c.cookie })).body.P;
    const list = await calls(1, 10);
    expect(list?.total).toBe(3);
    expect(list?.list.map((x) => x.returned)).toEqual([2, 1, 1]);
    expect(list?.list.slice(1).map((x) => x.createdAt)).toEqual([now - HOUR_MS, old]);
    const pages = [await calls(2, 1), await calls(3, 1), await calls(2, 2)];
    expect(pages.map((p) => [p?.total, p?.list.map((x) => x.createdAt)])).toEqual([
      [3, [now - HOUR_MS]],
      [3, [old]],
      [3, [old]],
    ]);
  });

  it("an operator's export of a customer's history includes the calls and IPs the customer's object keeps", async () => {
    await simplePool(10);
    const c = await extractingCustomer();
    await extractAndKeep(c, [{ num: 2 }, { num: 3 }]);
    const support = await operatorLogin('support');
    const day = shanghaiDay(Date.now());
    const calls = await callApi(
      'Admin.CustomerHistoryExport',
      { phone: c.phone, kind: 'calls', from: day, to: day },
      { cookie: support.cookie },
    );
    expect(calls.body.P?.rows).toBe(2);
    const ips = await callApi(
      'Admin.CustomerHistoryExport',
      { phone: c.phone, kind: 'ips', from: day, to: day },
      { cookie: support.cookie },
    );
    expect(ips.body.P?.rows).toBe(5);
  });
});

describe('records right after a call (decision 247)', () => {
  it('show the call and its IPs the moment it was answered, before its hand-over, and once after it', async () => {
    await simplePool(10);
    const c = await extractingCustomer();
    // The hand-over held back 250 ms (it runs at once otherwise), so the pages read the call before it.
    holdHandOvers(250);
    const call = await extractCall({ key: c.key, num: 2 }, CALLER).finally(() => holdHandOvers(0));
    expect(call.status).toBe(200);
    const lines = linesOf(call.text);
    // Nothing handed over yet.
    expect(await recordsOf(c.id)).toEqual({ logs: 0, leases: 0 });

    const calls = (await callApi('ProxyRPC.GetList', { range: '24h', pageSize: 10 }, { cookie: c.cookie })).body.P;
    expect(calls?.list.map((x) => [x.returned, x.code])).toEqual([[2, 0]]);
    const ips = (await callApi('ProxyLog.GetList', { pageSize: 10 }, { cookie: c.cookie })).body.P;
    expect(ips?.total).toBe(2);
    expect(new Set(ips?.list.map((l) => `${l.ip}:${l.port}`))).toEqual(new Set(lines));
    const day = shanghaiDay(Date.now());
    const csv = (await callApi('ProxyLog.Export', { kind: 'ips', from: day, to: day }, { cookie: c.cookie })).body.P;
    expect(csv?.rows).toBe(2);

    // The batch's hand-over comes after: the call is kept once, and the pages still show it once.
    await settleRecords();
    expect(await recordsOf(c.id)).toEqual({ logs: 1, leases: 2 });
    const again = (await callApi('ProxyRPC.GetList', { range: '24h', pageSize: 10 }, { cookie: c.cookie })).body.P;
    expect(again?.list.map((x) => x.returned)).toEqual([2]);
    expect((await callApi('ProxyLog.GetList', { pageSize: 10 }, { cookie: c.cookie })).body.P?.total).toBe(2);
  });

  it('show a refused call and the charged call right after it, newest first, at once', async () => {
    await simplePool(10);
    const c = await extractingCustomer({ remaining: 5 });
    expect((await extractCall({ key: c.key, num: 7 }, CALLER)).status).not.toBe(200);
    expect((await extractCall({ key: c.key, num: 3 }, CALLER)).status).toBe(200);
    const calls = (await callApi('ProxyRPC.GetList', { range: '24h', pageSize: 10 }, { cookie: c.cookie })).body.P;
    expect(calls?.total).toBe(2);
    expect(calls?.list.map((x) => [x.requested, x.returned, x.code === 0])).toEqual([
      [3, 3, true],
      [7, 0, false],
    ]);
  });

  it('number the object’s rows apart from D1’s, as the trace numbers the leases, so a page never shows one id twice', async () => {
    await simplePool(10);
    const c = await extractingCustomer({ remaining: 6 });
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      await legacyCall(c.id, now - HOUR_MS - i, 1);
      await addLease({
        userId: c.id,
        ipId: 1,
        ip: `198.51.100.${i + 1}`,
        port: 40000,
        from: now - HOUR_MS - i,
        to: now,
      });
    }
    const [, charged] = await extractAndKeep(c, [{ num: 7 }, { num: 3 }]);

    const calls = (await callApi('ProxyRPC.GetList', { range: '24h', pageSize: 10 }, { cookie: c.cookie })).body.P;
    const callIds = calls?.list.map((x) => x.id) ?? [];
    expect(callIds).toHaveLength(5);
    expect(new Set(callIds).size).toBe(5);
    const ips = (await callApi('ProxyLog.GetList', { pageSize: 10 }, { cookie: c.cookie })).body.P;
    const leaseIds = ips?.list.map((l) => l.id) ?? [];
    expect(leaseIds).toHaveLength(6);
    expect(new Set(leaseIds).size).toBe(6);

    // Each of the object's leases carries the number the exit trace gives it (−(receipt id × 1000 + k)); the charged
    // call −(receipt id × 1000), the refused one a number of its own.
    const held = await untilNodesHold(c.id, 3);
    const byAddress = new Map(held.map((l) => [`${l.ip}:${l.port}`, receiptLeaseNumber(l.id)]));
    const kept = ips?.list.slice(0, 3) ?? [];
    expect(new Set(kept.map((l) => `${l.ip}:${l.port}`))).toEqual(new Set(charged?.lines));
    for (const l of kept) expect(l.id).toBe(byAddress.get(`${l.ip}:${l.port}`));
    const receiptId = Number(/^r(\d+)\./.exec(held[0]?.id ?? '')?.[1]);
    expect(callIds[0]).toBe(-(receiptId * 1000));
    expect(callIds[1]).toBeLessThan(0);
    expect((callIds[1] ?? 0) % 1000).not.toBe(0);
    expect(callIds.slice(2).every((id) => id > 0)).toBe(true);
  });

  it('show the leases of a package that ended early as ended, and leave them out of the live IPs', async () => {
    await simplePool(10);
    await moveWholePool(40);
    const u = await makeUser({ rateLimit: 100 });
    const ending = await makePackage(u.id, { type: 40, remaining: 10, minutes: 1440 });
    await allowIp(u.id, CALLER);
    const cookie = await loginBySms(u.phone);
    const now = Date.now();
    // One lease of the package in D1 (from before the object) and two kept by the object, all live for hours.
    await addLease({
      userId: u.id,
      packageId: ending,
      productType: 40,
      ip: '203.0.113.9',
      from: now - HOUR_MS,
      to: now + DAY_MS,
    });
    const call = await extractCall({ key: u.key, type: 40, num: 2 }, CALLER);
    expect(call.status).toBe(200);
    const live = async () =>
      (await callApi('ProxyIp.GetLongStaticIpList', { type: 40, pageSize: 10 }, { cookie })).body.P;
    expect((await live())?.total).toBe(3);

    // A refund (or an operator) disables the package: its leases end at the node, and so on the customer's pages.
    await setPackageState(ending, PACKAGE_STATE.disabled);
    const endedAt = Date.now();
    const ips = (await callApi('ProxyLog.GetList', { pageSize: 10 }, { cookie })).body.P;
    expect(ips?.total).toBe(3);
    for (const l of ips?.list ?? []) {
      expect(l.expiresAt).toBeLessThanOrEqual(endedAt);
      expect(l.expiresAt).toBeGreaterThanOrEqual(l.assignedAt);
    }
    expect((await live())?.total).toBe(0);
    const range = { from: shanghaiDay(now - DAY_MS), to: shanghaiDay(now) };
    const csv = (await callApi('ProxyLog.Export', { kind: 'ips', ...range }, { cookie })).body.P;
    expect(csv?.rows).toBe(3);
    expect(csv?.csv).not.toContain(shanghaiDay(now + DAY_MS));
  });
});
