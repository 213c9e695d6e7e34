// The delivery archive (docs/delivery.md, docs/decisions/219-222), in workerd with local D1 and R2: every byte of usage
// belongs to one lease (the IP records add up to the bandwidth page); history past the hot window is copied to R2 and
// deleted from D1 only after the copy (a crash in between leaves both, a re-run repairs without duplicates); the
// customer still sees archived records and downloads them as CSV; the operator's trace finds who held an exit IP at a
// moment, from hot data and from the archive, and every lookup is audited; the archive keeps at least 180 days.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, shanghaiDateTime, shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { archiveHotHistory } from '../../src/server/archive/copy';
import {
  clampArchiveDays,
  customerKey,
  exitBucket,
  expireArchive,
  readArchiveObject,
  writeArchive,
} from '../../src/server/archive/store';
import { hotLeasesOfExit, listArchiveObjects, rowsToArchive } from '../../src/server/db/archive-rows';
import { insertExtractLog } from '../../src/server/db/extract';
import { leasesBetween, rollupHours } from '../../src/server/db/records';
import { findOrCreateUserByPhone } from '../../src/server/db/users';
import { userIdOf } from '../helpers/accounts';
import { clearArchive } from '../helpers/object-archive';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  addLease,
  addPool,
  addRefusal,
  addUsage,
  archiveObjectCount,
  archiveObjectRows,
  exitFacts,
  historyCounts,
  makePackage,
  queryPlan,
  recordingDb,
} from '../helpers/delivery';
import { auditRows, operatorLogin } from '../helpers/operators';
import { archiveAt } from '../helpers/records';

const MIN = 60_000;
const MiB = 1024 * 1024;

beforeEach(async () => {
  await resetDb();
  await clearArchive();
});

const lease = (r: { userId: number; ip: string; packageId?: number; at: number; until: number }): Promise<number> =>
  addLease({ userId: r.userId, ip: r.ip, packageId: r.packageId ?? 1, from: r.at, to: r.until });

async function usage(r: { userId: number; ip: string; client: string; at: number; bytesIn: number; bytesOut: number }) {
  await addUsage({ ...r, port: (await exitFacts(r.ip))?.port ?? 0 });
}

/** A successful one-IP extraction call of a user at `at`. */
const call = (userId: number, at: number) =>
  insertExtractLog(env.DB, {
    userId,
    packageId: null,
    productType: 10,
    clientIp: '192.0.2.9',
    requested: 1,
    returned: 1,
    code: 0,
    query: 'num=1',
    now: at,
  });

