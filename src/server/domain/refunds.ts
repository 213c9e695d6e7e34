// Refunding a paid order, in full or in part (operator action; docs/decisions/032 "Refunds", 205 partial refunds,
// 206 the coupon). Order of steps, so that money and state cannot disagree silently:
//   1. reserve a refunds row (PENDING) while the order is paid, has no refund in flight and the amount fits in what is
//      still refundable (paid − live refunds, checked by the INSERT itself): concurrent refunds never exceed the paid;
//   2. ask WeChat to refund that amount of the transaction's total with the row's out_refund_no (retries with the same
//      number never refund twice);
//   3a. WeChat accepted (SUCCESS / PROCESSING / ABNORMAL): one batch. A final refund (all that was left) marks the
//       order refunded, disables the packages it created, reverses the promoter's commission and gives the coupon back
//       while valid; a partial one leaves the order paid and disables the packages only when asked. Either records the
//       status, the coupon's outcome, the audit row and the customer's notice;
//   3b. WeChat refused (a verified 4xx, or CLOSED): the row becomes FAILED and the order stays paid;
//   3c. unknown outcome (network, 5xx, unverifiable answer): the row stays PENDING, the order stays paid and cannot be
//       refunded again under another number; a later call (after REFUND_RETRY_AFTER_MS) re-sends the same number.
// refundPayment (docs/decisions/180) refunds one attempt flagged refund_needed through the same steps, committing on
// the attempt (flag cleared) instead of the order.
import { ORDER_KIND } from '../../lib/commerce';
import { TRANSFER_RAIL } from '../../lib/bank-transfer';
import { AppError, isAppError } from '../../lib/errors';
import { formatFen } from '../../lib/format';
import { type MessageCode, messages, paymentNotes } from '../../lib/messages';
import { couponOutcomeText, type PayRail, refundNotice, refundRail } from '../../lib/refund-rules';
import { findUserCoupon } from '../db/coupons';
import { findOrder } from '../db/orders';
import { findPayment } from '../db/payments';
import {
  claimStaleRefund,
  closeAcceptedRefund,
  commitPartialRefund,
  commitPaymentRefund,
  commitRefund,
  failRefund,
  findLiveAttemptRefund,
  findLiveRefund,
  findRefund,
  noteRefund,
  orderPackageMerged,
  orderRefundedFen,
  type RefundNoticeWrite,
  type RefundRecord,
  refundAuditStatement,
  reservePaymentRefund,
  reserveRefund,
  type RefundRoute,
  settleRefund,
  balanceRefundStatements,
} from '../db/refunds';
import type { AuditWrite } from '../db/console-audit';
import { ALIPAY_RAIL_NAMES, type PaySetup } from '../providers/pay';
import type { PayProvider, RefundNotice, RefundStatus } from '../providers/pay/types';
import { BALANCE_RAIL } from '../../lib/balance';
import { commissionReversalStatements } from './commission';
import { escapeText } from './html-sanitizer';
import { newOutRefundNo } from './order-numbers';
import { MINUTE_MS } from '../../lib/time';
import { ORDER_STATE } from '../../lib/order-states';
import { payRailOf } from './payments';

/** A PENDING refund whose outcome is unknown may be re-sent (same out_refund_no) after this long. */
export const REFUND_RETRY_AFTER_MS = MINUTE_MS;

export interface RefundOutcome {
  orderNo: string;
  outRefundNo: string;
  amountFen: number;
  /** True when this refund returned all that was left: the order is now refunded (decision 205). */
  endsOrder: boolean;
  endsPackages: boolean;
  /** Where the money went: back to the paying rail, or to the account balance. */
  route: RefundRoute;
  /** The rail the money goes back by (the balance when routed there): what the status is worded by. */
  rail: PayRail;
  status: Exclude<RefundStatus, 'CLOSED'>;
}

/**
 * Refund `amountFen` of a paid order (all that is still refundable when omitted) at the provider and in the database.
 * Refunding all that is left ends the order as a full refund always did; a smaller amount is a partial refund: the
 * order stays paid, and the packages it created are disabled only with `endPackages`. A refund in flight whose outcome
 * was unknown is re-sent as it was reserved (same number, amount and effects), whatever the new input. Throws AppError
 * with the reason otherwise.
 */
