// What the console's screens do beyond reading: the dashboard's windows, customer suspension (effective for /extract
// and every session at once), unlocking, and the refund preview. Every write goes with its audit row in one batch.
import { AppError } from '../../lib/errors';
import { messages } from '../../lib/messages';
import { DAY_MS, shanghaiMidnight } from '../../lib/time';
import type { AuditActor } from '../db/operators-audit';
import { userChangedStatement } from '../db/node-feed';
import {
  deleteCustomerSessionsStatement,
  setCustomerStatusStatement,
  unlockCustomerStatement,
} from '../db/operators-customers';
import { standingFigures, windowFigures } from '../db/operators-dashboard';
import { findOrder } from '../db/orders';
import { refundEffects } from '../db/operators-orders';
import { findLiveRefund, orderPackageMerged } from '../db/refunds';
import { auditedWrite } from './operators-audit';

/** The dashboard: today (since Shanghai midnight), the last 7 and 30 days, and the standing figures. */
export async function dashboard(db: D1Database, now: number) {
  const [today, week, month, standing] = await Promise.all([
    windowFigures(db, shanghaiMidnight(now)),
    windowFigures(db, now - 7 * DAY_MS),
    windowFigures(db, now - 30 * DAY_MS),
    standingFigures(db, now),
  ]);
  return { today, week, month, ...standing };
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
  const { changed } = await auditedWrite(
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
    { requireChange: true },
  );
  if (!changed) throw new AppError('customerStateChanged');
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
export async function refundPreview(db: D1Database, orderNo: string) {
  const order = await findOrder(db, orderNo);
  if (!order) throw new AppError('orderNotFound');
  const [live, merged, effects] = await Promise.all([
    findLiveRefund(db, orderNo),
    orderPackageMerged(db, orderNo),
    refundEffects(db, orderNo),
  ]);
  let blocker: string | null = null;
  if (order.state === 4) blocker = messages.refundDone;
  else if (order.state !== 2 || !order.paidOutTradeNo) blocker = messages.refundNotPaid;
  else if (merged) blocker = messages.refundMerged;
  return {
    orderNo,
    amountFen: order.payFen,
    state: order.state,
    /** A refund in progress (PENDING) is re-sent with the same number; others are final. */
    liveRefund: live ? { outRefundNo: live.outRefundNo, status: live.status } : null,
    packagesDisabled: effects.packages,
    commissionReversedFen: effects.commission && effects.commission.state !== 3 ? effects.commission.amountFen : 0,
    blocker,
  };
}
