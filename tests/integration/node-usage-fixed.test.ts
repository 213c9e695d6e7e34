// A fixed (dedicated) IP's usage goes to its node's object too (decision 252): kept under the allocation and the day,
// D1 gets only the hourly totals (no node_usage row); the bandwidth page shows the same bytes, D1's older rows of the
// allocation still count, and the object's days past the hot window leave for the archive, copied before deleted.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { archiveObjectHistory } from '../../src/server/archive/objects';
import { archivePart, customerKey, readArchiveObject } from '../../src/server/archive/store';
import { fixedUsageNumber, nodeLeases } from '../../src/server/objects/node-leases';
import { resetDb } from '../helpers/api';
import {
  addPool,
  addUsage,
  allocateFixed,
  fixedAllocationOf,
  forgetNodeLeases,
  makePackage,
  nodeFixedUsageRows,
  usageRows,
} from '../helpers/delivery';
import { bandwidthOf, extractingCustomer, reportUsage, type UsageAnswer } from '../helpers/records';

const MiB = 1024 * 1024;
const FIXED_IP = '198.18.2.1';
const PORT = 40000;

beforeEach(async () => {
  await resetDb();
  await forgetNodeLeases(1);
});

/** A customer holding the dedicated IP FIXED_IP of node 1 since yesterday; its allocation's id. */
async function fixedHolder() {
  await addPool([{ ip: FIXED_IP, pool: 30 }]);
  const c = await extractingCustomer();
  const packageId = await makePackage(c.id, { type: 30, ipCount: 1, expiresAt: Date.now() + 30 * DAY_MS });
  await allocateFixed({ userId: c.id, packageId, ip: FIXED_IP, allocatedAt: Date.now() - 20 * DAY_MS });
  const row = await fixedAllocationOf(c.id);
  return { ...c, allocationId: row?.id ?? 0, port: row?.port ?? PORT };
}

/** Node 1 reports one batch of usage; the answer's data (the batch must be accepted). */
async function report(batchId: string, rows: object[], periodEnd = Date.now()) {
  const res = await reportUsage(batchId, rows, periodEnd);
  expect(res.status).toBe(200);
  return res.data as UsageAnswer;
}

const bandwidth = bandwidthOf;

