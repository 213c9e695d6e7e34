// Decision 243: a charged extraction leaves one receipt in D1 instead of its log and lease rows; the receipt reaches the
// customer's object off the path and is deleted from D1 once kept; a receipt whose hand-over was lost is handed over
// by the delivery job, and keeping is idempotent.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerDetail } from '../../src/server/db/console-customers';
import { extractInOneBatch } from '../../src/server/db/extract';
import { holdHandOvers } from '../../src/server/domain/extract';
import { handOverLostReceipts, RECEIPT_GRACE_MS } from '../../src/server/domain/receipts';
import { resetDb } from '../helpers/api';
import {
  allowIp,
  extractCall,
  extractLogs,
  leaseCount,
  makePackage,
  makeUser,
  oneBatchCall,
  simplePool,
} from '../helpers/delivery';
import { remainingCount } from '../helpers/delivery';
import { count as d1Rows } from '../helpers/rows';
import { untilNodesHold } from '../helpers/receipts';
import type { Receipt } from '../../src/server/db/extract';
import { customerRecords } from '../../src/server/objects/customer-records';
import { nodeLeases } from '../../src/server/objects/node-leases';
import { shanghaiDay } from '../../src/lib/time';
import { objectRows, receiptCount, recordsOf, runRecordsAlarm, untilKept, untilNoReceipts } from '../helpers/receipts';

beforeEach(resetDb);

const CALLER = '192.0.2.50';

