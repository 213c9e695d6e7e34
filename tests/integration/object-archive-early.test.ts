// Decision 254: a customer's records object larger than a size bound hands its history to the archive up to yesterday's
// midnight (北京时间) instead of the hot window's start, so today and yesterday stay hot; in workerd with local D1, R2
// and Durable Objects. The tests set the bound to 1 byte (`earlyAboveBytes`): the calls and leases of three days ago
// leave the object for R2 while yesterday's and today's stay; the call records, the IP records and both downloads
// show every call and lease once, in the same order and with the same totals as before the run; a dedup=1 call after
// the run still never hands out an IP the customer had today; with the default bound nothing within 7 days moves.
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { hotCutoff } from '../../src/server/archive/copy';
import { archiveObjectHistory } from '../../src/server/archive/objects';
import { archiveHotHistory } from '../../src/server/archive/copy';
import { ARCHIVE_PREFIX } from '../../src/server/archive/store';
import { customerRecords } from '../../src/server/objects/customer-records';
import { EARLY_ARCHIVE_BYTES, earlyCutoff } from '../../src/server/objects/customer-records-archive';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  addPool,
  allowIp,
  exitFacts,
  extractCall,
  forgetNodeLeases,
  makePackage,
  makeUser,
  nodeCall,
} from '../helpers/delivery';
import { forgetRecords, keptCall, clearArchive } from '../helpers/object-archive';
import { recordsOf } from '../helpers/receipts';

const MIN = 60_000;
const CALLER = '192.0.2.50';
const stores = () => ({ files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES });

// Two exits on node 1, whose object starts empty.
beforeEach(async () => {
  await resetDb();
  await clearArchive();
  await forgetNodeLeases(1);
  await addPool([{ ip: '203.0.113.30' }, { ip: '203.0.113.31' }]);
});

/**
 * A customer with an extraction key, a package, CALLER on its white list, a session, and calls kept by its object:
 * two three days ago (02:00 and 02:20 北京时间; three leases), one yesterday at 02:00 (of .31) and one today (of .30,
 * its lease already ended, so only the day keeps it hot).
 */
async function customerWithHistory(now: number) {
  const u = await makeUser({ rateLimit: 100 });
  await forgetRecords(u.id);
  const packageId = await makePackage(u.id, { remaining: 100 });
  await allowIp(u.id, CALLER);
  const cookie = await loginBySms(u.phone);
  const midnight = shanghaiMidnight(now);
  const old = midnight - 3 * DAY_MS + 2 * HOUR_MS;
  const yesterday = midnight - DAY_MS + 2 * HOUR_MS;
  const today = Math.max(midnight, now - 5 * MIN);
  await keptCall(u.id, packageId, old, ['203.0.113.30', '203.0.113.31']);
  await keptCall(u.id, packageId, old + 20 * MIN, ['203.0.113.30']);
  await keptCall(u.id, packageId, yesterday, ['203.0.113.31']);
  await keptCall(u.id, packageId, today, ['203.0.113.30'], 0);
  return { ...u, cookie, packageId, old, yesterday, today };
}

/** The objects in R2 of a kind on a day for a customer. */
async function archivedKeys(kind: string, at: number, owner: number): Promise<string[]> {
  const { objects } = await env.FILES.list({ prefix: `${ARCHIVE_PREFIX}/${kind}/${shanghaiDay(at)}/${owner}/` });
  return objects.map((o) => o.key);
}

/** A lease as the IP records show it: number, address, start, bytes. */
type Shown = [number, string, number, number];