describe('fixed IPs’ usage in the node objects (decision 252)', () => {
  it('a usage batch for a fixed IP adds no node_usage row; the object keeps it on the allocation and the bandwidth page shows it', async () => {
    const c = await fixedHolder();
    const row = { userId: c.id, ip: FIXED_IP, port: c.port, clientIp: '198.51.100.91', connections: 3 };
    // Every period ends at the same instant, so the rows share one day even when the test runs at Beijing midnight.
    const end = Date.now();
    expect(await report('n1-u-f1', [{ ...row, bytesIn: 5 * MiB, bytesOut: 1000 }], end)).toEqual({
      stored: 1,
      duplicate: false,
      refused: 0,
    });
    // Sent again: counted once.
    expect(await report('n1-u-f1', [{ ...row, bytesIn: 5 * MiB, bytesOut: 1000 }], end)).toMatchObject({
      duplicate: true,
    });
    // A second period from another client address of the same day adds to the allocation's day.
    await report('n1-u-f2', [{ ...row, clientIp: '198.51.100.92', bytesIn: 2 * MiB, bytesOut: 24 }], end);
    // Someone else's row on the same dedicated IP: refused, as before.
    expect((await report('n1-u-f3', [{ ...row, userId: c.id + 1, bytesIn: 1, bytesOut: 1 }], end)).refused).toBe(1);

    expect(await usageRows()).toEqual([]);
    const today = shanghaiMidnight(end - 10_000);
    expect(await nodeFixedUsageRows(1)).toEqual([
      {
        allocationId: c.allocationId,
        dayStart: today,
        userId: c.id,
        clientIp: '198.51.100.91',
        bytesIn: 5 * MiB,
        bytesOut: 1000,
      },
      {
        allocationId: c.allocationId,
        dayStart: today,
        userId: c.id,
        clientIp: '198.51.100.92',
        bytesIn: 2 * MiB,
        bytesOut: 24,
      },
    ]);
    expect(await bandwidth(c.cookie)).toEqual({ bytesIn: 7 * MiB, bytesOut: 1024 });
  });

  it('D1’s rows of the allocation from before the switch still count beside the object’s', async () => {
    const c = await fixedHolder();
    await addUsage({
      userId: c.id,
      ip: FIXED_IP,
      port: c.port,
      client: '198.51.100.93',
      at: Date.now() - HOUR_MS,
      bytesIn: 3 * MiB,
      bytesOut: 0,
    });
    await report('n1-u-f4', [
      {
        userId: c.id,
        ip: FIXED_IP,
        port: c.port,
        clientIp: '198.51.100.93',
        bytesIn: MiB,
        bytesOut: 0,
        connections: 1,
      },
    ]);
    expect(await usageRows()).toHaveLength(1);
    expect((await bandwidth(c.cookie)).bytesIn).toBe(4 * MiB);
  });

  it('an allocation’s day of usage past the hot window goes to R2 as one usage record and leaves the object; a crash between copy and delete leaves both', async () => {
    const c = await fixedHolder();
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const node = nodeLeases(env.NODE_LEASES, 1);
    const rows = [
      {
        userId: c.id,
        ip: FIXED_IP,
        port: c.port,
        clientIp: '198.51.100.94',
        bytesIn: 700,
        bytesOut: 7,
        connections: 1,
      },
    ];
    // Reported back then (the object's clock at the time).
    await node.ingestUsage(1, { batchId: 'old-1', periodStart: old, periodEnd: old + 10_000, rows }, 0, old + 20_000, [
      c.allocationId,
    ]);
    await node.ingestUsage(
      1,
      { batchId: 'old-2', periodStart: old + HOUR_MS, periodEnd: old + HOUR_MS + 10_000, rows },
      0,
      old + HOUR_MS + 20_000,
      [c.allocationId],
    );
    await report('n1-u-hot', rows, now); // today's: stays
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    const id = fixedUsageNumber(c.allocationId, shanghaiMidnight(old));
    const archived = () =>
      readArchiveObject(env.FILES, customerKey('usage', shanghaiDay(old), c.id, archivePart({ id })));

    const crashed = await archiveObjectHistory(stores, now, {
      afterFixedUsageCopy: () => {
        throw new Error('crash after copy');
      },
    });
    expect(crashed.fixedUsage).toBe(0);
    expect(await nodeFixedUsageRows(1)).toHaveLength(2);
    expect((await archived()).map((r) => r.id)).toEqual([id]);

    expect((await archiveObjectHistory(stores, now)).fixedUsage).toBe(1);
    expect((await nodeFixedUsageRows(1)).map((r) => r.dayStart)).toEqual([shanghaiMidnight(now - 10_000)]);
    const [record] = await archived();
    expect(record?.owner).toBe(c.id);
    expect(record?.data).toMatchObject({
      allocationId: c.allocationId,
      ip: FIXED_IP,
      bytesIn: 1400,
      bytesOut: 14,
      connections: 2,
      periodStart: old,
      periodEnd: old + HOUR_MS + 10_000,
    });
    expect((await archiveObjectHistory(stores, now)).fixedUsage).toBe(0);

    // A node replaying that day late: the object leaves it to D1 (archived under D1's own id), so the archived day's
    // record is not overwritten.
    expect((await report('n1-u-late', rows, old + 3 * HOUR_MS)).stored).toBe(1);
    expect(await usageRows()).toEqual([expect.objectContaining({ userId: c.id, bytesIn: 700 })]);
    expect((await nodeFixedUsageRows(1)).map((r) => r.dayStart)).toEqual([shanghaiMidnight(now - 10_000)]);
  });
});
