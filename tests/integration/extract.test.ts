import { beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '../../src/lib/console-states';
import { PACKAGE_STATE } from '../../src/lib/package-states';
import { shanghaiDay } from '../../src/lib/time';
import { setAccountStatus, setExtractKey } from '../helpers/accounts';
import { resetDb } from '../helpers/api';
import {
  addPool,
  allowIp,
  endFirstLeases,
  endPackageAt,
  extractCall,
  extractLogs,
  leaseCount,
  leasesChargedToTheirPackage,
  makePackage,
  makeUser,
  moveLeasesToDay,
  rateWindowCount,
  setUsageDay,
  simplePool,
} from '../helpers/delivery';
import { packageFacts } from '../helpers/money';

beforeEach(resetDb);

const CALLER = '192.0.2.50';

async function ready(opts: { remaining?: number; rateLimit?: number } = {}) {
  const user = await makeUser(opts.rateLimit ? { rateLimit: opts.rateLimit } : {});
  const pkg = await makePackage(user.id, { remaining: opts.remaining ?? 100 });
  await allowIp(user.id, CALLER);
  return { ...user, pkg };
}

describe('GET /extract success', () => {
  it('returns ip:port entries in txt with the chosen separator and fields, and charges per IP', async () => {
    await simplePool(5);
    const u = await ready();
    const res = await extractCall({ key: u.key, num: 3, sep: 4, fields: 'ttl,region' });
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/plain');
    const entries = res.text.split('|');
    expect(entries).toHaveLength(3);
    for (const e of entries) expect(e).toMatch(/^203\.0\.113\.\d+:\d+,广东省深圳市,\d+$/);
    // ttl is capped by the package's 5-minute IP lifetime
    expect(Number(entries[0]?.split(',')[2])).toBeLessThanOrEqual(300);
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(97);
    expect(await leaseCount({ userId: u.id })).toBe(3);
    expect((await extractLogs({ userId: u.id })).filter((l) => l.code === 0).map((l) => l.returned)).toEqual([3]);
  });

  it('answers the JSON contract with optional fields only when asked', async () => {
    await simplePool(2);
    const u = await ready();
    const plain = JSON.parse((await extractCall({ key: u.key, num: 1, format: 'json' })).text);
    expect(plain).toMatchObject({ code: 0, msg: '成功', data: { count: 1 } });
    expect(Object.keys(plain.data.list[0]).sort()).toEqual(['ip', 'port', 'protocol']);
    const full = JSON.parse(
      (
        await extractCall({
          key: u.key,
          num: 2,
          format: 'json',
          protocol: 'socks5',
          fields: 'region,carrier,expire,ttl',
        })
      ).text,
    );
    expect(full.data.count).toBe(2);
    expect(full.data.list[0]).toMatchObject({ protocol: 'socks5', region: '广东省深圳市', carrier: '电信' });
    expect(full.data.list[0].expire_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(full.data.list[0].ttl).toBeGreaterThan(290);
  });

  it('filters by region, exclude, carrier, protocol and min_ttl', async () => {
    await addPool([
      { ip: '203.0.113.1', province: '北京市', city: '北京市', carrier: '联通' },
      { ip: '203.0.113.2', province: '广东省', city: '广州市', carrier: '电信' },
      { ip: '203.0.113.3', province: '广东省', city: '深圳市', carrier: '移动', protocols: 3 },
      { ip: '203.0.113.4', province: '广东省', city: '深圳市', carrier: '电信', ttlSeconds: 60 },
    ]);
    const u = await ready({ rateLimit: 50 });
    const ips = async (q: Record<string, string | number>) => {
      const r = await extractCall({ key: u.key, num: 10, format: 'json', ...q });
      return r.status === 200
        ? JSON.parse(r.text)
            .data.list.map((e: { ip: string }) => e.ip)
            .sort()
        : r.status;
    };
    expect(await ips({ region: '广东' })).toEqual(['203.0.113.2', '203.0.113.3', '203.0.113.4']);
    expect(await ips({ region: '深圳市,北京' })).toEqual(['203.0.113.1', '203.0.113.3', '203.0.113.4']);
    expect(await ips({ exclude: '广州,北京市' })).toEqual(['203.0.113.3', '203.0.113.4']);
    expect(await ips({ carrier: '联通' })).toEqual(['203.0.113.1']);
    expect(await ips({ protocol: 'socks5' })).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.4']);
    expect(await ips({ min_ttl: 120 })).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.3']);
    expect(await ips({ region: '西藏' })).toBe(404);
  });

  it('dedup 1 skips IPs given today; dedup 2 skips IPs still in use', async () => {
    await simplePool(3);
    const u = await ready();
    expect((await extractCall({ key: u.key, num: 2, dedup: 1 })).status).toBe(200);
    const second = await extractCall({ key: u.key, num: 3, dedup: 1 });
    expect(second.text.split('\r\n')).toHaveLength(1);
    const third = await extractCall({ key: u.key, num: 1, dedup: 1 });
    expect(third).toMatchObject({ status: 404, text: 'ERROR 1007 暂无满足条件的IP' });
    // yesterday's assignments no longer count for dedup 1, but an unexpired one still counts for dedup 2
    await moveLeasesToDay('2000-01-01');
    await endFirstLeases(2);
    expect((await extractCall({ key: u.key, num: 3, dedup: 1 })).text.split('\r\n')).toHaveLength(3);
    expect(shanghaiDay(Date.now())).toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});

describe('GET /extract refusals', () => {
  it('refuses a wrong key with 1001 (401) and logs nothing against any user', async () => {
    await simplePool(1);
    await ready();
    const res = await extractCall({ key: 'wrongkey0000000000000000000000000', format: 'json' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ code: 1001, msg: '密钥无效' });
    expect((await extractCall({ num: 1 })).text).toBe('ERROR 1001 密钥无效');
    expect(await extractLogs()).toEqual([]);
  });

  it('refuses a caller not on the white list with 1002 (403) and charges nothing', async () => {
    await simplePool(1);
    const u = await ready();
    const res = await extractCall({ key: u.key }, '198.51.100.99');
    expect(res).toMatchObject({ status: 403, text: 'ERROR 1002 调用IP不在白名单' });
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(100);
    expect((await extractLogs({ userId: u.id })).map((l) => l.code)).toEqual([1002]);
  });

  it('refuses a disabled or expired white-list entry with 1002', async () => {
    await simplePool(1);
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.60', { enabled: false });
    await allowIp(u.id, '192.0.2.61', { expiresAt: Date.now() - 1000 });
    expect((await extractCall({ key: u.key }, '192.0.2.60')).status).toBe(403);
    expect((await extractCall({ key: u.key, format: 'json' }, '192.0.2.61')).text).toBe(
      JSON.stringify({ code: 1002, msg: '调用IP不在白名单' }),
    );
  });

  it('matches IPv6 callers in canonical form', async () => {
    await simplePool(1);
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '2001:db8::1');
    expect((await extractCall({ key: u.key }, '2001:0DB8:0:0:0:0:0:1')).status).toBe(200);
  });

  it('refuses an exhausted package with 1004 and an expired one with 1003', async () => {
    await simplePool(5);
    const u = await ready({ remaining: 2 });
    expect((await extractCall({ key: u.key, num: 3 })).text).toBe('ERROR 1004 套餐余量不足');
    expect((await extractCall({ key: u.key, num: 2 })).status).toBe(200);
    expect((await packageFacts(u.pkg))?.state).toBe(PACKAGE_STATE.usedUp);
    expect((await extractCall({ key: u.key, num: 1 })).text).toBe('ERROR 1004 套餐余量不足');
    await endPackageAt(u.pkg);
    const expired = await extractCall({ key: u.key, format: 'json' });
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.text)).toEqual({ code: 1003, msg: '套餐不存在或已过期' });
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(0);
  });

  it('limits a time package to its daily allowance', async () => {
    await simplePool(10);
    const u = await makeUser();
    await allowIp(u.id, CALLER);
    const day = shanghaiDay(Date.now());
    const pkg = await makePackage(u.id, { billing: 2, dailyLimit: 5, usedToday: 3, usageDay: day });
    expect((await extractCall({ key: u.key, num: 3 })).status).toBe(403);
    expect((await extractCall({ key: u.key, num: 2 })).status).toBe(200);
    expect((await packageFacts(pkg))?.usedToday).toBe(5);
    // a new day starts from zero
    await setUsageDay(pkg, '2000-01-01');
    expect((await extractCall({ key: u.key, num: 4 })).status).toBe(200);
    expect((await packageFacts(pkg))?.usedToday).toBe(4);
  });

  it('names the bad parameter with 1006 (400)', async () => {
    const u = await ready();
    expect((await extractCall({ key: u.key, num: 201 })).text).toBe('ERROR 1006 参数错误：num须为1-200的整数');
    const res = await extractCall({ key: u.key, format: 'json', carrier: '铁通' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).code).toBe(1006);
    expect((await extractCall({ key: u.key, sep: 5 })).status).toBe(400);
  });

  it('holds a burst to 10 calls per second per key (1005, 429)', async () => {
    await simplePool(40);
    const u = await ready();
    // 35 concurrent calls span at most three one-second windows even on a slow machine, so at least one window gets
    // more than 10 of them. Each window is judged on its own: its first 10 calls are served, the rest refused.
    const results = await Promise.all(Array.from({ length: 35 }, () => extractCall({ key: u.key, num: 1 })));
    const logs = await extractLogs({ userId: u.id });
    expect(logs).toHaveLength(35);
    const windows = new Map<number, number[]>();
    for (const l of logs) {
      const second = Math.floor(l.createdAt / 1000);
      windows.set(second, [...(windows.get(second) ?? []), l.code]);
    }
    let served = 0;
    for (const codes of windows.values()) {
      expect(codes.filter((c) => c === 0)).toHaveLength(Math.min(10, codes.length));
      expect(codes.filter((c) => c === 1005)).toHaveLength(Math.max(0, codes.length - 10));
      served += Math.min(10, codes.length);
    }
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBe(35 - served);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.text).toBe('ERROR 1005 请求过于频繁');
    expect(results.filter((r) => r.status === 200)).toHaveLength(served);
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(100 - served);
  });

  it('gives exactly the last 10 IPs of quota to 20 concurrent calls', async () => {
    await simplePool(30);
    const u = await ready({ remaining: 10, rateLimit: 100 });
    const results = await Promise.all(Array.from({ length: 20 }, () => extractCall({ key: u.key, num: 1 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.text).toBe('ERROR 1004 套餐余量不足');
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(0);
    expect(await leaseCount({ userId: u.id })).toBe(10);
    expect((await extractLogs({ userId: u.id })).filter((l) => l.code === 0).length).toBe(10);
  });

  it('moves to the next package when a concurrent call empties the first, and records only what was charged', async () => {
    await simplePool(40);
    const u = await makeUser({ rateLimit: 100 });
    await allowIp(u.id, CALLER);
    const soon = await makePackage(u.id, { remaining: 5, expiresAt: Date.now() + 3_600_000 });
    const later = await makePackage(u.id, { remaining: 100 });
    const results = await Promise.all(Array.from({ length: 20 }, () => extractCall({ key: u.key, num: 1 })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await packageFacts(soon))?.remainingCount).toBe(0);
    expect((await packageFacts(later))?.remainingCount).toBe(85);
    // one success log and one lease per IP charged, each under the package it came from (decision 243: kept by the
    // customer's object; the node's notice is the lease forwarded to its node's object)
    expect((await extractLogs({ userId: u.id })).filter((l) => l.code === 0).length).toBe(20);
    expect(await leaseCount({ userId: u.id, packageId: soon })).toBe(5);
    expect(await leaseCount({ userId: u.id, packageId: later })).toBe(15);
    expect(await leasesChargedToTheirPackage(u.id)).toBe(20);
  });

  it('sees a disabled account and a changed key on the very next call, and counts nothing for them', async () => {
    await simplePool(5);
    const u = await ready();
    expect((await extractCall({ key: u.key, num: 1 })).status).toBe(200);
    await setAccountStatus(ACCOUNT_STATUS.disabled, u.id);
    const disabled = await extractCall({ key: u.key, num: 1 });
    expect([disabled.status, disabled.text]).toEqual([401, 'ERROR 1001 密钥无效']);
    expect(await rateWindowCount(u.id)).toBe(1);
    await setAccountStatus(ACCOUNT_STATUS.active, u.id);
    const fresh = 'changedkey0000000000000000000000';
    await setExtractKey(u.id, fresh);
    expect((await extractCall({ key: u.key, num: 1 })).status).toBe(401);
    expect((await extractCall({ key: fresh, num: 1 })).status).toBe(200);
    expect((await extractLogs({ userId: u.id })).length).toBe(2);
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(98);
  });

  it('never lets multi-IP calls overdraw: 20 concurrent calls of 3 against 10 left', async () => {
    await simplePool(30);
    const u = await ready({ remaining: 10, rateLimit: 100 });
    const results = await Promise.all(Array.from({ length: 20 }, () => extractCall({ key: u.key, num: 3 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect((await packageFacts(u.pkg))?.remainingCount).toBe(1);
    expect(await leaseCount({ userId: u.id })).toBe(9);
  });
});
