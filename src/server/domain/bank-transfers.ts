// Company bank transfer (对公转账, docs/decisions/227): a customer chooses it for any unpaid order (package or top-up
// alike) and gets a remittance reference and the company account; the order stays reserved for TRANSFER_RESERVE_DAYS.
// Finance confirms the money received: a preview says what will happen, and the confirmation pays the order through
// the same fulfilment batch as every rail (a payment attempt with provider 'transfer'), or is refused with the reason.
// Both are audited.
import 'server-only';
import { TRANSFER_RESERVE_MS } from '../../lib/bank-transfer';
import { AppError } from '../../lib/errors';
import { formatFen } from '../../lib/format';
import { messages, type MessageCode } from '../../lib/messages';
import {
  bankRefundDoneStatement,
  findTransferByOrder,
  findTransferView,
  insertTransfer,
  type TransferRecord,
  type TransferView,
  transferConfirmStatements,
  transferSerialUsed,
} from '../db/bank-transfers';
import { runBatch } from '../db/batch';
import { type AuditWrite, auditInsertStatement } from '../db/console-audit';
import { findOrder, listOrderItems, type OrderRecord } from '../db/orders';
import type { TransferAccount } from '../env';
import { fulfilmentBatch } from './fulfilment';
import { newOutTradeNo, newTransferReference } from './order-numbers';
import { allocateBoughtIps } from './payments';
import { ORDER_STATE } from '../../lib/order-states';

/** What the customer needs to pay an order by transfer. */
export interface TransferInstructions {
  orderNo: string;
  reference: string;
  payFen: number;
  /** The order stays reserved until then (it closes unpaid afterwards). */
  reservedUntil: number;
  account: TransferAccount;
  state: TransferRecord['state'];
}

const instructions = (t: TransferRecord, order: OrderRecord, account: TransferAccount): TransferInstructions => ({
  orderNo: order.orderNo,
  reference: t.reference,
  payFen: order.payFen,
  reservedUntil: order.expiresAt,
  account,
  state: t.state,
});

/**
 * Pay this order by company transfer: its reference (the same one each time it is asked), the company account, the
 * exact amount and until when the order is reserved. Choosing it extends the order's reservation to
 * TRANSFER_RESERVE_MS from now (never shortens it). Throws transferUnavailable without a configured account, and
 * orderNotPayable for an order that is not unpaid.
 */
export async function chooseTransfer(
  db: D1Database,
  account: TransferAccount | null,
  order: OrderRecord,
  now: number,
): Promise<TransferInstructions> {
  if (!account) throw new AppError('transferUnavailable');
  const existing = await findTransferByOrder(db, order.orderNo);
  if (existing) {
    if (order.state !== ORDER_STATE.pending && existing.state !== 'confirmed') throw new AppError('orderNotPayable');
    return instructions(existing, order, account);
  }
  if (order.state !== ORDER_STATE.pending || order.expiresAt <= now) throw new AppError('orderNotPayable');
  // A reference already taken (2^40 of them) or a concurrent choice writes nothing: read what stands, else try anew.
  for (let i = 0; i < 3; i++) {
    await insertTransfer(db, {
      reference: newTransferReference(),
      orderNo: order.orderNo,
      userId: order.userId,
      reservedUntil: now + TRANSFER_RESERVE_MS,
      now,
    });
    const [chosen, fresh] = await Promise.all([findTransferByOrder(db, order.orderNo), findOrder(db, order.orderNo)]);
    if (chosen && fresh) return instructions(chosen, fresh, account);
    if (fresh?.state !== ORDER_STATE.pending || fresh.expiresAt <= now) throw new AppError('orderNotPayable');
  }
  throw new AppError('payUnavailable');
}

/** The order's transfer as the customer's order detail shows it, or null when none was chosen. */
export async function orderTransfer(
  db: D1Database,
  account: TransferAccount | null,
  order: OrderRecord,
): Promise<TransferInstructions | null> {
  const t = await findTransferByOrder(db, order.orderNo);
  // Without an account configured (any more) there is nothing to show the customer to pay to.
  return t && account ? instructions(t, order, account) : null;
}

/** What finance typed from the bank's statement. */
export interface ReceivedTransfer {
  reference: string;
  receivedFen: number;
  payerName: string;
  bankSerial: string;
}

/** The preview of a confirmation: what will happen (the order paid), or why it is refused. */
export interface TransferPreview {
  reference: string;
  /** Null for an unknown reference. */
  transfer: (TransferView & { expectedFen: number }) | null;
  receivedFen: number;
  payerName: string;
  bankSerial: string;
  willPay: boolean;
  /** What will happen, in words (该订单将被标记为已支付…), or the refusal's reason. */
  outcome: string;
  refusal: MessageCode | null;
  /** The refusal's detail (the two amounts of a mismatch). */
  detail: string;
}

