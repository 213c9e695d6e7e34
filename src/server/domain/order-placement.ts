// Placing an order: price the checkout, then one atomic D1 batch locks the coupon, inserts the order (only under the
// unpaid limit, with no extended package reserved and every merge source unchanged), its items and merge sources, and
// releases the coupon again if the order was not inserted. The refusal is decided here from what the batch reports.
import 'server-only';
import { AppError } from '../../lib/errors';
import type { MessageCode } from '../../lib/messages';
import { type BatchResults, runBatch } from '../db/batch';
import {
  insertOrderStatement,
  isUniqueViolation,
  lockCouponStatement,
  mergeSourceStatements,
  type OrderDraft,
  orderItemStatements,
  type PlacementRefusal,
  placementRefusalStatement,
  readPlacementRefusal,
  releaseUnplacedCouponStatement,
} from '../db/order-placement';
import { priceCheckout } from './checkout-coupons';
import type { CheckoutRequest } from './checkout-lines';
import { prepareCheckout } from './checkout-quote';
import { newOrderNo } from './order-numbers';
import { splitProportionally } from './pricing';
import { MINUTE_MS } from '../../lib/time';

export const ORDER_TTL_MS = 30 * MINUTE_MS;
export const MAX_UNPAID_ORDERS = 10;

/** What the placement batch reports: whether the coupon lock and the order insert took, and the re-read refusals. */
export interface PlacementReport extends PlacementRefusal {
  couponLocked: boolean | null;
  inserted: boolean;
}

/**
 * Why an order was not placed (null when it was): a coupon not locked is unavailable; otherwise a reserved extended
 * package, then a changed merge source; what remains is the unpaid limit.
 */
export function placementRefusal(r: PlacementReport): MessageCode | null {
  if (r.inserted) return null;
  if (r.couponLocked === false) return 'couponUnavailable';
  if (r.busy) return 'packageBusy';
  if (r.changed) return 'packageChanged';
  return 'tooManyUnpaid';
}

/** Run the placement batch for the draft; a merge source already in another unpaid order rolls it back (busy). */
async function storeOrder(db: D1Database, o: OrderDraft): Promise<PlacementReport> {
  const lock = o.userCouponId === null ? null : lockCouponStatement(db, o, o.userCouponId);
  const insert = insertOrderStatement(db, o, MAX_UNPAID_ORDERS);
  const refusal = placementRefusalStatement(db, o);
  const stmts = [
    ...(lock ? [lock] : []),
    insert,
    ...orderItemStatements(db, o),
    ...mergeSourceStatements(db, o),
    ...(o.userCouponId === null ? [] : [releaseUnplacedCouponStatement(db, o, o.userCouponId)]),
    refusal,
  ];
  let batch: BatchResults;
  try {
    batch = await runBatch(db, stmts);
  } catch (err) {
    if (isUniqueViolation(err)) return { couponLocked: null, inserted: false, busy: true, changed: false };
    throw err;
  }
  return {
    couponLocked: lock ? batch.changes(lock) === 1 : null,
    inserted: batch.changes(insert) === 1,
    ...readPlacementRefusal(batch.of(refusal)),
  };
}

export interface PlacedOrder {
  orderNo: string;
  payFen: number;
  expiresAt: number;
  title: string;
}

/** Price and place an order for the user; the coupon is locked in the same atomic batch as the order insert. */
export async function placeOrder(
  db: D1Database,
  r: { userId: number; sourceType: number; request: CheckoutRequest; couponId: number | undefined; now: number },
): Promise<PlacedOrder> {
  const prepared = await prepareCheckout(db, r.userId, r.request, r.now);
  const priced = await priceCheckout(db, r.userId, prepared, r.couponId, r.now);
  const orderNo = newOrderNo(r.now);
  const values = splitProportionally(
    priced.payFen + priced.creditFen,
    prepared.lines.map((l) => l.quote.listFen - l.quote.discountFen),
  );
  const expiresAt = r.now + ORDER_TTL_MS;
  const report = await storeOrder(db, {
    orderNo,
    userId: r.userId,
    kind: prepared.kind,
    productType: prepared.productType,
    title: prepared.title.slice(0, 120),
    listFen: priced.listFen,
    discountFen: priced.discountFen,
    creditFen: priced.creditFen,
    couponFen: priced.couponFen,
    payFen: priced.payFen,
    userCouponId: priced.coupon?.id ?? null,
    sourceType: r.sourceType,
    expiresAt,
    createdAt: r.now,
    items: prepared.lines.map((l, i) => ({ ...l.item, listFen: l.quote.listFen, valueFen: values[i] ?? 0 })),
    mergeSources: prepared.mergeSources,
  });
  const refusal = placementRefusal(report);
  if (refusal) throw new AppError(refusal);
  return { orderNo, payFen: priced.payFen, expiresAt, title: prepared.title };
}