export async function refundOrder(
  db: D1Database,
  pay: () => Promise<PaySetup>,
  input: {
    orderNo: string;
    amountFen?: number;
    endPackages?: boolean;
    reason: string;
    operatorId: number;
    now: number;
    /**
     * Where the money goes (docs/decisions/224): 'original' (default) back to the rail that paid, 'balance' to the
     * customer's account balance. An order paid from balance always goes back to balance; a top-up only by its rail.
     */
    route?: RefundRoute;
    /** The operator's audit row, written in the batch that commits the refund (docs/decisions/102). */
    audit?: (outcome: RefundOutcome) => AuditWrite;
  },
): Promise<RefundOutcome> {
  const { orderNo, now } = input;
  const order = await findOrder(db, orderNo);
  if (!order) throw new AppError('orderNotFound');
  if (order.state === ORDER_STATE.refunded) throw new AppError('refundDone');

  let refund: ReservedRefund & { endsOrder: boolean; endsPackages: boolean; route: RefundRoute };
  if (order.state !== ORDER_STATE.paid || !order.paidOutTradeNo) throw new AppError('refundNotPaid');
  const paidBy = await findPayment(db, order.paidOutTradeNo);
  const paidFromBalance = paidBy?.provider === BALANCE_RAIL;
  // A top-up's money is in the balance already: it can only go back by its rail, and that is not offered yet.
  if (order.kind === ORDER_KIND.topUp) throw new AppError('refundTopUp');
  const route: RefundRoute = paidFromBalance ? 'balance' : (input.route ?? 'original');
  const live = await findLiveRefund(db, orderNo);
  if (live) {
    const stale = await claimStaleRefund(db, { kind: 'order', orderNo }, now, REFUND_RETRY_AFTER_MS);
    if (!stale) throw new AppError('refundBusy');
    refund = stale;
  } else {
    if (await orderPackageMerged(db, orderNo)) throw new AppError('refundMerged');
    const refundable = order.payFen - (await orderRefundedFen(db, orderNo));
    const amountFen = input.amountFen ?? refundable;
    if (refundable <= 0) throw new AppError('refundDone');
    if (amountFen > refundable) throw new AppError('refundOverCap', { detail: `可退 ${formatFen(refundable)}` });
    const endsOrder = amountFen === refundable;
    const reservation = {
      outRefundNo: newOutRefundNo(now),
      orderNo,
      outTradeNo: order.paidOutTradeNo,
      userId: order.userId,
      amountFen,
      operatorId: input.operatorId,
      reason: input.reason,
    };
    const reserved = {
      ...reservation,
      totalFen: order.payFen,
      endsOrder,
      endsPackages: endsOrder || !!input.endPackages,
      route,
    };
    if (!(await reserveRefund(db, reserved, now))) {
      // Lost a race: another refund is in flight, or one committed meanwhile and this amount no longer fits.
      if (await findLiveRefund(db, orderNo)) throw new AppError('refundBusy');
      const left = order.payFen - (await orderRefundedFen(db, orderNo));
      if (left <= 0) throw new AppError('refundDone');
      throw new AppError('refundOverCap', { detail: `可退 ${formatFen(left)}` });
    }
    refund = reserved;
  }

  // To balance: nothing to ask a rail; the credit is written in the commit batch below, once.
  const result =
    refund.route === 'balance'
      ? { status: 'SUCCESS' as const, refundId: refund.outRefundNo }
      : await askProvider(db, pay, refund, now);
  const toBalance =
    refund.route === 'balance'
      ? balanceRefundStatements(
          db,
          {
            orderNo,
            outRefundNo: refund.outRefundNo,
            outTradeNo: refund.outTradeNo,
            userId: order.userId,
            amountFen: refund.amountFen,
            reason: refund.reason,
          },
          refund.endsOrder,
          now,
        )
      : [];
  const paidWith = await findPayment(db, refund.outTradeNo);
  const rail = refundRail(refund.route, paidWith ? payRailOf(paidWith.provider) : 'wechat') ?? 'wechat';
  const outcome: RefundOutcome = {
    orderNo,
    outRefundNo: refund.outRefundNo,
    amountFen: refund.amountFen,
    endsOrder: refund.endsOrder,
    endsPackages: refund.endsPackages,
    route: refund.route,
    rail,
    status: result.status,
  };
  const accepted = {
    outRefundNo: refund.outRefundNo,
    orderNo,
    outTradeNo: refund.outTradeNo,
    userId: order.userId,
    status: result.status,
    refundId: result.refundId,
  };
  const coupon = order.userCouponId !== null ? await findUserCoupon(db, order.userId, order.userCouponId) : null;
  const notice = noticeFor(order.title, { ...refund, rail }, coupon);
  const committed = refund.endsOrder
    ? await commitRefund(
        db,
        accepted,
        now,
        [
          ...toBalance,
          ...commissionReversalStatements(db, orderNo, now, refund.outRefundNo),
          ...(input.audit ? [refundAuditStatement(db, orderNo, refund.outRefundNo, input.audit(outcome))] : []),
        ],
        notice,
      )
    : await commitPartialRefund(
        db,
        { ...accepted, endsPackages: refund.endsPackages },
        now,
        input.audit?.(outcome),
        notice,
        toBalance,
      );
  if (!committed) {
    console.error('refund accepted by WeChat but the order was no longer paid', orderNo, refund.outRefundNo);
    throw new AppError('refundStateChanged');
  }
  return outcome;
}

