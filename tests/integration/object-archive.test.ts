// The objects' history past the hot window to R2 (decision 248), in workerd with local D1, R2 and Durable Objects: the
// customer's records object's calls and leases older than the hot window are copied by the archive job (stamped with
// the usage each lease owns), verified, and only then deleted from the object; the nodes' copies of those leases leave
// too; hot rows stay; the customer's records and the operator's trace find the archived rows; a crash between copying
// and deleting leaves both copies and the re-run duplicates nothing.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, shanghaiDateTime, shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { archiveObjectHistory } from '../../src/server/archive/objects';
import { callNumber, leaseNumber } from '../../src/server/objects/customer-records-read';
import { ARCHIVE_PREFIX, readArchiveObject, type StoredRecord } from '../../src/server/archive/store';
import type { ArchiveKind } from '../../src/server/db/archive-rows';
import { customerRecords } from '../../src/server/objects/customer-records';
import { nodeLeases } from '../../src/server/objects/node-leases';
import { userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  addPool,
  addUsage,
  exitFacts,
  forgetNodeLeases,
  makePackage,
  nodeCall,
  nodeUsageRows,
} from '../helpers/delivery';
import {
  clearArchive,
  forgetRecords,
  keptCall,
  manifestObjects,
  manifestRows,
  nodeHolds,
  skipReceiptIds,
} from '../helpers/object-archive';
import { operatorLogin } from '../helpers/operators';
import { archiveAt } from '../helpers/records';
import { recordsOf } from '../helpers/receipts';

const MIN = 60_000;

// Two exits of one /24 on node 1, whose object starts empty.
beforeEach(async () => {
  await resetDb();
  await clearArchive();
  await forgetNodeLeases(1);
  await addPool([{ ip: '203.0.113.30' }, { ip: '203.0.113.31' }]);
});

/** A customer with a package, an empty records object and a session. */
async function customer(phone: string) {
  const cookie = await loginBySms(phone);
  const id = await userIdOf(phone);
  await forgetRecords(id);
  const packageId = await makePackage(id);
  return { id, cookie, packageId };
}

/** The archived records of a customer's kind on a day (every part of it). */
async function archived(kind: ArchiveKind, at: number, owner: number): Promise<StoredRecord[]> {
  const { objects } = await env.FILES.list({ prefix: `${ARCHIVE_PREFIX}/${kind}/${shanghaiDay(at)}/${owner}/` });
  return (await Promise.all(objects.map((o) => readArchiveObject(env.FILES, o.key)))).flat();
}

