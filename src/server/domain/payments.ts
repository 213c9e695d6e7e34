// Payments: payment attempts at the provider, applying a verified paid transaction (checked against our own order,
// paid once, fulfilled in the same batch), closing unpaid orders (at the provider first) and reconciliation.
import 'server-only';
import { AppError, isAppError } from '../../lib/errors';
import { paymentNotes } from '../../lib/messages';
import { allocateFixedIps } from '../db/fixed';
import { closeUnpaidOrder, findOrder, findUserOrder, listOrderItems, type OrderRecord } from '../db/orders';
import {
  claimPaymentQuery,
  findPayment,
  flagMismatchedPayment,
  insertPayment,
  listOrderPayments,
  markPaymentClosed,
  markPaymentFailed,
  markPaymentPending,
} from '../db/payments';
import type { AppConfig, Bindings } from '../env';
import { type PaySetup, payProviderFor } from '../providers/pay';
import { type TradeState, upstreamCode } from '../providers/pay/types';
import type { CheckoutRequest } from './checkout-lines';
import { payAndFulfil } from './fulfilment';
import { newOutTradeNo } from './order-numbers';
import { placeOrder } from './order-placement';

export const MAX_PAY_ATTEMPTS = 5;
/** A poll may ask the provider about an attempt at most this often. */
export const QUERY_INTERVAL_MS = 5_000;

const log = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>) =>
  console[level === 'info' ? 'log' : level](JSON.stringify({ level, where: 'payments', ...fields }));

function truncateUtf8(text: string, maxBytes: number): string {
  let out = text;
  while (new TextEncoder().encode(out).length > maxBytes) out = out.slice(0, -1);
  return out;
}

/** The user's own order (deleted ones excluded); throws orderNotFound. */
export async function userOrder(db: D1Database, userId: number, orderNo: string): Promise<OrderRecord> {
  const order = await findUserOrder(db, userId, orderNo);
  if (!order) throw new AppError('orderNotFound');
  return order;
}

/**
 * The QR code URL for an unpaid order: the newest live attempt's, or a new attempt at the provider. Throws
 * orderNotPayable / orderTooManyAttempts / payUnavailable.
 */
export async function paymentCodeFor(
  db: D1Database,
  pay: PaySetup,
  order: OrderRecord,
  now: number,
): Promise<{ codeUrl: string; outTradeNo: string }> {
  if (order.state !== 1 || order.expiresAt <= now) throw new AppError('orderNotPayable');
  const live = (await listOrderPayments(db, order.orderNo)).find(
    (p) => p.state === 'pending' && p.codeUrl && p.amountFen === order.payFen && p.provider === pay.provider.name,
  );
  if (live?.codeUrl) return { codeUrl: live.codeUrl, outTradeNo: live.outTradeNo };
  const outTradeNo = newOutTradeNo(now);
  const inserted = await insertPayment(
    db,
    {
      outTradeNo,
      orderNo: order.orderNo,
      userId: order.userId,
      provider: pay.provider.name,
      amountFen: order.payFen,
      expiresAt: order.expiresAt,
      now,
    },
    MAX_PAY_ATTEMPTS,
  );
  if (!inserted) {
    const fresh = await findOrder(db, order.orderNo);
    throw new AppError(fresh?.state === 1 ? 'orderTooManyAttempts' : 'orderNotPayable');
  }
  try {
    const { codeUrl } = await pay.provider.createNativeOrder({
      outTradeNo,
      description: truncateUtf8(order.title, 127),
      amountFen: order.payFen,
      timeExpireMs: order.expiresAt,
      notifyUrl: pay.notifyUrl,
      attach: order.orderNo,
    });
    await markPaymentPending(db, outTradeNo, codeUrl);
    return { codeUrl, outTradeNo };
  } catch (err) {
    log('error', { event: 'create_failed', outTradeNo, error: String(err) });
    await markPaymentFailed(db, outTradeNo, paymentNotes.createFailed(String(err)));
    throw new AppError('payUnavailable');
  }
}

export interface ReportedTransaction {
  outTradeNo: string;
  tradeState: TradeState;
  transactionId?: string | undefined;
  amountTotalFen?: number | undefined;
  currency?: string | undefined;
  attach?: string | undefined;
}

/** 'mismatch': verified SUCCESS for a known attempt that does not match our order; flagged refund_needed. */
export type ApplyOutcome = 'paid' | 'duplicate' | 'refund' | 'not_paid' | 'unknown' | 'mismatch';

/**
 * Apply a transaction the provider reported (verified notification or query answer). Amount, currency and order
 * must match our own records; then the order is marked paid once and fulfilled in the same batch.
 */
