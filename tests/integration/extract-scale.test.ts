// Extraction at scale (docs/decisions/081): the random-key candidate choice stays fair and exact under filters and
// dedup, and wrong keys are throttled per calling IP before any key lookup.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CandidateFilter,
  countKeyFailure,
  drawStatement,
  extractInOneBatch,
  type OneBatchOutcome,
  RND_SPACE,
} from '../../src/server/db/extract';
import { shanghaiDay } from '../../src/lib/time';
import { resetDb } from '../helpers/api';
import {
  addLeases,
  addPool,
  allowIp,
  distinctRandomKeys,
  extractCall,
  extractLogs,
  forgetChargedLeases,
  keyFailures,
  leasesOf,
  makePackage,
  makeUser,
  oneBatchCall,
  poolExits,
  runDraws,
  setExitHealthy,
} from '../helpers/delivery';
import { packageFacts } from '../helpers/money';

beforeEach(resetDb);

const CALLER = '192.0.2.60';

const filter = (userId: number, f: Partial<CandidateFilter> = {}): CandidateFilter => ({
  pool: 10,
  protocolBit: 1,
  minExpiresAt: Date.now(),
  regions: [],
  excludes: [],
  carriers: [],
  limit: 1,
  excludeDay: null,
  excludeInUseAt: null,
  userId,
  ...f,
});

/**
 * The IPs (as text) of `calls` draws with filter f, counted per IP: the draw statement of the extraction batch
 * (the candidate seeks and the random choice among the first window, into the scratch table), each with its own
 * random start, many draws per D1 batch.
 */
async function draw(userId: number, calls: number, f: Partial<CandidateFilter>): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  const full = filter(userId, f);
  const ipOf = new Map((await poolExits()).map((r) => [r.id, r.ip]));
  for (let done = 0; done < calls; done += 100) {
    const draws = Array.from({ length: Math.min(100, calls - done) }, () =>
      drawStatement(env.DB, full, Math.floor(Math.random() * RND_SPACE), crypto.randomUUID()),
    );
    // each draw returns the ids of the IPs it chose
    for (const chosen of await runDraws(draws)) {
      for (const ipId of chosen) {
        const ip = ipOf.get(ipId) ?? `unknown id ${ipId}`;
        seen.set(ip, (seen.get(ip) ?? 0) + 1);
      }
    }
  }
  return seen;
}

/** One extraction batch by a proven caller, as the route runs it, with a chosen random start. */
const extractOnce = (userId: number, now: number, f: Partial<CandidateFilter>, start?: number) =>
  extractInOneBatch(
    env.DB,
    { userId, rateLimit: 1000 },
    { ...oneBatchCall(filter(userId, f), now, CALLER), ...(start === undefined ? {} : { start }) },
  );

/** The IPs a call was charged for and handed out, as text. */
const handedOut = (out: OneBatchOutcome) => (out.charged?.ips ?? []).map((a) => a.ip);

const ipsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);

/** The pool's IP ids in id order. */
const poolIds = async () => (await poolExits()).map((r) => r.id);

/** Records pool IPs as handed to the user, each [ip id, Shanghai day], leased from `now` for ten minutes. */
const recordAssignments = (userId: number, pkg: number, now: number, rows: [number, string][]): Promise<void> =>
  addLeases(rows.map(([ipId, day]) => ({ userId, packageId: pkg, ipId, day, from: now, to: now + 600_000 })));