/** The customer's notice of a refund, worded for each coupon outcome the commit may reach (lib/refund-rules.ts). */
function noticeFor(
  orderTitle: string,
  r: { amountFen: number; endsOrder: boolean; endsPackages: boolean; reason: string; rail: PayRail },
  coupon: { name: string; expiresAt: number } | null,
): RefundNoticeWrite {
  const html = (outcome: 'none' | 'returned' | 'expired' | 'kept') => {
    const { text } = refundNotice({ ...r, orderTitle, couponText: couponOutcomeText(outcome, coupon) });
    return `<p>${escapeText(text)}</p>`;
  };
  return {
    title: refundNotice({ ...r, orderTitle, couponText: '' }).title,
    html: { none: html('none'), returned: html('returned'), expired: html('expired'), kept: html('kept') },
  };
}

type ReservedRefund = Pick<RefundRecord, 'outRefundNo' | 'outTradeNo' | 'amountFen' | 'totalFen' | 'reason'>;

/**
 * Step 2 of both kinds of refund: ask WeChat with the reserved row's out_refund_no. A definite refusal (verified 4xx,
 * invalid request, CLOSED) fails the row and throws refundRejected; an unknown outcome keeps the row PENDING with a
 * note and throws refundUnknown. Otherwise WeChat's accepted answer (SUCCESS / PROCESSING / ABNORMAL).
 */