export async function applyTransaction(db: D1Database, t: ReportedTransaction, now: number): Promise<ApplyOutcome> {
  if (t.tradeState !== 'SUCCESS') return 'not_paid';
  const payment = await findPayment(db, t.outTradeNo);
  if (!payment) {
    log('error', { event: 'unknown_payment', outTradeNo: t.outTradeNo });
    return 'unknown';
  }
  const order = await findOrder(db, payment.orderNo);
  if (
    !order ||
    !t.transactionId ||
    t.currency !== 'CNY' ||
    t.amountTotalFen !== payment.amountFen ||
    payment.amountFen !== order.payFen ||
    (t.attach !== undefined && t.attach !== order.orderNo)
  ) {
    log('error', {
      event: 'mismatch',
      outTradeNo: t.outTradeNo,
      amount: t.amountTotalFen,
      expected: payment.amountFen,
      currency: t.currency,
      attach: t.attach,
    });
    // The provider says this money was received: record it for a refund instead of only logging (docs/decisions/032).
    await flagMismatchedPayment(
      db,
      t.outTradeNo,
      paymentNotes.mismatchedSuccess({
        amountFen: t.amountTotalFen,
        currency: t.currency,
        attach: t.attach,
        transactionId: t.transactionId,
      }),
    );
    return 'mismatch';
  }
  const items = await listOrderItems(db, order.orderNo);
  const paidNow = await payAndFulfil(
    db,
    order,
    items,
    { outTradeNo: t.outTradeNo, transactionId: t.transactionId, amountFen: t.amountTotalFen },
    now,
  );
  if (paidNow) {
    log('info', { event: 'paid', orderNo: order.orderNo, outTradeNo: t.outTradeNo, amount: t.amountTotalFen });
    await allocateBoughtIps(db, order, now);
    return 'paid';
  }
  const after = await findOrder(db, order.orderNo);
  if (after?.state === 2 && after.paidOutTradeNo === t.outTradeNo) return 'duplicate';
  log('error', { event: 'refund_needed', orderNo: order.orderNo, outTradeNo: t.outTradeNo });
  return 'refund';
}

/**
 * A paid fixed or premium IP is allocated at once when the pool has one in its region, not only by the 5-minute job.
 * Best effort: the payment is already recorded, and the job allocates whatever this leaves (分配中 until then).
 */
async function allocateBoughtIps(db: D1Database, order: OrderRecord, now: number): Promise<void> {
  if (order.productType !== 30 && order.productType !== 50) return;
  try {
    await allocateFixedIps(db, now, { userId: order.userId });
  } catch (err) {
    log('error', { event: 'allocate_after_payment', orderNo: order.orderNo, error: String(err) });
  }
}

/** Ask the provider about one attempt and apply what it says. */
export async function reconcilePayment(
  db: D1Database,
  pay: PaySetup,
  outTradeNo: string,
  now: number,
): Promise<ApplyOutcome | 'error'> {
  try {
    const q = await pay.provider.queryOrder(outTradeNo);
    return await applyTransaction(db, q, now);
  } catch (err) {
    if (upstreamCode(err) === 'ORDER_NOT_EXIST') return 'not_paid';
    log('warn', { event: 'query_failed', outTradeNo, error: String(err) });
    return 'error';
  }
}

/** On a poll: ask the provider about the order's open attempts (rate-limited), so a lost callback heals quickly. */
export async function refreshOrderPayment(
  db: D1Database,
  pay: PaySetup,
  order: OrderRecord,
  now: number,
): Promise<void> {
  if (order.state !== 1) return;
  for (const p of await listOrderPayments(db, order.orderNo)) {
    if (p.state !== 'pending' || p.provider !== pay.provider.name) continue;
    if (!(await claimPaymentQuery(db, p.outTradeNo, now, QUERY_INTERVAL_MS))) continue;
    if ((await reconcilePayment(db, pay, p.outTradeNo, now)) === 'paid') return;
  }
}

/**
 * Close an unpaid order: each open attempt is queried and closed at the provider first (a paid one is applied
 * instead); only then is the order closed and its coupon returned. 'retry' when the provider could not be reached.
 */
export async function closeOrder(
  db: D1Database,
  pay: PaySetup,
  orderNo: string,
  now: number,
): Promise<'closed' | 'paid' | 'retry' | 'not_open'> {
  const order = await findOrder(db, orderNo);
  if (order?.state !== 1) return 'not_open';
  for (const p of await listOrderPayments(db, orderNo)) {
    if (p.state !== 'pending' && p.state !== 'creating') continue;
    if (p.provider !== pay.provider.name) return 'retry';
    const outcome = await reconcilePayment(db, pay, p.outTradeNo, now);
    if (outcome === 'paid' || outcome === 'duplicate') return 'paid';
    if (outcome === 'error') return 'retry';
    try {
      await pay.provider.closeOrder(p.outTradeNo);
    } catch (err) {
      if (upstreamCode(err) === 'ORDERPAID') {
        const again = await reconcilePayment(db, pay, p.outTradeNo, now);
        return again === 'paid' || again === 'duplicate' ? 'paid' : 'retry';
      }
      if (upstreamCode(err) !== 'ORDER_NOT_EXIST') {
        log('warn', { event: 'close_failed', outTradeNo: p.outTradeNo, error: String(err) });
        return 'retry';
      }
    }
    await markPaymentClosed(db, p.outTradeNo);
  }
  return (await closeUnpaidOrder(db, orderNo, now)) ? 'closed' : 'not_open';
}

/** The order view returned after placing it: where and how to pay. */
export interface PlacedOrderView {
  orderNo: string;
  title: string;
  payFen: number;
  expiresAt: number;
  codeUrl: string | null;
  payPageUrl: string;
}

/**
 * Place an order and open its first payment attempt. The order stands even when the provider is down or refuses
 * (codeUrl null: the pay page asks again); any other failure propagates.
 */
export async function placeOrderForPayment(
  r: { db: D1Database; env: Bindings; config: AppConfig; user: { id: number }; sourceType: number; now: number },
  request: CheckoutRequest,
  couponId: number | undefined,
): Promise<PlacedOrderView> {
  const { db, now } = r;
  const placed = await placeOrder(db, { userId: r.user.id, sourceType: r.sourceType, request, couponId, now });
  let codeUrl: string | null = null;
  try {
    const order = await findOrder(db, placed.orderNo);
    if (order) codeUrl = (await paymentCodeFor(db, await payProviderFor(r.env, r.config), order, now)).codeUrl;
  } catch (err) {
    if (!isAppError(err)) throw err;
  }
  return { ...placed, codeUrl, payPageUrl: `/payPage?orderNo=${placed.orderNo}` };
}
