// A node's refusal reports go to its node object (decision 250): kept there once per batch id, never in D1; the
// customer's refusal list reads the node objects (and D1's rows from before the switch); refusals past the hot window
// leave the object for the archive, copied before they are deleted.
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, shanghaiDay, shanghaiMidnight } from '../../src/lib/time';
import { archiveObjectHistory } from '../../src/server/archive/objects';
import { archivePart, customerKey, readArchiveObject } from '../../src/server/archive/store';
import { addRefusalCounts, nodeLeases, refusalNumber } from '../../src/server/objects/node-leases';
import { callApi, resetDb } from '../helpers/api';
import { forgetNodeLeases, historyCounts, nodeCall, nodeRefusalRows, simplePool } from '../helpers/delivery';
import { untilNodesHold } from '../helpers/receipts';
import { extractAndKeep, extractingCustomer } from '../helpers/records';

beforeEach(async () => {
  await resetDb();
  await forgetNodeLeases(1);
});

/** Node 1 reports a refusal batch; the answer's data. */
async function report(batchId: string, rows: object[]) {
  const res = await nodeCall('POST', '/node/v2/refusals', JSON.stringify({ batchId, rows }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { stored: number; duplicate: boolean } }).data;
}

/** A customer holding one exit of node 1 in the node's object (an extraction kept and forwarded). */
async function holder() {
  await simplePool(1);
  const c = await extractingCustomer();
  const [call] = await extractAndKeep(c, [{ num: 1 }]);
  const [ip = '', port = '0'] = (call?.lines[0] ?? '').split(':');
  await untilNodesHold(c.id, 1);
  return { ...c, ip, port: Number(port) };
}

const refusals = async (cookie: string) => (await callApi('ProxyWhiteList.GetRefusals', {}, { cookie })).body.P;

