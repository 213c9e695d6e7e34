// What the console's screens do beyond reading: the dashboard's windows, customer suspension (effective for /extract
// and every session at once), unlocking, and the refund preview. Every write goes with its audit row in one batch.
import { ORDER_KIND } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { messages } from '../../lib/messages';
import { DAY_MS, SHANGHAI_OFFSET_MS, shanghaiDay, shanghaiMidnight } from '../../lib/time';
import { userChangedStatement } from '../db/node-feed';
import type { AuditActor } from '../db/console-audit';
import {
  deleteCustomerSessionsStatement,
  setCustomerStatusStatement,
  unlockCustomerStatement,
} from '../db/console-customers';
import { dailyFigures, standingFigures, windowFigures } from '../db/console-dashboard';
import { refundEffects } from '../db/console-orders';
import { findOrder } from '../db/orders';
import { findUserCoupon } from '../db/coupons';
import { findPayment } from '../db/payments';
import { findLiveRefund, orderPackageMerged, orderRefundedFen } from '../db/refunds';
import { payRailOf } from './payments';
import { packageUsage, proRataRefundFen } from './refund-usage';
import { auditedChange, auditedWrite } from './console-audit';
import { ORDER_STATE } from '../../lib/order-states';
import { USER_COUPON_STATE } from '../../lib/coupon-states';
import { COMMISSION_STATE } from '../../lib/commission-rules';

/** Days in the dashboard's daily charts (today and the 13 before it). */
const CHART_DAYS = 14;

/**
 * The dashboard: today (since Shanghai midnight), the last 7 and 30 days, the standing figures, and revenue, paid
 * orders and extractions per Shanghai day for the last two weeks.
 */
export async function dashboard(db: D1Database, now: number) {
  const firstDay = shanghaiMidnight(now) - (CHART_DAYS - 1) * DAY_MS;
  const [today, week, month, standing, daily] = await Promise.all([
    windowFigures(db, shanghaiMidnight(now)),
    windowFigures(db, now - 7 * DAY_MS),
    windowFigures(db, now - 30 * DAY_MS),
    standingFigures(db, now),
    dailyFigures(db, firstDay),
  ]);
  // Every day of the chart, oldest first, with zeros where nothing happened.
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const firstIndex = Math.floor((firstDay + SHANGHAI_OFFSET_MS) / DAY_MS);
  const days = Array.from({ length: CHART_DAYS }, (_, i) => {
    const d = byDay.get(firstIndex + i);
    return {
      day: shanghaiDay(firstDay + i * DAY_MS),
      revenueFen: d?.revenueFen ?? 0,
      paidOrders: d?.paidOrders ?? 0,
      extractions: d?.extractions ?? 0,
    };
  });
  return { today, week, month, ...standing, days };
}

/**
 * Suspend (status 2) or restore (status 1) a customer with a reason. Suspension logs the customer out everywhere and
 * takes effect for /extract and the proxy credentials at once (both check users.status on every call).
 */
export async function setCustomerSuspended(
  db: D1Database,
  actor: AuditActor,
  r: { userId: number; suspended: boolean; reason: string },
): Promise<{ status: 1 | 2 }> {
  const from = r.suspended ? 1 : 2;
  const to = r.suspended ? 2 : 1;
  // Nodes learn the new status at their next pull (the feed row); the status UPDATE stays last for the audit check.
  const statements = [
    userChangedStatement(db, r.userId, actor.now),
    setCustomerStatusStatement(db, { userId: r.userId, from, to, now: actor.now }),
  ];
  if (r.suspended) statements.unshift(deleteCustomerSessionsStatement(db, r.userId));
  await auditedChange(
    db,
    actor,
    {
      action: r.suspended ? 'Admin.SuspendCustomer' : 'Admin.RestoreCustomer',
      target: `user:${r.userId}`,
      before: { status: from },
      after: { status: to },
      reason: r.reason,
    },
    statements,
    'customerStateChanged',
  );
  return { status: to };
}

/** Lift a customer's password lock (and failure count). */
export async function unlockCustomer(
  db: D1Database,
  actor: AuditActor,
  r: { userId: number; reason: string },
): Promise<{ unlocked: boolean }> {
  const { changed } = await auditedWrite(
    db,
    actor,
    { action: 'Admin.UnlockCustomer', target: `user:${r.userId}`, after: { failedLogins: 0 }, reason: r.reason },
    [unlockCustomerStatement(db, r.userId, actor.now)],
    { requireChange: true },
  );
  return { unlocked: changed > 0 };
}

/** What refunding an order would do, or why it cannot be refunded now (nothing is written). */
export async function refundPreview(db: D1Database, orderNo: string, now: number) {
  const order = await findOrder(db, orderNo);
  if (!order) throw new AppError('orderNotFound');
  const [live, merged, effects, refundedFen, coupon] = await Promise.all([
    findLiveRefund(db, orderNo),
    orderPackageMerged(db, orderNo),
    refundEffects(db, orderNo),
    orderRefundedFen(db, orderNo),
    order.userCouponId !== null ? findUserCoupon(db, order.userId, order.userCouponId) : null,
  ]);
  const refundableFen = order.state === ORDER_STATE.paid ? Math.max(0, order.payFen - refundedFen) : 0;
  const paidBy = order.paidOutTradeNo ? await findPayment(db, order.paidOutTradeNo) : null;
  let blocker: string | null = null;
  if (order.kind === ORDER_KIND.topUp) blocker = messages.refundTopUp;
  else if (order.state === ORDER_STATE.refunded) blocker = messages.refundDone;
  else if (order.state !== ORDER_STATE.paid || !order.paidOutTradeNo) blocker = messages.refundNotPaid;
  else if (merged) blocker = messages.refundMerged;
  const usage = effects.packages.map((p) => packageUsage(p, now));
  return {
    orderNo,
    state: order.state,
    payFen: order.payFen,
    /** The rail that paid: 'balance' refunds only to balance; the others go back by their rail or to balance. */
    payRail: paidBy ? payRailOf(paidBy.provider) : null,
    /** Money returned or on its way back by this order's live refunds. */
    refundedFen,
    /** At most this much may be refunded now; refunding all of it ends the order (decision 205). */
    refundableFen,
    /** The same as refundableFen: the amount a refund takes when none is typed. */
    amountFen: refundableFen,
    /** Pro-rata of what is unused, less what was refunded (null when the order created no package). */
    suggestedFen: blocker ? null : proRataRefundFen({ payFen: order.payFen, refundedFen }, usage),
    usage,
    /** A refund in progress (PENDING) is re-sent with the same number, amount and effects; others are final. */
    liveRefund: live
      ? { outRefundNo: live.outRefundNo, status: live.status, amountFen: live.amountFen, endsOrder: live.endsOrder }
      : null,
    packagesDisabled: effects.packages
      .filter((p) => [1, 2, 3].includes(p.state))
      .map((p) => ({ id: p.id, name: p.name })),
    commissionReversedFen:
      effects.commission && effects.commission.state !== COMMISSION_STATE.reversed ? effects.commission.amountFen : 0,
    /** The order's coupon and whether a final refund now would give it back (decision 206). */
    coupon: coupon
      ? {
          name: coupon.name,
          expiresAt: coupon.expiresAt,
          returnable: coupon.state === USER_COUPON_STATE.used && coupon.expiresAt > now,
        }
      : null,
    blocker,
  };
}