async function askProvider(
  db: D1Database,
  pay: () => Promise<PaySetup>,
  refund: ReservedRefund,
  now: number,
  codes: { rejected: MessageCode; unknown: MessageCode } = { rejected: 'refundRejected', unknown: 'refundUnknown' },
): Promise<Awaited<ReturnType<PayProvider['refund']>> & { status: Exclude<RefundStatus, 'CLOSED'> }> {
  let result: Awaited<ReturnType<PayProvider['refund']>>;
  try {
    const setup = await pay();
    const attempt = await findPayment(db, refund.outTradeNo);
    if (attempt && ALIPAY_RAIL_NAMES.includes(attempt.provider)) {
      result = await refundThroughAlipay(setup, refund);
      return { ...result, status: 'SUCCESS' };
    }
    // A company transfer has no provider to ask: finance sends the money back by bank transfer and marks the refund
    // done (Admin.TransferRefundDone, docs/decisions/228); until then it is in progress.
    if (attempt?.provider === TRANSFER_RAIL) return { ...bankRefund(refund), status: 'PROCESSING' };
    const { provider, notifyUrl } = setup;
    result = await provider.refund({
      // WeChat posts the refund's outcome to the same notify URL as payments (REFUND.* events; edge/routes/pay.ts).
      notifyUrl,
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
    const detail = upstream ? `${upstream.code}: ${upstream.message}` : String(e);
    if (definite) {
      await failRefund(db, refund.outRefundNo, paymentNotes.refundRejected(detail), now);
      throw new AppError(codes.rejected, upstream ? { detail: upstream.message } : {});
    }
    await noteRefund(db, refund.outRefundNo, paymentNotes.refundUnknown(detail), now);
    throw new AppError(codes.unknown);
  }
  if (result.status === 'CLOSED') {
    await failRefund(db, refund.outRefundNo, paymentNotes.refundClosedAtRequest, now);
    throw new AppError(codes.rejected, { detail: '退款已关闭' });
  }
  return { ...result, status: result.status };
}

/**
 * A refund of an Alipay payment goes back to Alipay (docs/decisions/223): alipay.trade.refund with the refund row's
 * number as out_request_no, so asking again never refunds twice (a repeat answers fund_change N with the same total).
 * Alipay answers synchronously: an accepted refund is final (SUCCESS); a refusal throws like WeChat's.
 */
async function refundThroughAlipay(
  setup: PaySetup,
  refund: ReservedRefund,
): Promise<Awaited<ReturnType<PayProvider['refund']>>> {
  if (!setup.alipay) throw new AppError('payUnavailable');
  const r = await setup.alipay.client.refund({
    outTradeNo: refund.outTradeNo,
    outRequestNo: refund.outRefundNo,
    refundFen: refund.amountFen,
    reason: refund.reason,
  });
  return {
    refundId: `${r.tradeNo}-${refund.outRefundNo}`,
    outRefundNo: refund.outRefundNo,
    outTradeNo: refund.outTradeNo,
    status: 'SUCCESS',
    refundFen: refund.amountFen,
    totalFen: refund.totalFen,
  };
}

/** A refund of a transfer-paid order as finance will make it by hand: accepted, in progress, no provider number yet. */
function bankRefund(refund: ReservedRefund): Awaited<ReturnType<PayProvider['refund']>> {
  return {
    // The bank's serial number is written when finance marks the refund done.
    refundId: '',
    outRefundNo: refund.outRefundNo,
    outTradeNo: refund.outTradeNo,
    status: 'PROCESSING',
    refundFen: refund.amountFen,
    totalFen: refund.totalFen,
  };
}

export interface PaymentRefundOutcome {
  outTradeNo: string;
  orderNo: string;
  outRefundNo: string;
  amountFen: number;
  /** The rail of the attempt, which the money goes back by. */
  rail: PayRail;
  status: Exclude<RefundStatus, 'CLOSED'>;
}

/**
 * Refund one payment attempt flagged refund_needed (money arrived but the order could not take it: the order was
 * closed, or another attempt paid it) in full, through the same three steps as an order refund (docs/decisions/180):
 * reserve a 'payment' refunds row, ask WeChat with its out_refund_no, then one batch clears the flag, records WeChat's
 * status and writes the audit row. The order, its packages and commission are never touched. Throws AppError with the
 * reason otherwise.
 */
export async function refundPayment(
  db: D1Database,
  pay: () => Promise<PaySetup>,
  input: {
    outTradeNo: string;
    reason: string;
    operatorId: number;
    now: number;
    /** The operator's audit row, written in the batch that clears the flag. */
    audit?: (outcome: PaymentRefundOutcome) => AuditWrite;
  },
): Promise<PaymentRefundOutcome> {
  const { outTradeNo, now } = input;
  const payment = await findPayment(db, outTradeNo);
  if (!payment) throw new AppError('paymentNotFound');
  const order = await findOrder(db, payment.orderNo);
  if (order?.paidOutTradeNo === outTradeNo && order.state === ORDER_STATE.paid)
    throw new AppError('paymentRefundPaysOrder');
  if (order?.paidOutTradeNo === outTradeNo && order.state === ORDER_STATE.refunded) throw new AppError('refundDone');

  let refund: ReservedRefund;
  const live = await findLiveAttemptRefund(db, outTradeNo);
  if (live) {
    if (live.status !== 'PENDING') throw new AppError('paymentRefundDone');
    const stale = await claimStaleRefund(db, { kind: 'payment', outTradeNo }, now, REFUND_RETRY_AFTER_MS);
    if (!stale) throw new AppError('paymentRefundBusy');
    refund = stale;
  } else {
    if (!payment.refundNeeded) throw new AppError('paymentRefundNotFlagged');
    const reservation = {
      outRefundNo: newOutRefundNo(now),
      orderNo: payment.orderNo,
      outTradeNo,
      userId: payment.userId,
      amountFen: payment.amountFen,
      operatorId: input.operatorId,
      reason: input.reason,
    };
    if (!(await reservePaymentRefund(db, reservation, now))) {
      // Lost a race: another call reserved (or finished) it, or the flag was cleared meanwhile.
      const again = await findLiveAttemptRefund(db, outTradeNo);
      if (again) throw new AppError(again.status === 'PENDING' ? 'paymentRefundBusy' : 'paymentRefundDone');
      throw new AppError('paymentRefundNotFlagged');
    }
    refund = { ...reservation, totalFen: payment.amountFen };
  }

  const result = await askProvider(db, pay, refund, now, {
    rejected: 'paymentRefundRejected',
    unknown: 'paymentRefundUnknown',
  });
  const outcome: PaymentRefundOutcome = {
    outTradeNo,
    orderNo: payment.orderNo,
    outRefundNo: refund.outRefundNo,
    amountFen: refund.amountFen,
    rail: payRailOf(payment.provider),
    status: result.status,
  };
  const committed = await commitPaymentRefund(
    db,
    {
      outRefundNo: refund.outRefundNo,
      orderNo: payment.orderNo,
      outTradeNo,
      userId: payment.userId,
      status: result.status,
      refundId: result.refundId,
    },
    now,
    input.audit?.(outcome),
  );
  if (!committed) {
    console.error('payment refund accepted by WeChat but the attempt was no longer flagged', outTradeNo);
    throw new AppError('paymentRefundStateChanged');
  }
  return outcome;
}

/** What refunding one attempt would do, or why it cannot be refunded now (nothing is written). */
export async function paymentRefundPreview(db: D1Database, outTradeNo: string) {
  const payment = await findPayment(db, outTradeNo);
  if (!payment) throw new AppError('paymentNotFound');
  const [order, live] = await Promise.all([findOrder(db, payment.orderNo), findLiveAttemptRefund(db, outTradeNo)]);
  const paysOrder = order?.paidOutTradeNo === outTradeNo;
  let blocker: MessageCode | null = null;
  if (paysOrder && order?.state === ORDER_STATE.paid) blocker = 'paymentRefundPaysOrder';
  else if (paysOrder && order?.state === ORDER_STATE.refunded) blocker = 'refundDone';
  else if (live && live.status !== 'PENDING') blocker = 'paymentRefundDone';
  else if (!live && !payment.refundNeeded) blocker = 'paymentRefundNotFlagged';
  return {
    outTradeNo,
    orderNo: payment.orderNo,
    amountFen: payment.amountFen,
    orderState: order?.state ?? null,
    /** The rail that took this payment: the refund goes back by it. */
    rail: payRailOf(payment.provider),
    note: payment.note,
    /** A refund in progress (PENDING) is re-sent with the same number. */
    liveRefund: live ? { outRefundNo: live.outRefundNo, status: live.status } : null,
    blocker: blocker ? messages[blocker] : null,
  };
}

/** What a refund notification did: see applyRefundNotice. */
export type RefundNoticeOutcome = 'settled' | 'closed' | 'unchanged' | 'pending' | 'unknown' | 'mismatch';

/**
 * Apply WeChat's verified refund notification to our refunds row, matched by out_refund_no and checked against its
 * attempt (out_trade_no) and amounts; the same for order and payment refunds, and never touching an order. A row still
 * PENDING (its answer was lost) is only noted: the next 退款 re-sends the same number and commits with the answer.
 */
export async function applyRefundNotice(db: D1Database, n: RefundNotice, now: number): Promise<RefundNoticeOutcome> {
  const log = (level: 'warn' | 'error', fields: Record<string, unknown>) =>
    console[level](JSON.stringify({ level, where: 'refund-notify', outRefundNo: n.outRefundNo, ...fields }));
  const row = await findRefund(db, n.outRefundNo);
  if (!row) {
    // E.g. a refund made by hand in the merchant platform: nothing of ours to update.
    log('warn', { event: 'unknown_refund', outTradeNo: n.outTradeNo, status: n.status });
    return 'unknown';
  }
  if (row.outTradeNo !== n.outTradeNo || row.amountFen !== n.refundFen || row.totalFen !== n.totalFen) {
    log('error', { event: 'mismatch', outTradeNo: n.outTradeNo, refundFen: n.refundFen, totalFen: n.totalFen });
    return 'mismatch';
  }
  if (row.status === 'PENDING') {
    await noteRefund(db, row.outRefundNo, paymentNotes.notifiedWhilePending(n.status), now);
    return 'pending';
  }
  if (n.status === 'CLOSED') return (await closeAcceptedRefund(db, row, now)) ? 'closed' : 'unchanged';
  return (await settleRefund(db, row.outRefundNo, n.status, n.refundId, now)) ? 'settled' : 'unchanged';
}
