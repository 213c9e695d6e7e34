// The commission rule (docs/decisions/062): promoters earn on their invitees' paid orders for a year after the
// invitation; the invitee's first commissioned order earns the first-order rate, later ones the recurring rate, per
// product type, in basis points of the money paid; amounts are floored to whole fen. Refunds reverse it. Accrual is a
// set of D1 statements the commerce fulfilment runs inside its payment batch (exactly once per order number).
import { COMMISSION_RATES, MIN_WITHDRAWAL_FEN, WITHDRAWAL_STATE } from '../../lib/commission-rules';
import { accrualStatements, reversalStatements } from '../db/commission';

// The rates and limits live in src/lib/commission-rules.ts, shared with the pages that explain them.
export { COMMISSION_RATES, MIN_WITHDRAWAL_FEN };

/** The rate for an order of a product type. Unknown types earn nothing. */
export function commissionRateBp(productType: number, isFirst: boolean): number {
  const r = COMMISSION_RATES[productType];
  if (!r) return 0;
  return isFirst ? r.firstBp : r.recurringBp;
}

/** Commission in fen: floor(paid fen x rate bp / 10000). Never negative, never fractional. */
export function commissionAmountFen(paidFen: number, rateBp: number): number {
  if (!Number.isSafeInteger(paidFen) || paidFen <= 0 || rateBp <= 0) return 0;
  return Math.floor((paidFen * rateBp) / 10_000);
}

export interface PaidOrderForCommission {
  orderNo: string;
  /** The buyer (the possible invitee). */
  userId: number;
  productType: number;
  /** Money actually paid, in fen (after discounts, coupons and credits). */
  payFen: number;
  paidAt: number;
}

/**
 * D1 statements that accrue the commission of a paid order. Include them in the batch that marks the order paid: the
 * UNIQUE(order_no) index makes duplicate payment callbacks accrue nothing more. Empty for types that earn nothing.
 */
export function commissionAccrualStatements(db: D1Database, order: PaidOrderForCommission): D1PreparedStatement[] {
  const r = COMMISSION_RATES[order.productType];
  if (!r || order.payFen <= 0) return [];
  return accrualStatements(db, { ...order, firstBp: r.firstBp, recurringBp: r.recurringBp });
}

/**
 * D1 statements that reverse the commission of a refunded order (idempotent). With `refundedBy` (an out_refund_no)
 * they act only while the order is refunded by that refund, so a refund batch whose order update did nothing reverses
 * nothing either.
 */
export function commissionReversalStatements(
  db: D1Database,
  orderNo: string,
  now: number,
  refundedBy?: string,
): D1PreparedStatement[] {
  return reversalStatements(db, orderNo, now, refundedBy);
}

export type WithdrawalDecision = 'approve' | 'reject' | 'paid';

/** The next withdrawal state for a decision, or null. */
export function nextWithdrawalState(from: number, decision: WithdrawalDecision): number | null {
  const W = WITHDRAWAL_STATE;
  if (from === W.requested && decision === 'approve') return W.approved;
  if ((from === W.requested || from === W.approved) && decision === 'reject') return W.rejected;
  if (from === W.approved && decision === 'paid') return W.paid;
  return null;
}

// The states' labels live with the rules the pages render: src/lib/commission-rules.ts.
