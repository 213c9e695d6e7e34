// Fixtures for decision 243's receipts: how many receipts D1 still holds, what a customer's object has kept, and
// firing the object's alarm (which deletes the receipts it was handed from D1).
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { handOverLostReceipts, RECEIPT_GRACE_MS } from '../../src/server/domain/receipts';
import { customerRecords } from '../../src/server/objects/customer-records';
import { type NodeLease, nodeLeases } from '../../src/server/objects/node-leases';
import { count } from './rows';

/** Receipts still in D1 (not yet deleted by their customer's object). */
export const receiptCount = () => count('extract_receipts');

/** The calls and leases a customer's object holds. */
export const recordsOf = (userId: number) => customerRecords(env.CUSTOMER_RECORDS, userId).counts();

/** Run the customer's object's pending alarm (false when none was set). */
export const runRecordsAlarm = (userId: number) => runDurableObjectAlarm(customerRecords(env.CUSTOMER_RECORDS, userId));

/** Wait until the customer's object holds at least `calls` calls (the hand-over runs 250 ms after the first call). */
export async function untilKept(
  userId: number,
  calls: number,
  timeoutMs = 5_000,
): Promise<{ logs: number; leases: number }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const c = await recordsOf(userId);
    if (c.logs >= calls || Date.now() > end) return c;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Let every extraction so far reach its customer's object: wait out the hand-over's batch and the deferred refusal
 * logs, then hand over whatever receipt is still in D1 (keeping is idempotent, so one kept already is kept once).
 */
export async function settleRecords(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  await handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, Date.now() + RECEIPT_GRACE_MS + 1);
}

/** Every user id (the objects to read). */
const userIds = async (): Promise<number[]> =>
  (await env.DB.prepare('SELECT id FROM users ORDER BY id').all<{ id: number }>()).results.map((r) => r.id);

/** Rows of an SQL query run in the objects of `users` (every user when not given), each with its user id. */
export async function objectRows<T extends Record<string, unknown>>(
  sql: string,
  binds: unknown[],
  users?: number[],
): Promise<(T & { userId: number })[]> {
  await settleRecords();
  const out: (T & { userId: number })[] = [];
  for (const id of users ?? (await userIds())) {
    const rows = await runInDurableObject(customerRecords(env.CUSTOMER_RECORDS, id), (_i, state: DurableObjectState) =>
      state.storage.sql.exec(sql, ...binds).toArray(),
    );
    for (const r of rows) out.push({ ...(r as T), userId: id });
  }
  return out;
}

/** Wait until no receipt is left in D1 (the objects' alarms deleted them); returns how many are left. */
export async function untilNoReceipts(timeoutMs = 5_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const n = await receiptCount();
    if (n === 0 || Date.now() > end) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A user's live leases the node objects of the pool's nodes hold, once at least `n` (or after the timeout). */
export async function untilNodesHold(userId: number, n: number, timeoutMs = 5_000): Promise<NodeLease[]> {
  const nodes = (await env.DB.prepare('SELECT DISTINCT node_id AS id FROM proxy_ips').all<{ id: number }>()).results;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const held: NodeLease[] = [];
    for (const { id } of nodes) {
      const { leases } = await nodeLeases(env.NODE_LEASES, id).live(Date.now());
      held.push(...leases.filter((l) => l.userId === userId));
    }
    if (held.length >= n || Date.now() > end) return held;
    await new Promise((r) => setTimeout(r, 50));
  }
}
