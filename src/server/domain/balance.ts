// The customer's balance (账户余额, docs/decisions/224): a top-up is an order of its own kind (余额充值) paid through any
// rail's ordinary payment path, whose fulfilment credits the balance once; paying an order from balance takes the money
// and fulfils the order in the SAME atomic batch, only while the balance covers it and the order is unpaid; operators
// adjust a balance with a reason. Never negative: every debit is conditional, and the table's CHECK is the backstop.
import 'server-only';
import { TOP_UP_MAX_FEN, TOP_UP_MIN_FEN } from '../../lib/balance';
import { ORDER_KIND } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { formatFen } from '../../lib/format';
import {
  balanceOf,
  balancePaymentStatement,
  creditStatements,
  debitStatements,
  type LedgerKind,
  orderPayableSql,
} from '../db/balance';
import { runBatch } from '../db/batch';
import type { AuditActor } from '../db/console-audit';
import { insertOrderStatement } from '../db/order-placement';
import { findUserById } from '../db/users';
import { findOrder, listOrderItems, type OrderRecord } from '../db/orders';
import { fulfilmentBatch } from './fulfilment';
import { newOrderNo, newOutTradeNo } from './order-numbers';
import { MAX_UNPAID_ORDERS, ORDER_TTL_MS, type PlacedOrder } from './order-placement';
import { auditedChange } from './console-audit';
import { allocateBoughtIps } from './payments';
import { ORDER_STATE } from '../../lib/order-states';

/** A top-up's product type: none (no package, no commission). */
const TOP_UP_PRODUCT_TYPE = 0;

/**
 * Place a top-up order of `amountFen` (between TOP_UP_MIN_FEN and TOP_UP_MAX_FEN): an ordinary unpaid order of kind
 * 余额充值 with no items, under the same unpaid-order limit, paid like any order (WeChat, Alipay, company transfer).
 */
export async function placeTopUp(
  db: D1Database,
  r: { userId: number; sourceType: number; amountFen: number; now: number },
): Promise<PlacedOrder> {
  if (!Number.isInteger(r.amountFen) || r.amountFen < TOP_UP_MIN_FEN || r.amountFen > TOP_UP_MAX_FEN) {
    throw new AppError('topUpAmountInvalid');
  }
  const orderNo = newOrderNo(r.now);
  const title = `账户余额充值 ${formatFen(r.amountFen)}`;
  const expiresAt = r.now + ORDER_TTL_MS;
  const insert = insertOrderStatement(
    db,
    {
      orderNo,
      userId: r.userId,
      kind: ORDER_KIND.topUp,
      productType: TOP_UP_PRODUCT_TYPE,
      title,
      listFen: r.amountFen,
      discountFen: 0,
      creditFen: 0,
      couponFen: 0,
      payFen: r.amountFen,
      userCouponId: null,
      sourceType: r.sourceType,
      expiresAt,
      createdAt: r.now,
      items: [],
      mergeSources: [],
    },
    MAX_UNPAID_ORDERS,
  );
  if ((await runBatch(db, [insert])).changes(insert) !== 1) throw new AppError('tooManyUnpaid');
  return { orderNo, payFen: r.amountFen, expiresAt, title };
}

/**
 * Pay an unpaid order from the customer's balance: one batch writes the debit (only while the balance covers the exact
 * amount and the order is the user's, unpaid and unexpired), records the attempt (provider 'balance') and runs the
 * same fulfilment statements as a rail's payment. Two concurrent payments exceeding the balance: one succeeds; the same
 * order paid twice: charged once. `kind` is 'renew' for the auto-renew job (the ledger names it 自动续费). Throws
 * orderNotPayable, topUpNotPayableFromBalance or balanceShort; returns the balance left.
 */
export async function payFromBalance(
  db: D1Database,
  order: OrderRecord,
  now: number,
  kind: Extract<LedgerKind, 'pay' | 'renew'> = 'pay',
): Promise<{ balanceFen: number; outTradeNo: string }> {
  if (order.kind === ORDER_KIND.topUp) throw new AppError('topUpNotPayableFromBalance');
  if (order.state !== ORDER_STATE.pending || order.expiresAt <= now) throw new AppError('orderNotPayable');
  const outTradeNo = newOutTradeNo(now);
  const debit = debitStatements(
    db,
    {
      userId: order.userId,
      amountFen: order.payFen,
      kind,
      ref: outTradeNo,
      orderNo: order.orderNo,
      note: order.title.slice(0, 120),
      now,
    },
    orderPayableSql(order.orderNo, order.userId, order.payFen, now),
  );
  const items = await listOrderItems(db, order.orderNo);
  const { paid, statements } = fulfilmentBatch(
    db,
    order,
    items,
    { outTradeNo, transactionId: outTradeNo, amountFen: order.payFen },
    now,
  );
  const batch = await runBatch(db, [
    ...debit.statements,
    balancePaymentStatement(db, {
      outTradeNo,
      orderNo: order.orderNo,
      userId: order.userId,
      amountFen: order.payFen,
      expiresAt: order.expiresAt,
      now,
    }),
    ...statements,
  ]);
  if (batch.changes(paid) === 1) {
    await allocateBoughtIps(db, order, now);
    return { balanceFen: await balanceOf(db, order.userId), outTradeNo };
  }
  const fresh = await findOrder(db, order.orderNo);
  if (fresh?.state !== ORDER_STATE.pending || fresh.expiresAt <= now) throw new AppError('orderNotPayable');
  throw new AppError('balanceShort');
}

/**
 * An operator's adjustment of a customer's balance (signed fen, with a reason; docs/decisions/224): a credit, or a
 * debit only while the balance covers it, written with its ledger entry and the audit row in one batch (nothing at all
 * when the debit is refused: balanceAdjustShort). Returns the balance after.
 */
export async function adjustBalance(
  db: D1Database,
  actor: AuditActor,
  a: { userId: number; signedFen: number; reason: string },
): Promise<{ userId: number; amountFen: number; balanceFen: number }> {
  if (!Number.isInteger(a.signedFen) || a.signedFen === 0) throw new AppError('balanceAdjustInvalid');
  if (!(await findUserById(db, a.userId))) throw new AppError('customerNotFound');
  const before = await balanceOf(db, a.userId);
  const entry = {
    userId: a.userId,
    amountFen: Math.abs(a.signedFen),
    kind: 'adjust' as const,
    ref: `adjust:${crypto.randomUUID()}`,
    orderNo: null,
    note: a.reason,
    operatorId: actor.operatorId,
    now: actor.now,
  };
  const statements = a.signedFen > 0 ? creditStatements(db, entry) : debitStatements(db, entry).statements;
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.BalanceAdjust',
      target: `user:${a.userId}`,
      before: { balanceFen: before },
      after: { amountFen: a.signedFen },
      reason: a.reason,
    },
    statements,
    'balanceAdjustShort',
  );
  return { userId: a.userId, amountFen: a.signedFen, balanceFen: await balanceOf(db, a.userId) };
}
