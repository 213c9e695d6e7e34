// The repair of decision 243's hand-over: a receipt whose batch to the customer's object was lost (the isolate went
// away within its 250 ms) stays in D1; the delivery job hands such receipts to their customers' objects. Keeping is
// idempotent (by receipt id) and the object deletes every receipt it was handed, kept now or before.
import { receiptsBefore } from '../db/extract';
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
  for (const [userId, batch] of byUser) await customerRecords(ns, userId).record(batch);
  return receipts.length;
}
