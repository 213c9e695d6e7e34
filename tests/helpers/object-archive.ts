// Fixtures for the objects' archive step (decision 248): calls kept by a customer's records object as the extraction
// leaves them (a receipt in D1, kept, then deleted), the objects emptied between tests, and the archive's manifest.
import { env, runInDurableObject } from 'cloudflare:test';
import { shanghaiDay } from '../../src/lib/time';
import type { Receipt } from '../../src/server/db/extract';
import { customerRecords } from '../../src/server/objects/customer-records';
import { leasesByNode, nodeLeases } from '../../src/server/objects/node-leases';
import { exitFacts, keepNodeLeases } from './delivery';

const MIN = 60_000;

/** Empty a customer's records object (D1 is reset before each test; the objects keep their storage for the file). */
export const forgetRecords = (userId: number) =>
  runInDurableObject(customerRecords(env.CUSTOMER_RECORDS, userId), (_, state) => {
    state.storage.sql.exec('DELETE FROM logs; DELETE FROM leases; DELETE FROM forwards;');
  });

/** How many leases node 1's object holds. */
export const nodeHolds = () =>
  runInDurableObject(nodeLeases(env.NODE_LEASES, 1), (_, state) =>
    Number(state.storage.sql.exec('SELECT count(*) AS n FROM leases').one().n),
  );

/**
 * A charged call at `at` handing out `ips` for `minutes`, as the extraction leaves it: a receipt in D1 (its trigger
 * counts the hour), kept by the customer's object and deleted from D1, its leases forwarded to node 1's object.
 */
export async function keptCall(
  userId: number,
  packageId: number,
  at: number,
  ips: string[],
  minutes = 10,
): Promise<Receipt> {
  const exits = await Promise.all(ips.map(async (ip) => exitFacts(ip)));
  const body = {
    package: packageId,
    type: 10,
    clientIp: '192.0.2.50',
    requested: ips.length,
    query: `num=${ips.length}`,
    protocol: 'http',
    day: shanghaiDay(at),
    ips: exits.map((e, k): [number, string, number, string, string, number, number] => [
      e?.id ?? 0,
      ips[k] ?? '',
      e?.port ?? 0,
      '广东省深圳市',
      '电信',
      at + minutes * MIN,
      1,
    ]),
  };
  const row = await env.DB.prepare(
    'INSERT INTO extract_receipts (user_id, created_at, body) VALUES (?, ?, ?) RETURNING id',
  )
    .bind(userId, at, JSON.stringify(body))
    .first<{ id: number }>();
  const receipt: Receipt = { id: row?.id ?? 0, userId, createdAt: at, body };
  await customerRecords(env.CUSTOMER_RECORDS, userId).record([receipt]);
  // Kept: the receipt leaves D1 (the object's alarm does this within milliseconds).
  await env.DB.prepare('DELETE FROM extract_receipts WHERE id = ?').bind(receipt.id).run();
  for (const [nodeId, leases] of leasesByNode(receipt)) await keepNodeLeases(nodeId, leases);
  return receipt;
}

/** The manifest's rows per kind of a customer (each archived row counted once). */
export async function manifestRows(owner: number): Promise<{ kind: string; n: number }[]> {
  const { results } = await env.DB.prepare(
    'SELECT kind, sum(rows) AS n FROM archive_objects WHERE owner = ? GROUP BY kind ORDER BY kind',
  )
    .bind(owner)
    .all<{ kind: string; n: number }>();
  return results;
}

/** The manifest's batch objects per kind of a customer (how many parts its archived rows lie in). */
export async function manifestObjects(owner: number): Promise<{ kind: string; objects: number }[]> {
  const { results } = await env.DB.prepare(
    'SELECT kind, count(*) AS objects FROM archive_objects WHERE owner = ? GROUP BY kind ORDER BY kind',
  )
    .bind(owner)
    .all<{ kind: string; objects: number }>();
  return results;
}

/** Let `n` receipt ids pass unused, as other customers' calls do between two calls of one customer. */
export async function skipReceiptIds(n: number): Promise<void> {
  await env.DB.prepare("UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'extract_receipts'").bind(n).run();
}

/** Empty the local archive bucket (every key under archive/), for a test that starts from no archive. */
export async function clearArchive() {
  for (;;) {
    const page = await env.FILES.list({ prefix: 'archive/' });
    if (page.objects.length === 0) return;
    await env.FILES.delete(page.objects.map((o) => o.key));
  }
}