/** What the customer's pages and downloads show: ids, times, totals; the call records also page by page (2 a page). */
async function everythingShown(c: { cookie: string; old: number }, now: number) {
  const opts = { cookie: c.cookie };
  const calls = (await callApi('ProxyRPC.GetList', { range: '7d', pageSize: 100 }, opts)).body.P;
  const pages: unknown[] = [];
  for (let page = 1; page <= 3; page++) {
    const p = (await callApi('ProxyRPC.GetList', { range: '30d', page, pageSize: 2 }, opts)).body.P;
    pages.push({ total: p?.total, rows: p?.list.map((x) => [x.id, x.createdAt]) });
  }
  // The IP records: newest first; two leases of one call (one instant) may come in either order, so they are compared
  // by time and then number.
  const byTime = (rows: Shown[]) => {
    expect(rows.map((r) => r[2])).toEqual(rows.map((r) => r[2]).sort((a, b) => b - a));
    return [...rows].sort((a, b) => b[2] - a[2] || a[0] - b[0]);
  };
  const ips = (await callApi('ProxyLog.GetList', { pageSize: 100 }, opts)).body.P;
  const ipPages: Shown[] = [];
  const ipTotals: unknown[] = [];
  for (let page = 1; page <= 3; page++) {
    const p = (await callApi('ProxyLog.GetList', { page, pageSize: 2 }, opts)).body.P;
    ipTotals.push(p?.total);
    ipPages.push(...(p?.list.map((x): Shown => [x.id, x.ip, x.assignedAt, x.bytes]) ?? []));
  }
  const range = { from: shanghaiDay(c.old), to: shanghaiDay(now) };
  const csvCalls = (await callApi('ProxyLog.Export', { kind: 'calls', ...range }, opts)).body.P;
  const csvIps = (await callApi('ProxyLog.Export', { kind: 'ips', ...range }, opts)).body.P;
  return {
    calls: { total: calls?.total, rows: calls?.list.map((x) => [x.id, x.createdAt, x.returned]) },
    pages,
    ips: {
      total: ips?.total,
      rows: byTime(ips?.list.map((x): Shown => [x.id, x.ip, x.assignedAt, x.bytes]) ?? []),
    },
    ipPages: { totals: ipTotals, rows: byTime(ipPages) },
    csv: { calls: csvCalls?.rows, ips: csvIps?.rows, callsText: csvCalls?.csv, ipsText: csvIps?.csv },
  };
}