describe('extraction receipts', () => {
  it('a charged call adds no log or lease row to D1: its records reach the customer object, and the receipt leaves D1', async () => {
    await simplePool(30);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await extractCall({ key: u.key, num: 5, format: 'json' });
      expect(r.status).toBe(200);
      answers.push(r.text);
    }
    expect(await remainingCount(u.id)).toBe(85);
    expect(await d1Rows('ip_assignments')).toBe(0);
    expect(await d1Rows('extract_logs')).toBe(0);
    expect(await untilKept(u.id, 3)).toEqual({ logs: 3, leases: 15 });
    // The object's alarm (due at once after it keeps a batch) deletes the receipts from D1.
    expect(await untilNoReceipts()).toBe(0);
  });

  it('a refused call writes no receipt', async () => {
    await simplePool(30);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 2 });
    await allowIp(u.id, CALLER);
    const r = await extractCall({ key: u.key, num: 5 });
    expect(r.status).not.toBe(200);
    expect(await receiptCount()).toBe(0);
    expect(await remainingCount(u.id)).toBe(2);
    // The refusal is logged by the customer's object, not in D1.
    expect(await d1Rows('extract_logs')).toBe(0);
    expect(await untilKept(u.id, 1)).toEqual({ logs: 1, leases: 0 });
  });

  it('a receipt whose hand-over was lost is handed over by the job after its grace, kept once however often', async () => {
    await simplePool(30);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    const now = Date.now();
    // The batch alone: no Worker hands the receipt over (as when the isolate went away within its batch).
    const out = await extractInOneBatch(
      env.DB,
      { userId: u.id, rateLimit: 100 },
      oneBatchCall(
        {
          pool: 10,
          protocolBit: 1,
          minExpiresAt: now,
          regions: [],
          excludes: [],
          carriers: [],
          limit: 4,
          excludeDay: null,
          excludeInUseAt: null,
          userId: u.id,
        },
        now,
      ),
    );
    expect(out.charged?.ips).toHaveLength(4);
    expect(await receiptCount()).toBe(1);
    // Within the grace the receipt may still be in its batch: the job leaves it.
    expect(await handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, now + RECEIPT_GRACE_MS - 1)).toBe(0);
    expect(await recordsOf(u.id)).toEqual({ logs: 0, leases: 0 });
    // Two runs (or a run racing a late batch) keep it once.
    const later = now + RECEIPT_GRACE_MS + 1;
    const [a, b] = await Promise.all([
      handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, later),
      handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, later),
    ]);
    expect(a + b).toBe(2);
    expect(await recordsOf(u.id)).toEqual({ logs: 1, leases: 4 });
    await runRecordsAlarm(u.id);
    expect(await receiptCount()).toBe(0);
    expect(await handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, later)).toBe(0);
    expect(await recordsOf(u.id)).toEqual({ logs: 1, leases: 4 });
  });

  it('dedup is answered by the customer object: it skips IPs kept by the object and IPs of calls still in D1 receipts, also under concurrency', async () => {
    await simplePool(9);
    const u = await makeUser({ rateLimit: 100 });
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    const ipsOf = (text: string) => (text ? text.split('\r\n') : []);
    // A plain call: its receipt is in D1 and not yet handed over when the dedup call runs (held back 250 ms here; it
    // runs at once otherwise).
    holdHandOvers(250);
    const plain = await extractCall({ key: u.key, num: 3 }).finally(() => holdHandOvers(0));
    expect(plain.status).toBe(200);
    expect(await recordsOf(u.id)).toEqual({ logs: 0, leases: 0 });
    // Two dedup calls at once: together with the plain call they get every IP once.
    const [a, b] = await Promise.all([
      extractCall({ key: u.key, num: 3, dedup: 1 }),
      extractCall({ key: u.key, num: 3, dedup: 1 }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const all = [...ipsOf(plain.text), ...ipsOf(a.text), ...ipsOf(b.text)];
    expect(all).toHaveLength(9);
    expect(new Set(all).size).toBe(9);
    // Everything is kept by now or soon; a further dedup call finds nothing left today.
    await untilKept(u.id, 3);
    expect(await extractCall({ key: u.key, num: 1, dedup: 1 })).toMatchObject({ status: 404 });
    // dedup 2 (not held now) also skips them: all nine are still held.
    expect(await extractCall({ key: u.key, num: 1, dedup: 2 })).toMatchObject({ status: 404 });
    expect(await remainingCount(u.id)).toBe(91);
  });

  it("the console's customer detail counts charged calls and IPs from the hour counters", async () => {
    await simplePool(10);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    expect((await extractCall({ key: u.key, num: 3 })).status).toBe(200);
    expect((await extractCall({ key: u.key, num: 2 })).status).toBe(200);
    expect((await extractCall({ key: u.key, num: 500 })).status).not.toBe(200);
    const detail = await customerDetail(env.DB, u.id, Date.now());
    expect(detail.extraction).toEqual({ calls24h: 2, ips24h: 5, calls30d: 2, ips30d: 5 });
  });

  it("a kept call's leases reach the objects of their exits' nodes (no D1 feed row), once", async () => {
    await simplePool(12);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    const answer = await extractCall({ key: u.key, num: 4, format: 'json' });
    expect(answer.status).toBe(200);
    await untilKept(u.id, 1);
    const live = await untilNodesHold(u.id, 4);
    expect(live.map((l) => `${l.ip}:${l.port}`).sort()).toEqual(
      (JSON.parse(answer.text) as { data: { list: { ip: string; port: number }[] } }).data.list
        .map((d) => `${d.ip}:${d.port}`)
        .sort(),
    );
    expect(await d1Rows('node_changes')).toBe(0);
    // The lost-receipt repair hands the same call over again: the nodes still hold each lease once.
    await handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, Date.now() + RECEIPT_GRACE_MS + 1);
    expect(await untilNodesHold(u.id, 4)).toHaveLength(4);
  });

  it("a backlog of more than one page of leases reaches each node's object whole", async () => {
    const u = await makeUser();
    const pkg = await makePackage(u.id, { remaining: 100 });
    const now = Date.now();
    // 25 kept calls of 200 IPs on two nodes: 5,000 leases, more than two pages of FORWARD_PAGE.
    const receipts: Receipt[] = Array.from({ length: 25 }, (_, c) => ({
      id: 900_000 + c,
      userId: u.id,
      createdAt: now,
      body: {
        package: pkg,
        type: 10,
        clientIp: CALLER,
        requested: 200,
        query: 'num=200',
        protocol: 'http',
        day: shanghaiDay(now),
        ips: Array.from({ length: 200 }, (_, k): [number, string, number, string, string, number, number] => {
          const n = c * 200 + k;
          return [
            n + 1,
            `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`,
            18000,
            '广东省深圳市',
            '电信',
            now + 600_000,
            (n % 2) + 1,
          ];
        }),
      },
    }));
    await customerRecords(env.CUSTOMER_RECORDS, u.id).record(receipts);
    await runRecordsAlarm(u.id);
    const held = async (node: number) =>
      (await nodeLeases(env.NODE_LEASES, node).live(Date.now())).leases.filter((l) => l.userId === u.id).length;
    expect([await held(1), await held(2)]).toEqual([2_500, 2_500]);
    expect(await objectRows('SELECT count(*) AS n FROM forwards', [], [u.id])).toEqual([{ n: 0, userId: u.id }]);
  });
});
