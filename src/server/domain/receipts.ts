// The repair of decision 243's hand-over: a receipt whose batch to the customer's object was lost (the isolate went
// away within its 250 ms) stays in D1; the delivery job hands such receipts to their customers' objects. Keeping is
// idempotent (by receipt id) and the object deletes every receipt it was handed, kept now or before.
import { receiptsBefore, receiptsOfUser } from '../db/extract';
import type { Receipt } from '../objects/customer-records';
import { type CustomerRecordsNamespace, customerRecords } from '../objects/customer-records';

/** A receipt younger than this may still be in its batch. */
export const RECEIPT_GRACE_MS = 30_000;
/** Receipts handed over per run at most (a run is one job step; the next run takes the rest). */
export const RECEIPTS_PER_RUN = 5_000;

/** Hand the receipts older than the grace to their customers' objects; returns how many were handed over. */
export async function handOverLostReceipts(db: D1Database, ns: CustomerRecordsNamespace, now: number): Promise<number> {
  const receipts = await receiptsBefore(db, now - RECEIPT_GRACE_MS, RECEIPTS_PER_RUN);
  const byUser = new Map<number, Receipt[]>();
  for (const r of receipts) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r]);
  let handed = 0;
  for (const [userId, receiptsOfOne] of byUser) {
    // One customer's object that fails does not hold the others back; its receipts wait for the next run.
    try {
      for (const batch of byIps(receiptsOfOne)) {
        await customerRecords(ns, userId).record(batch);
        handed += batch.length;
      }
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', where: 'receipts-hand-over', userId, error: String(err) }));
    }
  }
  return handed;
}

/** IPs one hand-over call carries at most (a call hands out up to 200: a batch is never more than a few hundred KB). */
const IPS_PER_CALL = 2_000;

/** Receipts in batches of at most IPS_PER_CALL IPs (a receipt with more goes alone). */
function byIps(receipts: Receipt[]): Receipt[][] {
  const batches: Receipt[][] = [];
  let ips = Number.POSITIVE_INFINITY;
  for (const r of receipts) {
    if (ips + r.body.ips.length > IPS_PER_CALL) {
      batches.push([]);
      ips = 0;
    }
    batches.at(-1)?.push(r);
    ips += r.body.ips.length;
  }
  return batches;
}

/**
 * Before a read of one customer's records (decision 247): hand the customer's receipts still in D1 to its object, so
 * the read sees every call the customer was answered, its last one included (the batch hands it over up to 250 ms
 * later). Keeping is idempotent by receipt id, so a receipt the batch keeps as well is kept once; nothing on the
 * extraction's path changes. Returns how many receipts were handed over.
 */
export async function handOverReceiptsOf(
  db: D1Database,
  ns: CustomerRecordsNamespace,
  userId: number,
): Promise<number> {
  const receipts = await receiptsOfUser(db, userId, RECEIPTS_PER_RUN);
  for (const batch of byIps(receipts)) await customerRecords(ns, userId).record(batch);
  return receipts.length;
}