describe('a customer object past the size bound archives all but today and yesterday (decision 254)', () => {
  it("moves three days ago's calls and leases to R2, keeps yesterday's and today's; every reader shows each once, as before", async () => {
    const now = Date.now();
    const c = await customerWithHistory(now);
    // Node 1 reports traffic through .30 during the first old call's lease (kept in its object, decision 249).
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    const usage = await nodeCall(
      'POST',
      '/node/v2/usage',
      JSON.stringify({
        batchId: 'n1-early',
        periodStart: c.old + MIN,
        periodEnd: c.old + 2 * MIN,
        rows: [
          {
            userId: c.id,
            ip: '203.0.113.30',
            port,
            clientIp: '198.51.100.7',
            bytesIn: 1000,
            bytesOut: 24,
            connections: 2,
          },
        ],
      }),
    );
    expect(usage.status).toBe(200);
    expect(await recordsOf(c.id)).toEqual({ logs: 4, leases: 5 });
    const before = await everythingShown(c, now);
    expect(before.ips.rows.map((r) => r[3])).toEqual([0, 0, 0, 0, 1024]);
    expect(before.csv.ipsText).toContain('198.51.100.7');
    expect(before.calls.total).toBe(4);
    expect(before.calls.rows?.map((r) => r[1])).toEqual([c.today, c.yesterday, c.old + 20 * MIN, c.old]);
    expect(before.ips.total).toBe(5);
    expect(before.csv).toMatchObject({ calls: 4, ips: 5 });

    // The hourly job's two steps (the objects', then D1's, which moves D1's mark to the hot window's start).
    const run = await archiveObjectHistory(stores(), now, { earlyAboveBytes: 1 });
    expect(run).toMatchObject({ leases: 3, calls: 2, complete: true });
    await archiveHotHistory(env.FILES, env.DB, now, { usageHeldFrom: run.usageHeldFrom });
    expect(await recordsOf(c.id)).toEqual({ logs: 2, leases: 2 });
    expect(await archivedKeys('extract', c.old, c.id)).toHaveLength(1);
    expect(await archivedKeys('lease', c.old, c.id)).toHaveLength(1);
    expect(await archivedKeys('extract', c.yesterday, c.id)).toEqual([]);
    expect(await archivedKeys('extract', c.today, c.id)).toEqual([]);

    // Every reader: the same rows, order, totals and pages as before the run.
    expect(await everythingShown(c, now)).toEqual(before);

    // A dedup=1 call still never hands out an IP the customer had today (.30): only .31 is left for today.
    const r = await extractCall({ key: c.key, num: 2, dedup: 1 }, CALLER);
    expect(r.status).toBe(200);
    expect(r.text.split('\r\n').map((l) => l.split(':')[0])).toEqual(['203.0.113.31']);
    // A second run finds nothing more: today and yesterday stay.
    expect(await archiveObjectHistory(stores(), now, { earlyAboveBytes: 1 })).toMatchObject({ leases: 0, calls: 0 });
  });

  it('the object answers by its own size which cutoff it used; with the default bound nothing within 7 days moves', async () => {
    const now = Date.now();
    const c = await customerWithHistory(now);
    const object = customerRecords(env.CUSTOMER_RECORDS, c.id);
    const cutoff = hotCutoff(now);
    const size = await runInDurableObject(object, (_, state) => state.storage.sql.databaseSize);
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(EARLY_ARCHIVE_BYTES);
    const ask = (aboveBytes: number) =>
      object.archiveDue({ cutoff, limit: 100, early: { cutoff: earlyCutoff(now), aboveBytes } });
    // At the bound it is not past it: the hot window's start; one byte below, yesterday's midnight.
    expect(await ask(size)).toMatchObject({ cutoff, size, leases: [], calls: [] });
    const early = await ask(size - 1);
    expect(early).toMatchObject({ cutoff: shanghaiMidnight(now) - DAY_MS, size });
    expect(early.leases.map((l) => l.assignedAt)).toEqual([c.old, c.old, c.old + 20 * MIN]);
    // Nothing was deleted by asking.
    expect(await recordsOf(c.id)).toEqual({ logs: 4, leases: 5 });

    // The job with its default bound (4 GB): every row within the 7-day window stays.
    expect(await archiveObjectHistory(stores(), now)).toMatchObject({ leases: 0, calls: 0, complete: true });
    expect(await recordsOf(c.id)).toEqual({ logs: 4, leases: 5 });
    expect(await archivedKeys('lease', c.old, c.id)).toEqual([]);
  });

  it('the 7-day records page still lists and counts a call of its partial first hour after it left early', async () => {
    const now = Date.now();
    const c = await customerWithHistory(now);
    // 7 days less a minute ago: inside the 7-day page and the 7-day hot window, before yesterday.
    const edge = now - 7 * DAY_MS + MIN;
    await keptCall(c.id, c.packageId, edge, ['203.0.113.31']);
    const page = async () => {
      const p = (await callApi('ProxyRPC.GetList', { range: '7d', pageSize: 100 }, { cookie: c.cookie })).body.P;
      return { total: p?.total, rows: p?.list.map((x) => [x.id, x.createdAt]) };
    };
    const before = await page();
    expect(before.total).toBe(5);
    expect(before.rows?.at(-1)?.[1]).toBe(edge);

    const run = await archiveObjectHistory(stores(), now, { earlyAboveBytes: 1 });
    expect(run).toMatchObject({ leases: 4, calls: 3 });
    await archiveHotHistory(env.FILES, env.DB, now, { usageHeldFrom: run.usageHeldFrom });
    expect(await recordsOf(c.id)).toEqual({ logs: 2, leases: 2 });
    expect(await page()).toEqual(before);
  });
});
