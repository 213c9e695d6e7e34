// Refunding a paid order in full (operator action; docs/decisions/032 "Refunds"). Order of steps, so that money and
// state cannot disagree silently:
//   1. reserve a refunds row (PENDING) while the order is paid and has no live refund: concurrent refunds reserve one;
//   2. ask WeChat to refund with that row's out_refund_no (retries with the same number never refund twice);
//   3a. WeChat accepted (SUCCESS / PROCESSING / ABNORMAL): one batch marks the order refunded, disables the packages
//       it created, reverses the promoter's commission and records the status;
//   3b. WeChat refused (a verified 4xx, or CLOSED): the row becomes FAILED and the order stays paid;
//   3c. unknown outcome (network, 5xx, unverifiable answer): the row stays PENDING, the order stays paid and cannot be
//       refunded again under another number; a later call (after REFUND_RETRY_AFTER_MS) re-sends the same number.
import { AppError, isAppError } from '../../lib/errors';
import { findOrder } from '../db/orders';
import {
  claimStaleRefund,
  commitRefund,
  failRefund,
  findLiveRefund,
  noteRefund,
  orderPackageMerged,
  type RefundRecord,
  refundAuditStatement,
  reserveRefund,
} from '../db/refunds';
import type { AuditWrite } from '../db/operators-audit';
import type { PayProvider, RefundStatus } from '../providers/pay/types';
import { commissionReversalStatements } from './commission';
import { newOutRefundNo } from './order-numbers';

/** A PENDING refund whose outcome is unknown may be re-sent (same out_refund_no) after this long. */
export const REFUND_RETRY_AFTER_MS = 60_000;

export interface RefundOutcome {
  orderNo: string;
  outRefundNo: string;
  amountFen: number;
  status: Exclude<RefundStatus, 'CLOSED'>;
}

/** Refund a paid order in full at the provider and in the database. Throws AppError with the reason otherwise. */
export async function refundOrder(
  db: D1Database,
  pay: () => Promise<PayProvider>,
  input: {
    orderNo: string;
    reason: string;
    operatorId: number;
    now: number;
    /** The operator's audit row, written in the batch that marks the order refunded (docs/decisions/102). */
    audit?: (outcome: RefundOutcome) => AuditWrite;
  },
): Promise<RefundOutcome> {
  const { orderNo, now } = input;
  const order = await findOrder(db, orderNo);
  if (!order) throw new AppError('orderNotFound');
  if (order.state === 4) throw new AppError('refundDone');

  let refund: Pick<RefundRecord, 'outRefundNo' | 'outTradeNo' | 'amountFen' | 'totalFen' | 'reason'> | null = null;
  if (order.state === 2 && order.paidOutTradeNo) {
    const live = await findLiveRefund(db, orderNo);
    if (live) {
      refund = await claimStaleRefund(db, orderNo, now, REFUND_RETRY_AFTER_MS);
      if (!refund) throw new AppError('refundBusy');
    } else {
      if (await orderPackageMerged(db, orderNo)) throw new AppError('refundMerged');
      const reservation = {
        outRefundNo: newOutRefundNo(now),
        orderNo,
        outTradeNo: order.paidOutTradeNo,
        userId: order.userId,
        amountFen: order.payFen,
        operatorId: input.operatorId,
        reason: input.reason,
      };
      if (!(await reserveRefund(db, reservation, now))) throw new AppError('refundBusy');
      refund = { ...reservation, totalFen: order.payFen };
    }
  }
  if (!refund) throw new AppError('refundNotPaid');

  let result: Awaited<ReturnType<PayProvider['refund']>>;
  try {
    result = await (await pay()).refund({
      outTradeNo: refund.outTradeNo,
      outRefundNo: refund.outRefundNo,
      reason: refund.reason,
      refundFen: refund.amountFen,
      totalFen: refund.totalFen,
    });
  } catch (e) {
    const upstream = isAppError(e) ? e.upstream : undefined;
    const definite =
      e instanceof RangeError || (upstream !== undefined && upstream.status >= 400 && upstream.status < 500);
    const note = upstream ? `${upstream.code}: ${upstream.message}` : String(e);
    if (definite) {
      await failRefund(db, refund.outRefundNo, note, now);
      throw new AppError('refundRejected', upstream ? { detail: upstream.message } : {});
    }
    await noteRefund(db, refund.outRefundNo, `unknown outcome: ${note}`, now);
    throw new AppError('refundUnknown');
  }
  if (result.status === 'CLOSED') {
    await failRefund(db, refund.outRefundNo, 'WeChat closed the refund', now);
    throw new AppError('refundRejected', { detail: '退款已关闭' });
  }
  const committed = await commitRefund(
    db,
    {
      outRefundNo: refund.outRefundNo,
      orderNo,
      outTradeNo: refund.outTradeNo,
      userId: order.userId,
      status: result.status,
      refundId: result.refundId,
    },
    now,
    [
      ...commissionReversalStatements(db, orderNo, now, refund.outRefundNo),
      ...(input.audit
        ? [
            refundAuditStatement(
              db,
              orderNo,
              refund.outRefundNo,
              input.audit({
                orderNo,
                outRefundNo: refund.outRefundNo,
                amountFen: refund.amountFen,
                status: result.status,
              }),
            ),
          ]
        : []),
    ],
  );
  if (!committed) {
    console.error('refund accepted by WeChat but the order was no longer paid', orderNo, refund.outRefundNo);
    throw new AppError('refundStateChanged');
  }
  return { orderNo, outRefundNo: refund.outRefundNo, amountFen: refund.amountFen, status: result.status };
}