describe('candidate choice by random key', () => {
  it('gives every matching healthy IP a fair chance and never one outside the filter, pool or health', async () => {
    const dynamic = ipsOf('203.0.113', 100);
    await addPool([
      ...dynamic.map((ip) => ({ ip })),
      // exclusively leased (fixed) IPs and the other dynamic pool must never come out of pool 10
      ...ipsOf('198.51.100', 20).map((ip) => ({ ip, pool: 30 as const })),
      ...ipsOf('192.0.2', 20).map((ip) => ({ ip, pool: 40 as const })),
    ]);
    await addPool([{ ip: '203.0.114.1' }]);
    await setExitHealthy('203.0.114.1', false);
    const u = await makeUser();
    expect(await distinctRandomKeys()).toBe(141);
    const seen = await draw(u.id, 2000, { limit: 1 });
    expect([...seen.keys()].sort()).toEqual([...dynamic].sort());
    // 2000 draws over 100 IPs: 20 each on average; a sort-free pick must not starve or favour any IP grossly
    expect(Math.min(...seen.values())).toBeGreaterThanOrEqual(3);
    expect(Math.max(...seen.values())).toBeLessThanOrEqual(60);
  });

  it('reaches every IP of a region (province or city key) and of a long region list', async () => {
    const gd = ipsOf('203.0.113', 60);
    await addPool([
      ...gd.map((ip, i) => ({ ip, city: i % 2 ? '广州市' : '深圳市' })),
      ...ipsOf('203.0.115', 60).map((ip) => ({ ip, province: '北京市', city: '北京市', carrier: '联通' as const })),
    ]);
    const u = await makeUser();
    const byProvince = await draw(u.id, 600, { limit: 2, regions: ['广东'] });
    expect([...byProvince.keys()].sort()).toEqual([...gd].sort());
    const byCity = await draw(u.id, 300, { limit: 2, regions: ['深圳'] });
    expect([...byCity.keys()].sort()).toEqual(gd.filter((_, i) => i % 2 === 0).sort());
    // several keys: one seek per key as province and as city, in one statement (D1 takes at most five terms in a
    // compound, so 6 and 16 seeks are nested)
    const byKeys = await draw(u.id, 300, { limit: 2, regions: ['上海', '深圳', '广州'] });
    expect([...byKeys.keys()].sort()).toEqual([...gd].sort());
    const eight = ['上海', '天津', '重庆', '江苏', '浙江', '四川', '湖北', '广东'];
    const byEight = await draw(u.id, 600, { limit: 2, regions: eight });
    expect([...byEight.keys()].sort()).toEqual([...gd].sort());
    // more region keys than index seeks: one scan of the pool index with the region filter as a residual
    const many = ['上海', '天津', '重庆', '江苏', '浙江', '四川', '湖北', '湖南', '广东'];
    const byList = await draw(u.id, 600, { limit: 2, regions: many });
    expect([...byList.keys()].sort()).toEqual([...gd].sort());
    // a municipality matches as province and as city: each IP still comes once per call
    await makePackage(u.id);
    await allowIp(u.id, CALLER);
    const bj = handedOut(await extractOnce(u.id, Date.now(), { limit: 60, regions: ['北京'] }));
    expect(new Set(bj).size).toBe(60);
    expect(bj).toHaveLength(60);
  });

  it('with dedup, reaches every IP the caller may have and never one it had today', async () => {
    const all = ipsOf('203.0.113', 60);
    await addPool(all.map((ip) => ({ ip })));
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const day = shanghaiDay(Date.now());
    const now = Date.now();
    // 20 of the 60 IPs (every third) were handed to this user today
    const ids = await poolIds();
    await recordAssignments(
      u.id,
      pkg,
      now,
      ids.filter((_, i) => i % 3 === 0).map((id) => [id, day]),
    );
    const had = new Set((await leasesOf(u.id)).map((l) => l.ip));
    expect(had.size).toBe(20);
    const seen = await draw(u.id, 400, { limit: 3, excludeDay: day });
    expect([...seen.keys()].sort()).toEqual(all.filter((ip) => !had.has(ip)).sort());
  });

  it('dedup probes find the last unused IPs of a heavy day, whatever the random start', async () => {
    const all = ipsOf('203.0.113', 100);
    await addPool(all.map((ip) => ({ ip })));
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const day = shanghaiDay(Date.now());
    const now = Date.now();
    // 90 of the 100 IPs were handed to this user today; 5 of the rest are still held from yesterday
    const ids = (await poolIds()).slice(0, 95);
    await recordAssignments(
      u.id,
      pkg,
      now,
      ids.map((id, i) => [id, i < 90 ? day : '2000-01-01']),
    );
    await allowIp(u.id, CALLER);
    // each call below is charged and records its own assignments (they carry its log id): removed after each call,
    // so every call sees the same history
    const forget = forgetChargedLeases;
    for (const start of [0, 2 ** 30, 2 ** 31 - 1]) {
      const today = handedOut(await extractOnce(u.id, now, { limit: 10, excludeDay: day }, start));
      expect(today.sort()).toEqual(all.slice(90).sort());
      await forget();
      const inUse = handedOut(await extractOnce(u.id, now, { limit: 10, excludeInUseAt: now }, start));
      expect(inUse.sort()).toEqual(all.slice(95).sort());
      await forget();
    }
    // each call was charged for exactly what it handed out: 3 × (10 + 5)
    expect((await packageFacts(pkg))?.remainingCount).toBe(55);
  });
});