describe("the objects' history to the archive", () => {
  it('moves calls and leases past the hot window from the objects to R2, each lease with its usage; hot rows stay', async () => {
    const c = await customer('13900007701');
    const now = Date.now();
    // 02:00 北京时间 ten days ago: the old rows stay on one Shanghai day whatever hour the suite runs at.
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const r = await keptCall(c.id, c.packageId, old, ['203.0.113.30', '203.0.113.31']);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    await addUsage({
      userId: c.id,
      ip: '203.0.113.30',
      port,
      client: '198.51.100.7',
      at: old + MIN,
      bytesIn: 1000,
      bytesOut: 24,
    });
    await customerRecords(env.CUSTOMER_RECORDS, c.id).logRefusal({
      packageId: null,
      productType: 10,
      clientIp: '192.0.2.50',
      requested: 500,
      code: 10011,
      query: 'num=500',
      now: old + 5 * MIN,
    });
    await keptCall(c.id, c.packageId, now - HOUR_MS, ['203.0.113.30'], 120); // hot: stays
    expect(await recordsOf(c.id)).toEqual({ logs: 3, leases: 3 });
    expect(await nodeHolds()).toBe(3);

    const result = await archiveAt(now);
    expect(result.objectsArchived).toMatchObject({ leases: 2, calls: 2, nodeLeases: 2, complete: true });
    expect(await recordsOf(c.id)).toEqual({ logs: 1, leases: 1 });
    expect(await nodeHolds()).toBe(1);

    const leaseId = leaseNumber(r.id, 0);
    const leases = await archived('lease', old, c.id);
    expect(leases.map((l) => [l.id, l.data.ip, l.data.bytes, l.data.clients])).toEqual([
      [leaseNumber(r.id, 1), '203.0.113.31', 0, []],
      [leaseId, '203.0.113.30', 1024, ['198.51.100.7']],
    ]);
    const calls = await archived('extract', old, c.id);
    expect(calls.map((x) => x.id)).toContain(callNumber(r.id, 0));
    expect(calls.map((x) => [x.data.returned, x.data.code]).sort()).toEqual([
      [0, 10011],
      [2, 0],
    ]);
    expect(calls.every((x) => x.id < 0)).toBe(true);
    // A second run finds nothing left to move.
    expect((await archiveAt(now)).objectsArchived).toMatchObject({ leases: 0, calls: 0, complete: true });
  });

  it("a lease's usage kept in its node object leaves with it: on the archived lease and as one usage record (decision 249)", async () => {
    const c = await customer('13900007709');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const r = await keptCall(c.id, c.packageId, old, ['203.0.113.30']);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    const row = { userId: c.id, ip: '203.0.113.30', port, bytesIn: 1000, bytesOut: 24, connections: 2 };
    const body = JSON.stringify({
      batchId: 'n1-old',
      periodStart: old + MIN,
      periodEnd: old + 2 * MIN,
      rows: [
        { ...row, clientIp: '198.51.100.7' },
        { ...row, clientIp: '198.51.100.9', bytesIn: 10, bytesOut: 0 },
      ],
    });
    const res = await nodeCall('POST', '/node/v2/usage', body);
    expect(((await res.json()) as { data: object }).data).toEqual({ stored: 2, duplicate: false, refused: 0 });
    expect(await nodeUsageRows(1)).toHaveLength(2);

    const result = await archiveAt(now);
    expect(result.objectsArchived).toMatchObject({ leases: 1, calls: 1, nodeLeases: 1, complete: true });
    const leaseId = leaseNumber(r.id, 0);
    const [lease] = await archived('lease', old, c.id);
    expect([lease?.id, lease?.data.bytes, lease?.data.connections, lease?.data.clients]).toEqual([
      leaseId,
      1034,
      4,
      ['198.51.100.7', '198.51.100.9'],
    ]);
    const usage = await archived('usage', old, c.id);
    expect(usage).toEqual([
      expect.objectContaining({
        id: leaseId,
        data: expect.objectContaining({
          leaseId,
          ip: '203.0.113.30',
          bytesIn: 1010,
          bytesOut: 24,
          clients: [
            expect.objectContaining({ clientIp: '198.51.100.7', bytesIn: 1000, bytesOut: 24, connections: 2 }),
            expect.objectContaining({ clientIp: '198.51.100.9', bytesIn: 10, bytesOut: 0, connections: 2 }),
          ],
        }),
      }),
    ]);
    // The node object's rows left with the lease; the IP records read the archived lease with its bytes.
    expect(await nodeUsageRows(1)).toEqual([]);
    const list = (await callApi('ProxyLog.GetList', {}, { cookie: c.cookie })).body.P?.list ?? [];
    expect(list.map((l) => [l.id, l.bytes])).toEqual([[leaseId, 1034]]);
  });

  it("the customer's records read the archived rows back: the IP records, the call records and the download", async () => {
    const c = await customer('13900007702');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    await keptCall(c.id, c.packageId, old, ['203.0.113.30']);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    await addUsage({
      userId: c.id,
      ip: '203.0.113.30',
      port,
      client: '198.51.100.8',
      at: old + MIN,
      bytesIn: 4096,
      bytesOut: 0,
    });
    await keptCall(c.id, c.packageId, now - HOUR_MS, ['203.0.113.31'], 120);
    await archiveAt(now);
    expect(await recordsOf(c.id)).toEqual({ logs: 1, leases: 1 });

    const ips = await callApi('ProxyLog.GetList', {}, { cookie: c.cookie });
    expect(ips.body.P?.total).toBe(2);
    expect(ips.body.P?.list.map((l) => [l.ip, l.assignedAt, l.bytes])).toEqual([
      ['203.0.113.31', now - HOUR_MS, 0],
      ['203.0.113.30', old, 4096],
    ]);
    const calls = await callApi('ProxyRPC.GetList', { range: '30d' }, { cookie: c.cookie });
    expect(calls.body.P?.list.map((x) => x.createdAt)).toEqual([now - HOUR_MS, old]);
    const csv = await callApi(
      'ProxyLog.Export',
      { kind: 'ips', from: shanghaiDay(old), to: shanghaiDay(now) },
      { cookie: c.cookie },
    );
    expect(csv.body.P?.rows).toBe(2);
    expect(csv.body.P?.csv).toContain('198.51.100.8');
  });

  it("the operator's trace finds a lease after it left the node's object, in the archive, with its usage", async () => {
    const c = await customer('13900007703');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const r = await keptCall(c.id, c.packageId, old, ['203.0.113.30']);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    // Reported back then to the node's object (decision 249), which keeps it on the lease.
    const row = { userId: c.id, ip: '203.0.113.30', port, clientIp: '198.51.100.9', bytesIn: 2000, bytesOut: 48 };
    await nodeLeases(env.NODE_LEASES, 1).ingestUsage(
      1,
      {
        batchId: 'trace-old',
        periodStart: old + MIN,
        periodEnd: old + MIN + 10_000,
        rows: [{ ...row, connections: 1 }],
      },
      0,
      old + MIN + 20_000,
    );
    const support = await operatorLogin('support');
    const trace = async () =>
      (
        await callApi(
          'Admin.ExitTrace',
          { ip: '203.0.113.30', at: shanghaiDateTime(old + 2 * MIN) },
          { cookie: support.cookie },
        )
      ).body.P?.holders.map((h) => [h.leaseId, h.userId, h.from, h.bytes, h.clients]);
    const id = leaseNumber(r.id, 0);
    expect(await trace()).toEqual([[id, c.id, 'hot', 2048, ['198.51.100.9']]]);

    await archiveAt(now);
    expect(await nodeHolds()).toBe(0);
    expect(await trace()).toEqual([[id, c.id, 'archive', 2048, ['198.51.100.9']]]);
  });

  it('a lease that still runs stays in the object with its usage rows in D1, so its record keeps every byte', async () => {
    const c = await customer('13900007705');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    // A long-lived lease of ten days ago that runs until tomorrow, with traffic on its first day.
    await keptCall(c.id, c.packageId, old, ['203.0.113.30'], 11 * 24 * 60);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    await addUsage({
      userId: c.id,
      ip: '203.0.113.30',
      port,
      client: '198.51.100.6',
      at: old + MIN,
      bytesIn: 3000,
      bytesOut: 72,
    });

    const result = await archiveAt(now);
    expect(result.objectsArchived).toMatchObject({ leases: 0, calls: 0, complete: true, usageHeldFrom: [[c.id, old]] });
    expect(result.archived).toMatchObject({ usage: 0 });
    expect(await recordsOf(c.id)).toEqual({ logs: 1, leases: 1 });
    const ips = await callApi('ProxyLog.GetList', {}, { cookie: c.cookie });
    expect(ips.body.P?.list.map((l) => [l.assignedAt, l.bytes])).toEqual([[old, 3072]]);
  });

  it("a customer's calls lie in one archive part per day and kind, however far apart their receipts are", async () => {
    const c = await customer('13900007708');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    // Between two calls of this customer, other customers' calls take thousands of receipt ids.
    for (let i = 0; i < 3; i++) {
      await keptCall(c.id, c.packageId, old + i * MIN, [`203.0.113.${30 + i}`]);
      await skipReceiptIds(5_000);
    }
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    expect(await archiveObjectHistory(stores, now)).toMatchObject({ calls: 3, leases: 3 });
    expect(await manifestObjects(c.id)).toEqual([
      { kind: 'extract', objects: 1 },
      { kind: 'lease', objects: 1 },
    ]);
    expect(await archived('lease', old, c.id)).toHaveLength(3);
  });

  it("visits the customers a page per run; a customer's node lease copies leave once its history is archived", async () => {
    const a = await customer('13900007706');
    const b = await customer('13900007707');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    await keptCall(a.id, a.packageId, old, ['203.0.113.30']);
    await keptCall(b.id, b.packageId, old, ['203.0.113.31']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };

    const first = await archiveObjectHistory(stores, now, { maxCustomers: 1 });
    expect(first).toMatchObject({ customers: 2, visited: 1, leases: 1, nodeLeases: 1, complete: false });
    const left = (await recordsOf(a.id)).leases === 1 ? a.id : b.id;
    expect(await recordsOf(left)).toEqual({ logs: 1, leases: 1 });
    // The customer not visited yet keeps its usage rows in D1 and its lease copy in the node's object.
    expect(first.usageHeldFrom).toEqual([[left, 0]]);
    expect(await nodeHolds()).toBe(1);

    const second = await archiveObjectHistory(stores, now + HOUR_MS, { maxCustomers: 1 });
    expect(second).toMatchObject({ visited: 1, leases: 1, nodeLeases: 1 });
    expect(await recordsOf(left)).toEqual({ logs: 0, leases: 0 });
    expect(await nodeHolds()).toBe(0);
  });

  it('a crash between copying and deleting leaves both copies; the re-run deletes them and duplicates nothing', async () => {
    const c = await customer('13900007704');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const r1 = await keptCall(c.id, c.packageId, old, ['203.0.113.30', '203.0.113.31']);
    await keptCall(c.id, c.packageId, old + 20 * MIN, ['203.0.113.30']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };

    const crashed = await archiveObjectHistory(stores, now, {
      afterCopy: () => {
        throw new Error('crash after copy');
      },
    });
    // Both copies: the rows are still in the objects, and already in the archive; the nodes keep theirs.
    expect(crashed).toMatchObject({ leases: 0, calls: 0, nodeLeases: 0, complete: false, usageHeldFrom: [[c.id, 0]] });
    expect(await recordsOf(c.id)).toEqual({ logs: 2, leases: 3 });
    expect(await nodeHolds()).toBe(3);
    expect((await archived('lease', old, c.id)).map((l) => l.id)).toContain(leaseNumber(r1.id, 0));
    expect(await archived('lease', old, c.id)).toHaveLength(3);

    expect(await archiveObjectHistory(stores, now)).toMatchObject({
      leases: 3,
      calls: 2,
      nodeLeases: 3,
      complete: true,
    });
    expect(await recordsOf(c.id)).toEqual({ logs: 0, leases: 0 });
    expect(await nodeHolds()).toBe(0);
    const leases = await archived('lease', old, c.id);
    expect(leases).toHaveLength(3);
    expect(new Set(leases.map((l) => l.id)).size).toBe(3);
    const calls = await archived('extract', old, c.id);
    expect(calls).toHaveLength(2);
    // The manifest counts each row once.
    const manifest = await manifestRows(c.id);
    expect(manifest).toEqual([
      { kind: 'extract', n: 2 },
      { kind: 'lease', n: 3 },
    ]);
    expect(await archiveObjectHistory(stores, now)).toMatchObject({ leases: 0, calls: 0, complete: true });
  });

  it("a refused call logged after the customer's whole log left for the archive gets a number of its own, so the download keeps both", async () => {
    const c = await customer('13900007708');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const refuse = (at: number, clientIp: string) =>
      customerRecords(env.CUSTOMER_RECORDS, c.id).logRefusal({
        packageId: null,
        productType: 10,
        clientIp,
        requested: 1,
        code: 1002,
        query: 'num=1',
        now: at,
      });
    await refuse(old, '192.0.2.61'); // the object's first row
    await keptCall(c.id, c.packageId, old + MIN, ['203.0.113.30']); // (its hour counter has the job visit the object)
    await archiveAt(now);
    expect(await recordsOf(c.id)).toEqual({ logs: 0, leases: 0 });
    await refuse(now - 5 * MIN, '192.0.2.62');
    const csv = await callApi(
      'ProxyLog.Export',
      { kind: 'calls', from: shanghaiDay(old), to: shanghaiDay(now) },
      { cookie: c.cookie },
    );
    expect(csv.body.P?.rows).toBe(3);
    expect(csv.body.P?.csv).toContain('192.0.2.61');
    expect(csv.body.P?.csv).toContain('192.0.2.62');
  });

  it('the exit index is one object per node, /24, day and hour, however many customers held its exits', async () => {
    const a = await customer('13900007711');
    const b = await customer('13900007712');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const ra = await keptCall(a.id, a.packageId, old, ['203.0.113.30']);
    const rb = await keptCall(b.id, b.packageId, old + MIN, ['203.0.113.31']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    expect(await archiveObjectHistory(stores, now)).toMatchObject({ leases: 2, nodeLeases: 2, complete: true });
    // One object for the block's hour on node 1 (was one per customer and block): both customers' leases in it.
    const { objects } = await env.FILES.list({ prefix: `${ARCHIVE_PREFIX}/exit/${shanghaiDay(old)}/203.0.113/` });
    expect(objects.map((o) => o.key.split('/').at(-1))).toEqual(['n1-h02.ndjson.gz']);
    const indexed = await readArchiveObject(env.FILES, objects[0]?.key ?? '');
    expect(indexed.map((r) => [r.owner, r.id])).toEqual([
      [a.id, leaseNumber(ra.id, 0)],
      [b.id, leaseNumber(rb.id, 0)],
    ]);
  });

  it('a crash between writing the exit index and deleting the node copies leaves both; the re-run keeps one of each', async () => {
    const c = await customer('13900007713');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const r = await keptCall(c.id, c.packageId, old, ['203.0.113.30']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    const crashed = await archiveObjectHistory(stores, now, {
      afterIndexCopy: () => {
        throw new Error('crash after the index copy');
      },
    });
    expect(crashed).toMatchObject({ leases: 1, nodeLeases: 0 });
    expect(await nodeHolds()).toBe(1);
    const support = await operatorLogin('support');
    const trace = async () =>
      (
        await callApi(
          'Admin.ExitTrace',
          { ip: '203.0.113.30', at: shanghaiDateTime(old + 2 * MIN) },
          { cookie: support.cookie },
        )
      ).body.P?.holders.map((h) => [h.leaseId, h.from]);
    // Both copies: the node's (hot) and the index's, shown once.
    expect(await trace()).toEqual([[leaseNumber(r.id, 0), 'hot']]);
    expect(await archiveObjectHistory(stores, now)).toMatchObject({ nodeLeases: 1, complete: true });
    expect(await nodeHolds()).toBe(0);
    expect(await trace()).toEqual([[leaseNumber(r.id, 0), 'archive']]);
    const { objects } = await env.FILES.list({ prefix: `${ARCHIVE_PREFIX}/exit/${shanghaiDay(old)}/203.0.113/` });
    expect((await readArchiveObject(env.FILES, objects[0]?.key ?? '')).map((x) => x.id)).toEqual([
      leaseNumber(r.id, 0),
    ]);
  });

  it('a node copy a further window past the cutoff goes to the exit index even if its customer cannot be archived', async () => {
    const c = await customer('13900007714');
    const now = Date.now();
    const old = shanghaiMidnight(now - 16 * DAY_MS) + 2 * HOUR_MS;
    const r = await keptCall(c.id, c.packageId, old, ['203.0.113.30']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    // The customer's object fails every time it is asked: its history stays there, the run is not complete.
    const failing = await archiveObjectHistory(stores, now, {
      afterCopy: () => {
        throw new Error('object down');
      },
    });
    expect(failing).toMatchObject({ complete: false, nodeLeases: 1 });
    expect(await recordsOf(c.id)).toEqual({ logs: 1, leases: 1 });
    const { objects } = await env.FILES.list({ prefix: `${ARCHIVE_PREFIX}/exit/${shanghaiDay(old)}/203.0.113/` });
    expect((await readArchiveObject(env.FILES, objects[0]?.key ?? '')).map((x) => x.id)).toEqual([
      leaseNumber(r.id, 0),
    ]);
  });

  it('two runs at once: the customer object moves its history in one of them, the other finds it busy; nothing twice', async () => {
    const c = await customer('13900007715');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    for (let i = 0; i < 4; i++) await keptCall(c.id, c.packageId, old + i * MIN, ['203.0.113.30', '203.0.113.31']);
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    // Batches of one call, so the first run is still at work when the second asks.
    const [a, b] = await Promise.all([
      archiveObjectHistory(stores, now, { batch: 1 }),
      archiveObjectHistory(stores, now, { batch: 1 }),
    ]);
    expect([a.calls + b.calls, a.leases + b.leases]).toEqual([4, 8]);
    expect([a.complete, b.complete].sort()).toEqual([false, true]);
    expect(await recordsOf(c.id)).toEqual({ logs: 0, leases: 0 });
    expect(await archived('lease', old, c.id)).toHaveLength(8);
    expect(await manifestRows(c.id)).toEqual([
      { kind: 'extract', n: 4 },
      { kind: 'lease', n: 8 },
    ]);
  });

  it("a finished customer's node copies that its object still holds keep their usage (a call behind a lease that still runs)", async () => {
    const c = await customer('13900007716');
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    // A 30-day lease of exit .30, then a 10-minute one of the same exit: the second cannot leave before the first.
    await keptCall(c.id, c.packageId, old, ['203.0.113.30'], 30 * 24 * 60);
    const r = await keptCall(c.id, c.packageId, old + MIN, ['203.0.113.30']);
    const port = (await exitFacts('203.0.113.30'))?.port ?? 0;
    const row = { userId: c.id, ip: '203.0.113.30', port, clientIp: '198.51.100.9', bytesIn: 2000, bytesOut: 48 };
    await nodeLeases(env.NODE_LEASES, 1).ingestUsage(
      1,
      {
        batchId: 'held-1',
        periodStart: old + 2 * MIN,
        periodEnd: old + 2 * MIN + 10_000,
        rows: [{ ...row, connections: 1 }],
      },
      0,
      old + 2 * MIN + 20_000,
    );
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    expect(await archiveObjectHistory(stores, now)).toMatchObject({ leases: 0, complete: true, nodeLeases: 0 });
    expect(await recordsOf(c.id)).toEqual({ logs: 2, leases: 2 });
    expect(await nodeHolds()).toBe(2);
    const ips = await callApi('ProxyLog.GetList', {}, { cookie: c.cookie });
    const shown = ips.body.P?.list.find((l) => l.id === leaseNumber(r.id, 0));
    expect(shown?.bytes).toBe(2048);
  });
});