/** Why this received money cannot pay its order now, or null when it can. */
function refusalOf(t: TransferView | null, r: ReceivedTransfer, serialUsed: boolean): MessageCode | null {
  if (!t) return 'transferUnknownReference';
  if (t.state === 'confirmed') return 'transferAlreadyConfirmed';
  if (t.orderState === ORDER_STATE.paid) return 'transferOrderPaid';
  if (t.orderState !== ORDER_STATE.pending) return 'transferOrderClosed';
  if (r.receivedFen !== t.payFen) return 'transferAmountMismatch';
  if (serialUsed) return 'transferSerialUsed';
  return null;
}

/** Preview a confirmation (writes nothing): the order it pays and what will happen, or the reason it is refused. */
export async function previewTransfer(db: D1Database, r: ReceivedTransfer): Promise<TransferPreview> {
  const [t, serialUsed] = await Promise.all([findTransferView(db, r.reference), transferSerialUsed(db, r.bankSerial)]);
  const refusal = refusalOf(t, r, serialUsed);
  const detail =
    refusal === 'transferAmountMismatch' && t ? `应收 ${formatFen(t.payFen)}，实收 ${formatFen(r.receivedFen)}` : '';
  return {
    reference: r.reference,
    transfer: t ? { ...t, expectedFen: t.payFen } : null,
    receivedFen: r.receivedFen,
    payerName: r.payerName,
    bankSerial: r.bankSerial,
    willPay: refusal === null,
    outcome: refusal
      ? `${messages[refusal]}${detail ? `（${detail}）` : ''}`
      : `该订单将被标记为已支付（到账 ${formatFen(r.receivedFen)}），并立即交付所购内容`,
    refusal,
    detail,
  };
}

/**
 * Finance confirms a received transfer. One batch claims the transfer (only while it awaits and its order is unpaid
 * at exactly this amount), records the attempt (provider 'transfer', the bank serial as its transaction id), runs the
 * same fulfilment statements as every rail, and writes the audit row; of two concurrent confirmations exactly one pays.
 * Anything else is refused: the refusal is audited and thrown with its reason.
 */
export async function confirmTransfer(
  db: D1Database,
  r: ReceivedTransfer & { operatorId: number; now: number },
  audit: (what: {
    orderNo: string;
    outTradeNo: string | null;
    refusal: MessageCode | null;
    detail: string;
  }) => AuditWrite,
): Promise<{ orderNo: string; outTradeNo: string; paidFen: number }> {
  const preview = await previewTransfer(db, r);
  const refuse = async (p: TransferPreview): Promise<never> => {
    const code = p.refusal ?? 'transferAlreadyConfirmed';
    const a = audit({ orderNo: p.transfer?.orderNo ?? '', outTradeNo: null, refusal: code, detail: p.detail });
    await auditInsertStatement(db, a.actor, a.entry).run();
    throw new AppError(code, p.detail ? { detail: p.detail } : {});
  };
  const t = preview.transfer;
  if (!preview.willPay || !t) return refuse(preview);
  const order = await findOrder(db, t.orderNo);
  if (!order) return refuse(preview);
  const outTradeNo = newOutTradeNo(r.now);
  const { claim, attempt } = transferConfirmStatements(db, { ...r, outTradeNo });
  const items = await listOrderItems(db, order.orderNo);
  const { paid, statements } = fulfilmentBatch(
    db,
    order,
    items,
    { outTradeNo, transactionId: r.bankSerial, amountFen: r.receivedFen },
    r.now,
  );
  const a = audit({ orderNo: order.orderNo, outTradeNo, refusal: null, detail: '' });
  const batch = await runBatch(db, [
    claim,
    attempt,
    ...statements,
    auditInsertStatement(db, a.actor, a.entry, {
      sql: 'EXISTS (SELECT 1 FROM bank_transfers WHERE reference = ? AND out_trade_no = ?)',
      binds: [r.reference, outTradeNo],
    }),
  ]);
  if (batch.changes(claim) === 1 && batch.changes(paid) === 1) {
    await allocateBoughtIps(db, order, r.now);
    return { orderNo: order.orderNo, outTradeNo, paidFen: r.receivedFen };
  }
  // Lost to a concurrent confirmation or payment: say why as it stands now.
  return refuse(await previewTransfer(db, r));
}

/**
 * Finance marks a transfer-paid order's refund done once the bank transfer back is sent (docs/decisions/228): the
 * refund becomes SUCCESS with the bank's serial, and the audit row is written in the same batch. Throws
 * transferRefundNotBank for a refund that is not such a refund in progress.
 */
export async function markBankRefundDone(
  db: D1Database,
  r: { outRefundNo: string; bankSerial: string; now: number },
  audit: AuditWrite,
): Promise<{ outRefundNo: string; status: 'SUCCESS' }> {
  const done = bankRefundDoneStatement(db, r);
  const batch = await runBatch(db, [
    done,
    auditInsertStatement(db, audit.actor, audit.entry, {
      sql: "EXISTS (SELECT 1 FROM refunds WHERE out_refund_no = ? AND status = 'SUCCESS' AND refund_id = ?)",
      binds: [r.outRefundNo, r.bankSerial],
    }),
  ]);
  if (batch.changes(done) !== 1) throw new AppError('transferRefundNotBank');
  return { outRefundNo: r.outRefundNo, status: 'SUCCESS' };
}