describe('byte attribution', () => {
  it('counts each byte once across overlapping re-extractions, so IP records add up to the bandwidth page', async () => {
    const cookie = await loginBySms('13800006601');
    const me = await userIdOf('13800006601');
    await addPool([{ ip: '203.0.113.7' }]);
    const now = Date.now();
    const base = now - 30 * MIN;
    // Ten re-extractions of one exit, each lease 10 minutes, one a minute after the other: all overlap.
    for (let i = 0; i < 10; i++)
      await lease({ userId: me, ip: '203.0.113.7', at: base + i * MIN, until: base + i * MIN + 10 * MIN });
    // 100 MiB moved once, while all ten leases ran.
    await usage({
      userId: me,
      ip: '203.0.113.7',
      client: '198.51.100.5',
      at: base + 9.5 * MIN,
      bytesIn: 60 * MiB,
      bytesOut: 40 * MiB,
    });

    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    await rollupHours(env.DB, hour - 2 * HOUR_MS, hour + HOUR_MS);
    const bw = await callApi('Statistics.Bandwidth', { range: '24h' }, { cookie });
    const bandwidth = (bw.body.P?.total.bytesIn ?? 0) + (bw.body.P?.total.bytesOut ?? 0);
    const ips = await callApi('ProxyLog.GetList', { pageSize: 20 }, { cookie });
    const recorded = (ips.body.P?.list ?? []).reduce((s, l) => s + l.bytes, 0);

    expect(bandwidth).toBe(100 * MiB);
    expect(recorded).toBe(100 * MiB);
    // The bytes went to the lease that started last before they moved (the newest, listed first).
    expect(ips.body.P?.list.map((l) => l.bytes)).toEqual([100 * MiB, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('copy then delete', () => {
  it('a crash between copying and deleting leaves both copies; the re-run deletes them and duplicates nothing', async () => {
    await addPool([{ ip: '203.0.113.8' }]);
    const me = (await findOrCreateUserByPhone(env.DB, '13900006602', 1, 0)).user.id;
    const now = Date.now();
    // 02:00 北京时间 ten days ago: the three calls 20 minutes apart stay on one Shanghai day whatever hour the suite runs at.
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    for (let i = 0; i < 3; i++) {
      await lease({ userId: me, ip: '203.0.113.8', at: old + i * 20 * MIN, until: old + i * 20 * MIN + 10 * MIN });
      await usage({
        userId: me,
        ip: '203.0.113.8',
        client: `198.51.100.${i + 1}`,
        at: old + i * 20 * MIN + MIN,
        bytesIn: 1000,
        bytesOut: 24,
      });
      await call(me, old + i * 20 * MIN);
    }
    await addRefusal(me, '203.0.113.8', old);
    await lease({ userId: me, ip: '203.0.113.8', at: now - HOUR_MS, until: now + HOUR_MS }); // hot: stays
    await call(me, now - HOUR_MS);

    await expect(
      archiveHotHistory(env.FILES, env.DB, now, {
        afterCopy: () => {
          throw new Error('crash after copy');
        },
      }),
    ).rejects.toThrow('crash after copy');
    // Both copies: the leases are still in D1, and already in the archive.
    const leaseKey = customerKey('lease', shanghaiDay(old), me, 0);
    expect((await historyCounts()).leases).toBe(4);
    expect((await readArchiveObject(env.FILES, leaseKey)).length).toBe(3);

    const moved = await archiveHotHistory(env.FILES, env.DB, now);
    expect(moved).toEqual({ lease: 3, extract: 3, usage: 3, refusal: 1 });
    expect(await historyCounts()).toMatchObject({ leases: 1, calls: 1, usage: 0, refusals: 0 });

    const leases = await readArchiveObject(env.FILES, leaseKey);
    expect(leases.map((l) => l.id)).toEqual([...new Set(leases.map((l) => l.id))]);
    expect(leases).toHaveLength(3);
    // Each lease carries the usage it owns, read before the usage rows left D1.
    expect(leases.map((l) => [l.data.bytes, l.data.clients])).toEqual([
      [1024, ['198.51.100.1']],
      [1024, ['198.51.100.2']],
      [1024, ['198.51.100.3']],
    ]);
    expect(await readArchiveObject(env.FILES, customerKey('usage', shanghaiDay(old), me, 0))).toHaveLength(3);
    expect(await readArchiveObject(env.FILES, customerKey('extract', shanghaiDay(old), me, 0))).toHaveLength(3);

    // Writing the same records again overwrites: still three.
    await writeArchive(
      env.FILES,
      env.DB,
      leases.map((l) => ({ kind: 'lease' as const, ...l })),
      now,
    );
    expect(await readArchiveObject(env.FILES, leaseKey)).toHaveLength(3);
    expect(await archiveObjectRows(leaseKey)).toBe(3);
    // A third run finds nothing left to move.
    expect(await archiveHotHistory(env.FILES, env.DB, now)).toEqual({ lease: 0, extract: 0, usage: 0, refusal: 0 });
  });
});

describe('exit index buckets', () => {
  it('group an address with its /24 or /48', () => {
    expect(exitBucket('203.0.113.9')).toBe('203.0.113');
    expect(exitBucket('2001:db8::1')).toBe('2001-0db8-0000');
    expect(exitBucket('2001:db8:12:34::9')).toBe('2001-0db8-0012');
  });
});

describe('archive retention', () => {
  it('is never below 180 days, and the daily job removes only the days past it', async () => {
    expect(clampArchiveDays(30)).toBe(180);
    expect(clampArchiveDays(undefined)).toBe(180);
    expect(clampArchiveDays(Number.NaN)).toBe(180);
    expect(clampArchiveDays(365)).toBe(365);

    const now = Date.now();
    const rec = (id: number, at: number) => ({ kind: 'extract' as const, id, owner: 5, at, data: { createdAt: at } });
    await writeArchive(env.FILES, env.DB, [rec(1, now - 185 * DAY_MS), rec(2, now - 170 * DAY_MS)], now);
    const deleted = await expireArchive(env.FILES, env.DB, 30, now); // asks for 30 days: 180 are kept all the same
    expect(deleted).toBe(1);
    expect(await readArchiveObject(env.FILES, customerKey('extract', shanghaiDay(now - 185 * DAY_MS), 5, 0))).toEqual(
      [],
    );
    expect(
      await readArchiveObject(env.FILES, customerKey('extract', shanghaiDay(now - 170 * DAY_MS), 5, 0)),
    ).toHaveLength(1);
    expect(await archiveObjectCount()).toBe(1);
  });
});

describe('archive end to end', () => {
  it('lease + usage → archive job → the record still shows from the archive → the trace finds the lease', async () => {
    const cookie = await loginBySms('13800006603');
    const me = await userIdOf('13800006603');
    await addPool([{ ip: '203.0.113.9' }, { ip: '203.0.113.19' }]);
    const pkg = await makePackage(me);
    const now = Date.now();
    const old = now - 10 * DAY_MS;
    await lease({ userId: me, ip: '203.0.113.9', packageId: pkg, at: old, until: old + 10 * MIN });
    await usage({
      userId: me,
      ip: '203.0.113.9',
      client: '198.51.100.44',
      at: old + MIN,
      bytesIn: 5 * MiB,
      bytesOut: MiB,
    });
    await call(me, old);
    // Another exit of the same /24 (the same bucket of the exit index), held at the same moment.
    await lease({ userId: me, ip: '203.0.113.19', packageId: pkg, at: old, until: old + 10 * MIN });
    await lease({ userId: me, ip: '203.0.113.9', packageId: pkg, at: now - 5 * MIN, until: now + 5 * MIN });
    await call(me, now - 5 * MIN);

    const result = await archiveAt(now);
    expect(result.archived).toEqual({ lease: 2, extract: 1, usage: 1, refusal: 0 });
    expect((await historyCounts()).leases).toBe(1);

    // The customer's IP records: the hot lease, then the archived one with its traffic.
    const ips = await callApi('ProxyLog.GetList', {}, { cookie });
    expect(ips.body.P?.total).toBe(3);
    expect(ips.body.P?.list.map((l) => [l.assignedAt, l.bytes])).toEqual([
      [now - 5 * MIN, 0],
      [old, 0],
      [old, 6 * MiB],
    ]);
    const calls = await callApi('ProxyRPC.GetList', { range: '30d' }, { cookie });
    expect(calls.body.P?.list.map((c) => c.createdAt)).toEqual([now - 5 * MIN, old]);

    // The download covers both stores: a BOM, zh-CN headers, one line per lease.
    const csv = await callApi(
      'ProxyLog.Export',
      { kind: 'ips', from: shanghaiDay(old), to: shanghaiDay(now) },
      { cookie },
    );
    expect(csv.body.P?.rows).toBe(3);
    expect(csv.body.P?.csv.startsWith('\uFEFF提取时间,IP,端口')).toBe(true);
    expect(csv.body.P?.csv).toContain('198.51.100.44');
    const tooLong = await callApi(
      'ProxyLog.Export',
      { kind: 'ips', from: shanghaiDay(now - 200 * DAY_MS), to: shanghaiDay(now) },
      { cookie },
    );
    expect(tooLong.body.E).toContain('180');

    // The operator's trace: the archived lease at its moment, the hot one now; each lookup audited.
    const support = await operatorLogin('support');
    const past = await callApi(
      'Admin.ExitTrace',
      { ip: '203.0.113.9', at: shanghaiDateTime(old + 2 * MIN) },
      { cookie: support.cookie },
    );
    expect(past.body.P?.holders).toEqual([
      expect.objectContaining({
        userId: me,
        phone: '138****6603',
        from: 'archive',
        clients: ['198.51.100.44'],
        packageName: 'test',
        realName: '未实名',
      }),
    ]);
    const present = await callApi(
      'Admin.ExitTrace',
      { ip: '203.0.113.9', at: shanghaiDateTime(now) },
      { cookie: support.cookie },
    );
    expect(present.body.P?.holders.map((h) => [h.userId, h.from])).toEqual([[me, 'hot']]);
    const nobody = await callApi(
      'Admin.ExitTrace',
      { ip: '203.0.113.9', at: shanghaiDateTime(old - DAY_MS) },
      { cookie: support.cookie },
    );
    expect(nobody.body.P?.holders).toEqual([]);
    expect(await auditRows({ action: 'Admin.ExitTrace', target: 'ip:203.0.113.9' })).toHaveLength(3);

    const exported = await callApi(
      'Admin.CustomerHistoryExport',
      { phone: '13800006603', kind: 'calls', from: shanghaiDay(old), to: shanghaiDay(now) },
      { cookie: support.cookie },
    );
    expect(exported.body.P?.rows).toBe(2);
    expect(await auditRows({ action: 'Admin.CustomerHistoryExport' })).toHaveLength(1);
    // A customer session cannot trace.
    const refused = await callApi('Admin.ExitTrace', { ip: '203.0.113.9', at: shanghaiDateTime(now) }, { cookie });
    expect(refused.body.P).toBeUndefined();
  });
});

describe('query plans of the archive and the trace', () => {
  it('read D1 through indexes, never a scan of a table that grows with history', async () => {
    const { db, seen } = recordingDb();
    const now = Date.now();
    await hotLeasesOfExit(db, '203.0.113.9', now, 300_000);
    await leasesBetween(db, { userId: 7, from: now - DAY_MS, to: now, limit: 100 });
    await listArchiveObjects(db, { owner: 7, kind: 'lease', fromDay: '2026-01-01', toDay: '2026-06-30' });
    for (const kind of ['lease', 'extract', 'usage', 'refusal'] as const) await rowsToArchive(db, kind, now, 1000);
    for (const { sql, binds } of seen) {
      const scans = (await queryPlan(sql, binds))
        .map((r) => r.detail)
        .filter(
          (d) =>
            (/^SCAN /.test(d) && !/USING|json_each|CONSTANT/.test(d)) ||
            // A one-sided range over a customer's whole lease history (a heavy customer has millions of leases).
            /ip_assignments_user_time \(user_id=\? AND assigned_at[<>]\?\)/.test(d),
        );
      expect(scans, sql).toEqual([]);
    }
  });
});
