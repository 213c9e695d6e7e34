// Fulfilment: the one atomic batch that marks an order paid by a verified attempt and delivers what it bought (new
// packages, extensions, the retirement of merge sources, the coupon used, the promoter's commission). The order
// changes from unpaid to paid at most once; every other statement runs only while it is paid by this attempt and not
// yet fulfilled. Money that cannot be applied (an extended package gone or reserved, an order closed or paid by
// another attempt) flags the attempt for a refund in the same transaction.
import 'server-only';
import { runBatch } from '../db/batch';
import type { OrderItemRecord, OrderRecord } from '../db/orders';
import { fulfilmentStatements } from '../db/payments';
import { commissionAccrualStatements } from './commission';

export interface PaidTransaction {
  outTradeNo: string;
  transactionId: string;
  amountFen: number;
}

/** The statements of the paid-and-fulfilled batch, and the one whose single changed row means "paid now". */
export function fulfilmentBatch(
  db: D1Database,
  order: OrderRecord,
  items: OrderItemRecord[],
  tx: PaidTransaction,
  now: number,
): { paid: D1PreparedStatement; statements: D1PreparedStatement[] } {
  const s = fulfilmentStatements(db, order.orderNo, tx.outTradeNo);
  const paid = s.markOrderPaid(tx.transactionId, tx.amountFen, now);
  const extended = items.flatMap((i) => (i.packageId === null ? [] : [{ ...i, packageId: i.packageId }]));
  const statements = [
    s.markAttemptPaid(tx.transactionId, now),
    paid,
    s.spendCoupon(now),
    ...items.flatMap((i) =>
      i.packageId === null
        ? s.createPackage(order.userId, i, now)
        : s.extendPackage(order.userId, { ...i, packageId: i.packageId }, now),
    ),
    // An extended package that cannot take the money: the order is still paid (the money arrived), the package is left
    // as it is, and the attempt is flagged for a refund.
    ...(extended.length > 0
      ? [
          s.flagUnextendable(
            order.userId,
            extended.map((i) => i.packageId),
          ),
        ]
      : []),
    ...s.retireMergeSources(order.userId, now),
    // Issue 6: the promoter's commission accrues in the same transaction, once per order (UNIQUE order_no).
    ...commissionAccrualStatements(db, {
      orderNo: order.orderNo,
      userId: order.userId,
      productType: order.productType,
      payFen: order.payFen,
      paidAt: now,
    }),
    s.markFulfilled(now),
    s.flagNotPaidByAttempt(),
  ];
  return { paid, statements };
}

/**
 * Mark the order paid by this attempt and fulfil it, in one transaction. Returns whether this call made the order
 * paid (false for duplicates, closed orders and orders paid by another attempt; the latter two flag a refund).
 */
export async function payAndFulfil(
  db: D1Database,
  order: OrderRecord,
  items: OrderItemRecord[],
  tx: PaidTransaction,
  now: number,
): Promise<boolean> {
  const { paid, statements } = fulfilmentBatch(db, order, items, tx, now);
  return (await runBatch(db, statements)).changes(paid) === 1;
}
