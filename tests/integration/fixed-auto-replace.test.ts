// User.IsAutoReplace made real (docs/decisions/095): the job moves a live fixed allocation whose IP went unhealthy to
// a free healthy IP of the same region, atomically and never to an IP someone holds, and tells the user in a notice.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceUnhealthyFixed } from '../../src/server/db/fixed';
import { runScheduledJobs } from '../../src/server/jobs';
import { userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { contentRowCount } from '../helpers/content';
import {
  addPool as addIps,
  allocateFixed,
  allocationCount,
  type IpSpec,
  liveAllocations,
  makePackage,
  setExitHealthy,
} from '../helpers/delivery';
import { DAY_MS } from '../../src/lib/time';

beforeEach(resetDb);

/** Dedicated pool IPs that outlive the packages (a candidate must outlive the allocation it takes over). */
const addPool = (ips: IpSpec[]) => addIps(ips.map((i) => ({ ttlSeconds: 30 * 86_400, ...i })));

/** A user (auto-replace on or off) holding one fixed IP 198.18.1.1 in Shenzhen; returns ids and cookie. */
async function holder(phone: string, autoReplace: boolean) {
  const cookie = await loginBySms(phone);
  const userId = await userIdOf(phone);
  await callApi('User.IsAutoReplace', { value: autoReplace }, { cookie });
  const pkg = await makePackage(userId, { type: 30, ipCount: 1, expiresAt: Date.now() + 10 * DAY_MS });
  return { cookie, userId, pkg };
}

/** The pool IP `ip` allocated to the package since yesterday, until the package's end, with a remark. */
const allocate = (userId: number, pkg: number, ip: string) =>
  allocateFixed({ userId, packageId: pkg, ip, remark: '我的备注', allocatedAt: Date.now() - DAY_MS });

const unhealthy = (ip: string) => setExitHealthy(ip, false);

const live = liveAllocations;

describe('automatic replacement of unhealthy fixed IPs', () => {
  it('moves the allocation to a healthy IP of the same city and tells the user', async () => {
    await addPool([
      { ip: '198.18.1.1', pool: 30 },
      { ip: '198.18.1.2', pool: 30, province: '浙江省', city: '杭州市' },
      { ip: '198.18.1.3', pool: 30 },
    ]);
    const { cookie, userId, pkg } = await holder('13710000001', true);
    await allocate(userId, pkg, '198.18.1.1');
    const before = await live(pkg);
    // Healthy: nothing to do.
    expect(await replaceUnhealthyFixed(env.DB, Date.now())).toBe(0);
    await unhealthy('198.18.1.1');
    await runScheduledJobs('*/5 * * * *', env as never);
    const after = await live(pkg);
    expect(after.map(({ ip, remark, expiresAt }) => ({ ip, remark, expiresAt }))).toEqual([
      { ip: '198.18.1.3', remark: '我的备注', expiresAt: before[0]?.expiresAt },
    ]);
    expect(await allocationCount({ ip: '198.18.1.1', released: true })).toBe(1);
    // The customer's list shows the new IP, and a personal notice names both addresses.
    const list = await callApi('ProxyIp.GetLongStaticIpList', { type: 30 }, { cookie });
    expect(list.body.P?.list.map((x) => x.ip)).toEqual(['198.18.1.3']);
    const notices = await callApi('Notice.getLatestNotice', {}, { cookie });
    const notice = notices.body.P?.list.find((n) => n.title === '固定IP已自动更换');
    expect(notice?.content).toContain('198.18.1.1:40000');
    expect(notice?.content).toContain('198.18.1.3:40002');
    expect(notice?.content).toContain('广东省深圳市');
    expect(notices.body.P?.unreadCount).toBe(1);
    // Only this user sees it; the public home notice never shows personal notices.
    const other = await loginBySms('13710000009');
    const theirs = await callApi('Notice.getLatestNotice', {}, { cookie: other });
    expect(theirs.body.P?.list.some((n) => n.title === '固定IP已自动更换')).toBe(false);
    expect((await callApi('Notice.getShowHomeNotice', {})).body.P?.notice).toBeNull();
    // A second run changes nothing.
    expect(await replaceUnhealthyFixed(env.DB, Date.now())).toBe(0);
    expect(await contentRowCount('home_notices')).toBe(1);
  });

  it('leaves users without auto-replace, and allocations without a same-region candidate, as they are', async () => {
    await addPool([
      { ip: '198.18.2.1', pool: 30 },
      { ip: '198.18.2.2', pool: 30 },
      { ip: '198.18.2.3', pool: 30, province: '浙江省', city: '杭州市' },
      { ip: '198.18.2.4', pool: 30, province: '浙江省', city: '杭州市' },
    ]);
    const off = await holder('13710000002', false);
    await allocate(off.userId, off.pkg, '198.18.2.1');
    await unhealthy('198.18.2.1');
    const on = await holder('13710000003', true);
    await allocate(on.userId, on.pkg, '198.18.2.3');
    await unhealthy('198.18.2.3');
    await unhealthy('198.18.2.4');
    expect(await replaceUnhealthyFixed(env.DB, Date.now())).toBe(0);
    expect((await live(off.pkg)).map((a) => a.ip)).toEqual(['198.18.2.1']);
    expect((await live(on.pkg)).map((a) => a.ip)).toEqual(['198.18.2.3']);
    expect(await contentRowCount('home_notices')).toBe(0);
  });

  it('never gives one IP two holders, even with concurrent runs and competing users', async () => {
    await addPool([
      { ip: '198.18.3.1', pool: 30 },
      { ip: '198.18.3.2', pool: 30 },
      { ip: '198.18.3.9', pool: 30 },
    ]);
    const a = await holder('13710000004', true);
    const b = await holder('13710000005', true);
    await allocate(a.userId, a.pkg, '198.18.3.1');
    await allocate(b.userId, b.pkg, '198.18.3.2');
    await unhealthy('198.18.3.1');
    await unhealthy('198.18.3.2');
    // One free healthy IP for two broken allocations, four runs at once.
    const now = Date.now();
    const moved = await Promise.all(Array.from({ length: 4 }, () => replaceUnhealthyFixed(env.DB, now)));
    expect(moved.reduce((s, n) => s + n, 0)).toBe(1);
    expect(await allocationCount({ ip: '198.18.3.9', released: false })).toBe(1);
    // Each package still holds exactly one live IP: the loser kept its (broken) one, nothing was lost.
    expect((await live(a.pkg)).length).toBe(1);
    expect((await live(b.pkg)).length).toBe(1);
    expect(await contentRowCount('home_notices')).toBe(1);
  });

  it('does not move an allocation back to an IP its package held before', async () => {
    await addPool([
      { ip: '198.18.4.1', pool: 30 },
      { ip: '198.18.4.2', pool: 30 },
    ]);
    const { userId, pkg } = await holder('13710000006', true);
    await allocate(userId, pkg, '198.18.4.1');
    await unhealthy('198.18.4.1');
    expect(await replaceUnhealthyFixed(env.DB, Date.now())).toBe(1);
    // The first IP recovers, the second fails: the package may not take the first back (UNIQUE(package_id, ip_id)).
    await setExitHealthy('198.18.4.1', true);
    await unhealthy('198.18.4.2');
    expect(await replaceUnhealthyFixed(env.DB, Date.now() + 1)).toBe(0);
    expect((await live(pkg)).map((a) => a.ip)).toEqual(['198.18.4.2']);
  });
});