describe('wrong-key throttle per calling IP', () => {
  it('answers 1011 (429) after 20 wrong keys in a minute, before looking up any key, and spares other callers', async () => {
    await addPool(ipsOf('203.0.113', 3).map((ip) => ({ ip })));
    const u = await makeUser();
    await makePackage(u.id);
    const attacker = '198.51.100.77';
    await allowIp(u.id, CALLER);
    await allowIp(u.id, attacker);
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 30; i++) {
      const wrong = `guess${String(i).padStart(4, '0')}${crypto.randomUUID().replaceAll('-', '')}`;
      const res = await extractCall({ key: wrong, format: 'json' }, attacker);
      statuses.push(res.status);
      last = res.text;
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    expect(JSON.parse(last)).toEqual({ code: 1011, msg: '密钥错误次数过多，请1分钟后再试' });
    // refused before the lookup: the owner's right key from that IP waits out the window as well
    expect((await extractCall({ key: u.key, num: 1 }, attacker)).text).toBe(
      'ERROR 1011 密钥错误次数过多，请1分钟后再试',
    );
    // the throttled calls did no D1 work: the shared counter holds the 20 failed lookups only
    expect(await keyFailures(attacker)).toBe(20);
    // other callers of the same key are not affected, and nothing was charged or logged for the refused calls
    expect((await extractCall({ key: u.key, num: 1 }, CALLER)).status).toBe(200);
    expect(await extractLogs({ clientIp: attacker })).toEqual([]);
  });

  it('counts wrong AES tokens like wrong keys: their own code under the limit, then 1011', async () => {
    const u = await makeUser();
    const attacker = '198.51.100.78';
    await allowIp(u.id, attacker);
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await extractCall({ uid: String(u.id), token: btoa(`forged-token-${i}`), format: 'json' }, attacker);
      codes.push((JSON.parse(res.text) as { code: number }).code);
    }
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(1008));
    expect(codes[20]).toBe(1011);
  });

  it('counts failures in a window that opens at the first failure and restarts after it', async () => {
    const t0 = 1_800_000_000_000;
    expect(await countKeyFailure(env.DB, '203.0.113.9', t0, 60_000)).toEqual({ count: 1, startedAt: t0 });
    expect(await countKeyFailure(env.DB, '203.0.113.9', t0 + 59_999, 60_000)).toEqual({ count: 2, startedAt: t0 });
    expect(await countKeyFailure(env.DB, '203.0.113.10', t0 + 1, 60_000)).toEqual({ count: 1, startedAt: t0 + 1 });
    expect(await countKeyFailure(env.DB, '203.0.113.9', t0 + 60_000, 60_000)).toEqual({
      count: 1,
      startedAt: t0 + 60_000,
    });
  });
});
