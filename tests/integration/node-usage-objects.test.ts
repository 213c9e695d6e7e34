// A node's usage reports go to its node object (decision 249): each row lands on the one lease of that customer and
// exit the object holds that started last before the period ended (decision 222), D1 gets only the hourly totals, once
// per batch even when a call is retried or dies between the two stores; the IP records, the CSV and the trace read the
// usage from the node objects and add up to the bandwidth page.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { shanghaiDateTime, shanghaiDay } from '../../src/lib/time';
import { USAGE_LEASE_GRACE_MS } from '../../src/server/domain/node-usage';
import { nodeLeases } from '../../src/server/objects/node-leases';
import { callApi, resetDb } from '../helpers/api';
import {
  backdateNodeUsageBatches,
  forgetNodeLeases,
  nodeUsageBatches,
  nodeUsageRows,
  runNodeLeasesAlarm,
  simplePool,
  usageRows,
} from '../helpers/delivery';
import { operatorLogin } from '../helpers/operators';
import { untilNodesHold } from '../helpers/receipts';
import { bandwidthOf, extractAndKeep, extractingCustomer, reportUsage, type UsageAnswer } from '../helpers/records';

const MiB = 1024 * 1024;
const CLIENT = '198.51.100.61';

beforeEach(async () => {
  await resetDb();
  await forgetNodeLeases(1);
});

interface Row {
  userId: number;
  ip: string;
  port: number;
  clientIp: string;
  bytesIn: number;
  bytesOut: number;
  connections: number;
}

/** Node 1 reports one batch of usage; the answer's data (the batch must be accepted). */
async function report(batchId: string, rows: Row[], periodEnd = Date.now()) {
  const res = await reportUsage(batchId, rows, periodEnd);
  expect(res.status).toBe(200);
  return res.data as UsageAnswer;
}

const bandwidth = bandwidthOf;

const ipRecords = async (cookie: string) =>
  (await callApi('ProxyLog.GetList', { pageSize: 20 }, { cookie })).body.P?.list ?? [];