describe('refusals in the node objects (decision 250)', () => {
  it('a refusal report lands in the node object and not in D1; the customer’s list shows it; a batch sent twice counts once', async () => {
    const c = await holder();
    const now = Date.now(); // after the lease began
    const rows = [
      // Naming nobody: attributed to the holder of the exit at that instant (the node object's lease).
      { at: now, clientIp: '198.51.100.71', ip: c.ip, port: c.port, userId: null, code: 'not_whitelisted' },
      // Naming the customer.
      { at: now, clientIp: '198.51.100.72', ip: c.ip, port: c.port, userId: c.id, code: 'bad_credentials' },
      // An exit that is not this node's: ignored.
      {
        at: now - 500,
        clientIp: '198.51.100.73',
        ip: '127.0.0.250',
        port: c.port,
        userId: c.id,
        code: 'bad_credentials',
      },
    ];
    expect(await report('n1-r-obj', rows)).toEqual({ stored: 2, duplicate: false });
    expect(await report('n1-r-obj', rows)).toEqual({ stored: 0, duplicate: true });

    expect((await historyCounts()).refusals).toBe(0);
    expect(await nodeRefusalRows(1)).toEqual([
      { userId: c.id, attributed: 1, clientIp: '198.51.100.71', ip: c.ip, code: 'not_whitelisted', count: 1 },
      { userId: c.id, attributed: 0, clientIp: '198.51.100.72', ip: c.ip, code: 'bad_credentials', count: 1 },
    ]);
    const seen = await refusals(c.cookie);
    expect(seen?.total).toBe(2);
    expect(seen?.list.map((r) => [r.clientIp, r.exit, r.code])).toEqual([
      ['198.51.100.72', `${c.ip}:${c.port}`, 'bad_credentials'],
      ['198.51.100.71', `${c.ip}:${c.port}`, 'not_whitelisted'],
    ]);
    expect(seen?.list.find((r) => r.code === 'not_whitelisted')?.canAdd).toBe(true);
  });

  it('repeated refusals are one row with their count (decision 251): kept so in the object and shown so to the customer; a batch without counts counts one each', async () => {
    const c = await holder();
    const now = Date.now();
    const exit = { ip: c.ip, port: c.port };
    const minute = Math.floor((now - 5000) / 60_000) * 60_000;
    // A node collapsing repeated refusals: 1,000 of one client, exit and code as one row.
    expect(
      await report('n1-r-count', [
        {
          at: minute - 10_000,
          lastAt: now - 10,
          count: 1000,
          clientIp: '198.51.100.81',
          ...exit,
          userId: c.id,
          code: 'not_whitelisted',
        },
      ]),
    ).toEqual({ stored: 1000, duplicate: false });
    // A node from before the counts: three refusals of one client as three rows of the old shape, one of another. The
    // object merges them per minute of their first time: the three lie in one minute (never across a boundary).
    const old = { clientIp: '198.51.100.82', ...exit, userId: c.id, code: 'bad_credentials' };
    expect(
      await report('n1-r-oldshape', [
        { ...old, at: minute + 1000 },
        { ...old, at: minute + 2000 },
        { ...old, at: minute + 3000 },
        { ...old, clientIp: '198.51.100.83', at: now - 500 },
      ]),
    ).toEqual({ stored: 4, duplicate: false });

    expect((await historyCounts()).refusals).toBe(0);
    expect((await nodeRefusalRows(1)).map((r) => [r.clientIp, r.userId, r.attributed, r.count])).toEqual([
      ['198.51.100.81', c.id, 0, 1000],
      ['198.51.100.82', c.id, 0, 3],
      ['198.51.100.83', c.id, 0, 1],
    ]);
    const seen = await refusals(c.cookie);
    expect(seen?.total).toBe(3);
    expect(seen?.list.map((r) => [r.clientIp, r.count, r.at, r.lastAt])).toEqual([
      ['198.51.100.83', 1, now - 500, now - 500],
      ['198.51.100.82', 3, minute + 1000, minute + 3000],
      ['198.51.100.81', 1000, minute - 10_000, now - 10],
    ]);
  });

  it('an object from before the counts gains them once: its rows count one each and new batches keep their counts', async () => {
    const c = await holder();
    const now = Date.now();
    const node = nodeLeases(env.NODE_LEASES, 1);
    await runInDurableObject(node, (_, state) => {
      const sql = state.storage.sql;
      sql.exec('DROP TABLE refusals');
      // The table as decision 250 made it, with one refusal in it.
      sql.exec(`CREATE TABLE refusals (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, client_ip TEXT NOT NULL, ip TEXT NOT NULL,
        port INTEGER NOT NULL, user_id INTEGER NOT NULL, attributed INTEGER NOT NULL, code TEXT NOT NULL,
        batch_id TEXT NOT NULL, received_at INTEGER NOT NULL)`);
      sql.exec(
        `INSERT INTO refusals (at, client_ip, ip, port, user_id, attributed, code, batch_id, received_at)
         VALUES (?, '198.51.100.85', ?, ?, ?, 0, 'bad_credentials', 'n1-r-before', ?)`,
        now - 2000,
        c.ip,
        c.port,
        c.id,
        now,
      );
      addRefusalCounts(sql);
      addRefusalCounts(sql); // once: a second start finds the columns
      sql.exec('CREATE INDEX IF NOT EXISTS refusals_user ON refusals(user_id, at)');
    });
    await report('n1-r-after', [
      {
        at: now - 1000,
        lastAt: now,
        count: 7,
        clientIp: '198.51.100.86',
        ip: c.ip,
        port: c.port,
        userId: c.id,
        code: 'bad_credentials',
      },
    ]);
    expect((await refusals(c.cookie))?.list.map((r) => [r.clientIp, r.count, r.lastAt])).toEqual([
      ['198.51.100.86', 7, now],
      ['198.51.100.85', 1, now - 2000],
    ]);
  });

  it('a refusal row’s count outside 1..10⁹ or its last time before its first is refused whole (400)', async () => {
    const c = await holder();
    const now = Date.now();
    const row = { at: now, clientIp: '198.51.100.84', ip: c.ip, port: c.port, userId: c.id, code: 'bad_credentials' };
    for (const bad of [{ count: 0 }, { count: 1_000_000_001 }, { count: 1.5 }, { lastAt: now - 1 }]) {
      const res = await nodeCall(
        'POST',
        '/node/v2/refusals',
        JSON.stringify({ batchId: 'n1-r-bad', rows: [{ ...row, ...bad }] }),
      );
      expect(res.status).toBe(400);
    }
    expect(await nodeRefusalRows(1)).toEqual([]);
  });

  it('a refusal naming nobody on an exit nobody holds is kept once for nobody, and shows in no customer’s list', async () => {
    const c = await holder();
    const at = Date.now() - 3 * DAY_MS; // before the customer's lease
    expect(
      await report('n1-r-none', [
        { at, clientIp: '198.51.100.74', ip: c.ip, port: c.port, userId: null, code: 'target_not_public' },
      ]),
    ).toEqual({ stored: 1, duplicate: false });
    expect((await historyCounts()).refusals).toBe(0);
    expect((await nodeRefusalRows(1)).map((r) => r.userId)).toEqual([0]);
    expect((await refusals(c.cookie))?.total).toBe(0);
  });

  it('refusals past the hot window go to R2 and leave the object; a crash between copy and delete leaves both', async () => {
    const c = await holder();
    const now = Date.now();
    const old = shanghaiMidnight(now - 10 * DAY_MS) + 2 * HOUR_MS;
    const node = nodeLeases(env.NODE_LEASES, 1);
    const row = { clientIp: '198.51.100.75', ip: c.ip, port: c.port, attributed: 0, code: 'bad_credentials' };
    await node.ingestRefusals(
      'n1-r-old',
      [
        { ...row, at: old, lastAt: old + 9000, count: 40, userId: c.id },
        { ...row, at: now - 1000, lastAt: now - 1000, count: 1, userId: c.id },
      ],
      now,
    );
    const stores = { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES };
    const [due] = await node.refusalsDue(old + 1, 10);
    const id = refusalNumber(1, due?.seq ?? 0);
    const archived = () =>
      readArchiveObject(env.FILES, customerKey('refusal', shanghaiDay(old), c.id, archivePart({ id })));

    const crashed = await archiveObjectHistory(stores, now, {
      afterRefusalCopy: () => {
        throw new Error('crash after copy');
      },
    });
    expect(crashed.refusals).toBe(0);
    expect(await nodeRefusalRows(1)).toHaveLength(2);
    expect((await archived()).map((r) => r.id)).toEqual([id]);

    expect((await archiveObjectHistory(stores, now)).refusals).toBe(1);
    // Only the hot refusal stays in the object; the archive holds the old one once.
    expect(await nodeRefusalRows(1)).toEqual([expect.objectContaining({ userId: c.id, clientIp: '198.51.100.75' })]);
    const inArchive = await archived();
    expect(inArchive.map((r) => [r.id, r.owner, r.data.code, r.data.clientIp, r.data.count, r.data.lastAt])).toEqual([
      [id, c.id, 'bad_credentials', '198.51.100.75', 40, old + 9000],
    ]);
    expect((await archiveObjectHistory(stores, now)).refusals).toBe(0);
  });
});
