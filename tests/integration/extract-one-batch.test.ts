// Extraction in one round trip (docs/decisions/171): the draw of the IPs and the choice of the package happen in SQL
// inside the batch. The draw still reaches every matching healthy IP and nothing else, the scratch rows never outlive
// the call, and the package choice follows min_ttl and the soonest-expiring order.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CandidateFilter, drawStatement, extractInOneBatch, RND_SPACE } from '../../src/server/db/extract';
import { resetDb } from '../helpers/api';
import {
  addPool,
  allowIp,
  clearPicks,
  extractCall,
  extractLogs,
  fillRateWindow,
  leaseCount,
  leasesOf,
  makePackage,
  makeUser,
  oneBatchCall,
  picksOf,
  runDraws,
  scratchRowCount,
  setExitHealthy,
  simplePool,
} from '../helpers/delivery';
import { packageFacts } from '../helpers/money';

beforeEach(resetDb);

const CALLER = '192.0.2.50';
const ipsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);

describe('one-batch extraction', () => {
  it('draws every matching healthy IP over many calls, never one outside the pool, health or filter', async () => {
    const dynamic = ipsOf('203.0.113', 80);
    await addPool([
      ...dynamic.map((ip) => ({ ip })),
      ...ipsOf('198.51.100', 10).map((ip) => ({ ip, pool: 30 as const })),
      ...ipsOf('192.0.2', 10).map((ip) => ({ ip, pool: 40 as const })),
      { ip: '203.0.114.1' },
      { ip: '203.0.114.2', protocols: 4 },
    ]);
    await setExitHealthy('203.0.114.1', false);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100_000 });
    await allowIp(u.id, CALLER);
    const now = Date.now();
    const filter: CandidateFilter = {
      pool: 10,
      protocolBit: 1,
      minExpiresAt: now,
      regions: [],
      excludes: [],
      carriers: [],
      limit: 10,
      excludeDay: null,
      excludeInUseAt: null,
      userId: u.id,
    };
    const seen = new Map<string, number>();
    const call = (i: number) =>
      extractInOneBatch(
        env.DB,
        { userId: u.id, rateLimit: 1_000_000 },
        { ...oneBatchCall(filter, now, CALLER), second: i },
      );
    // 150 calls of 10 IPs, 25 in flight at a time (D1 serialises the batches). The window after the random start
    // (60 rows for 10 IPs) is smaller than the pool, so both the first arm of a seek and its wrap-around are used.
    for (let done = 0; done < 150; done += 25) {
      for (const out of await Promise.all(Array.from({ length: 25 }, (_, i) => call(done + i)))) {
        const ips = (out.charged?.ips ?? []).map((a) => a.ip);
        expect(new Set(ips).size).toBe(10);
        for (const ip of ips) seen.set(ip, (seen.get(ip) ?? 0) + 1);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...dynamic].sort());
    // 1500 IPs over 80: about 19 each; none starved or grossly favoured
    expect(Math.max(...seen.values())).toBeLessThanOrEqual(60);
    expect(await leaseCount({ userId: u.id })).toBe(1500);
    expect(await scratchRowCount()).toBe(0);
  }, 60_000);

  it('leaves no scratch rows after a success or any refusal, and charges only on success', async () => {
    await simplePool(3);
    const u = await makeUser({ rateLimit: 3 });
    const pkg = await makePackage(u.id, { remaining: 100 });
    expect((await extractCall({ key: u.key, num: 2 })).text).toBe('ERROR 1002 调用IP不在白名单');
    await allowIp(u.id, CALLER);
    expect((await extractCall({ key: u.key, num: 2 })).status).toBe(200);
    expect((await extractCall({ key: u.key, num: 2, region: '北京' })).text).toMatch(/^ERROR 1007 /);
    // The key has used its 3 calls of the current second: pinned to a window far ahead, so that the three calls above
    // straddling a second boundary (a loaded machine) cannot reset the counter before the fourth.
    await fillRateWindow(u.id, 3, Math.floor(Date.now() / 1000) + 3600);
    expect((await extractCall({ key: u.key, num: 2 })).status).toBe(429);
    expect((await extractCall({ key: 'nosuchkey0000000000000000000000', num: 2 })).status).toBe(401);
    expect((await packageFacts(pkg))?.remainingCount).toBe(98);
    expect(await leaseCount({ userId: u.id })).toBe(2);
    expect(await scratchRowCount()).toBe(0);
  });

  it('charges the soonest-expiring package whose IP lifetime covers min_ttl, and leases for that lifetime', async () => {
    await simplePool(5);
    const u = await makeUser();
    await allowIp(u.id, CALLER);
    const now = Date.now();
    const short = await makePackage(u.id, { minutes: 5, expiresAt: now + 3_600_000 });
    const long = await makePackage(u.id, { minutes: 30, expiresAt: now + 7_200_000 });
    const res = await extractCall({ key: u.key, num: 2, min_ttl: 600, format: 'json' });
    expect(res.status).toBe(200);
    expect((await packageFacts(short))?.remainingCount).toBe(100);
    expect((await packageFacts(long))?.remainingCount).toBe(98);
    // lease end: the package's 30 minutes (the IPs themselves live an hour)
    const lease = Math.max(...(await leasesOf(u.id)).filter((l) => l.packageId === long).map((l) => l.lengthMs));
    expect(lease).toBe(30 * 60_000);
    expect((await extractLogs({ packageId: long })).filter((l) => l.code === 0).map((l) => l.returned)).toEqual([2]);
    // without min_ttl the soonest-expiring package pays
    expect((await extractCall({ key: u.key, num: 1 })).status).toBe(200);
    expect((await packageFacts(short))?.remainingCount).toBe(99);
  });

  it('writes only the drawn IPs for a one-seek draw, and reads the refusal facts only when nothing was charged', async () => {
    await simplePool(100);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 1000 });
    await allowIp(u.id, CALLER);
    const now = Date.now();
    const filter: CandidateFilter = {
      pool: 10,
      protocolBit: 1,
      minExpiresAt: now,
      regions: [],
      excludes: [],
      carriers: [],
      limit: 10,
      excludeDay: null,
      excludeInUseAt: null,
      userId: u.id,
    };
    // the draw alone, its scratch rows kept: 10 rows, all chosen, out of a window of 60 candidates
    const callId = crypto.randomUUID();
    const draw = drawStatement(env.DB, filter, Math.floor(Math.random() * RND_SPACE), callId);
    const [drawn] = await runDraws([draw], { keepPicks: true });
    expect(new Set(drawn).size).toBe(10);
    expect(await picksOf(callId)).toEqual({ all: 10, chosen: 10 });
    await clearPicks();
    // a charged call gets no refusal facts back; a refused one (caller not white-listed) gets them
    const caller = { userId: u.id, rateLimit: 1_000_000 };
    const ok = await extractInOneBatch(env.DB, caller, oneBatchCall(filter, now, CALLER));
    expect(ok.charged?.ips).toHaveLength(10);
    expect(ok.packages).toEqual([]);
    const refused = await extractInOneBatch(env.DB, caller, oneBatchCall(filter, now + 1, '192.0.2.99'));
    expect(refused.charged).toBeNull();
    expect(refused.whiteListed).toBe(false);
    expect(refused.packages.map((p) => p.remainingCount)).toEqual([990]);
    expect(await scratchRowCount()).toBe(0);
  });
});