describe('usage in the node objects (decision 249)', () => {
  it('a report lands in the node object on its lease, not in D1; the records, the CSV and the trace read it there', async () => {
    await simplePool(1);
    const c = await extractingCustomer();
    const [call] = await extractAndKeep(c, [{ num: 1 }]);
    const [ip = '', port = '0'] = (call?.lines[0] ?? '').split(':');
    const [held] = await untilNodesHold(c.id, 1);
    const row = { userId: c.id, ip, port: Number(port), clientIp: CLIENT, bytesIn: 4000, bytesOut: 96, connections: 2 };
    // A row of a customer who holds no lease of that exit is refused, as before.
    expect(await report('n1-u-a', [row, { ...row, userId: c.id + 1 }])).toEqual({
      stored: 1,
      duplicate: false,
      refused: 1,
    });

    expect(await usageRows()).toEqual([]);
    expect(await nodeUsageRows(1)).toEqual([
      { leaseId: held?.id, clientIp: CLIENT, bytesIn: 4000, bytesOut: 96, connections: 2 },
    ]);
    expect(await nodeUsageBatches(1)).toEqual([{ batchId: 'n1-u-a', rolled: 1 }]);

    expect((await ipRecords(c.cookie)).map((l) => [l.ip, l.bytes, l.connections])).toEqual([[ip, 4096, 2]]);
    const today = shanghaiDay(Date.now());
    const csv = (await callApi('ProxyLog.Export', { kind: 'ips', from: today, to: today }, { cookie: c.cookie })).body.P
      ?.csv as string;
    const line = csv.split('\r\n').find((l) => l.includes(`,${ip},${port},`)) ?? '';
    expect(line).toContain(',4096,');
    expect(line).toContain(CLIENT);

    const support = await operatorLogin('support');
    const at = shanghaiDateTime(Date.now() + 60_000);
    const trace = await callApi('Admin.ExitTrace', { ip, at }, { cookie: support.cookie });
    expect(trace.body.P?.holders).toEqual([
      expect.objectContaining({ userId: c.id, clients: [CLIENT], bytes: 4096, connections: 2 }),
    ]);
    expect(await bandwidth(c.cookie)).toEqual({ bytesIn: 4000, bytesOut: 96 });
  });

  it('ten overlapping re-extractions of one exit: 100 MiB moved once shows on exactly one lease, as on the bandwidth page', async () => {
    await simplePool(1);
    const c = await extractingCustomer();
    const calls = await extractAndKeep(
      c,
      Array.from({ length: 10 }, () => ({ num: 1 })),
    );
    const exits = new Set(calls.map((x) => x.lines[0]));
    expect(exits.size).toBe(1);
    const [ip = '', port = '0'] = [...exits][0]?.split(':') ?? [];
    const held = await untilNodesHold(c.id, 10);
    expect(held).toHaveLength(10);
    const newest = held.reduce((a, b) =>
      b.startsAt > a.startsAt || (b.startsAt === a.startsAt && b.id > a.id) ? b : a,
    );

    const row = { userId: c.id, ip, port: Number(port), clientIp: CLIENT, connections: 5 };
    expect(await report('n1-u-100', [{ ...row, bytesIn: 100 * MiB - 1000, bytesOut: 1000 }])).toMatchObject({
      stored: 1,
    });
    expect(await nodeUsageRows(1)).toEqual([
      { leaseId: newest.id, clientIp: CLIENT, bytesIn: 100 * MiB - 1000, bytesOut: 1000, connections: 5 },
    ]);

    const list = await ipRecords(c.cookie);
    expect(list).toHaveLength(10);
    expect(list.filter((l) => l.bytes > 0).map((l) => l.bytes)).toEqual([100 * MiB]);
    const total = list.reduce((s, l) => s + l.bytes, 0);
    const page = await bandwidth(c.cookie);
    expect(total).toBe(page.bytesIn + page.bytesOut);
    expect(total).toBe(100 * MiB);
  });

  it('a retried batch counts once, also when the call died between the node object and D1', async () => {
    await simplePool(1);
    const c = await extractingCustomer();
    const [call] = await extractAndKeep(c, [{ num: 1 }]);
    const [ip = '', port = '0'] = (call?.lines[0] ?? '').split(':');
    await untilNodesHold(c.id, 1);
    const row = { userId: c.id, ip, port: Number(port), clientIp: CLIENT, bytesIn: 1000, bytesOut: 0, connections: 1 };

    // Sent twice (the node did not see the first answer): stored once.
    expect(await report('n1-u-r1', [row])).toEqual({ stored: 1, duplicate: false, refused: 0 });
    expect(await report('n1-u-r1', [row])).toEqual({ stored: 0, duplicate: true, refused: 0 });

    // The node object kept a batch, then the call died before D1's step; the node sends it again: D1 takes it once.
    const now = Date.now();
    const batch = (batchId: string) => ({ batchId, periodStart: now - 10_000, periodEnd: now, rows: [row] });
    const object = nodeLeases(env.NODE_LEASES, 1);
    await object.ingestUsage(1, batch('n1-u-r2'), USAGE_LEASE_GRACE_MS, now);
    expect(await report('n1-u-r2', [row], now)).toEqual({ stored: 1, duplicate: false, refused: 0 });

    // Another died and the node never sent it again: the object's alarm runs D1's step, once however often it runs.
    await object.ingestUsage(1, batch('n1-u-r3'), USAGE_LEASE_GRACE_MS, now);
    expect(await bandwidth(c.cookie)).toEqual({ bytesIn: 2000, bytesOut: 0 });
    expect((await nodeUsageBatches(1)).find((b) => b.batchId === 'n1-u-r3')?.rolled).toBe(0);
    await backdateNodeUsageBatches(1, 120_000);
    expect(await runNodeLeasesAlarm(1)).toBe(true);
    expect((await nodeUsageBatches(1)).every((b) => b.rolled === 1)).toBe(true);
    await object.repairUsage(Date.now());
    expect(await report('n1-u-r3', [row], now)).toEqual({ stored: 0, duplicate: true, refused: 0 });

    expect(await bandwidth(c.cookie)).toEqual({ bytesIn: 3000, bytesOut: 0 });
    expect(await nodeUsageRows(1)).toEqual([expect.objectContaining({ bytesIn: 3000, connections: 3 })]);
    expect((await ipRecords(c.cookie)).map((l) => l.bytes)).toEqual([3000]);
  });
});
