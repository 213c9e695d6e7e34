// Fixtures for decision 243's receipts: how many receipts D1 still holds, what a customer's object has kept, and
// firing the object's alarm (which deletes the receipts it was handed from D1).
import { env, runDurableObjectAlarm } from 'cloudflare:test';
import { customerRecords } from '../../src/server/objects/customer-records';
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
