// Company bank transfer (对公转账, docs/decisions/227-228): a customer chooses it for an unpaid order and gets a
// reference, the company account and a 7-day reservation; finance previews and confirms the received amount, which pays
// the order through the same fulfilment as every rail (a payment attempt on rail 'transfer'); every mismatch is refused
// with its reason and audited; two concurrent confirmations pay once; a refund of such an order is finance's bank
// transfer, marked done by hand.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { TRANSFER_REFERENCE_ALPHABET, TRANSFER_RESERVE_MS } from '../../src/lib/bank-transfer';
import { messages } from '../../src/lib/messages';
import { TRANSFER_REFUND_ROUTE_TEXT } from '../../src/lib/refund-rules';
import { DEV_TRANSFER_ACCOUNT } from '../../src/server/env';
import { closeExpiredOrdersJob } from '../../src/server/jobs/payments';
import { callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import {
  bankTransferCount,
  noticesSaying,
  packageCount,
  packageFacts,
  packageOfOrder,
  paymentCount,
  providerRefundCount,
} from '../helpers/money';
import { auditCount, operatorLogin } from '../helpers/operators';
import { findOrder } from '../../src/server/db/orders';
import { listOrderPayments } from '../../src/server/db/payments';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity
const PAY_FEN = 4038;

beforeEach(resetWithCatalogue);

async function orderAwaitingTransfer(phone = '13800006001') {
  const buyer = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
  const chosen = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie: buyer });
  const transfer = chosen.body.P;
  if (!transfer) throw new Error(`BankTransfer: ${chosen.body.E}`);
  return { buyer, order, transfer };
}

const received = (reference: string, over: Partial<{ receivedFen: number; bankSerial: string }> = {}) => ({
  reference,
  receivedFen: PAY_FEN,
  payerName: '上海某某数据有限公司',
  bankSerial: 'CMB20261127000001',
  ...over,
});

const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const packagesOf = (orderNo: string) => packageCount({ orderNo });
const transferPayments = (orderNo: string) => paymentCount({ orderNo, provider: 'transfer' });
/** Audit rows of an action about one order (the audit log outlives each test's reset). */
const audits = (action: string, orderNo: string) => auditCount({ action, target: `order:${orderNo}` });

describe('a customer chooses company transfer', { timeout: 30_000 }, () => {
  it('gets a reference without 0/O/1/I, the company account, the exact amount and a 7-day reservation', async () => {
    const before = Date.now();
    const { buyer, order, transfer } = await orderAwaitingTransfer();
    expect(transfer.reference).toHaveLength(8);
    expect([...transfer.reference].every((c) => TRANSFER_REFERENCE_ALPHABET.includes(c))).toBe(true);
    expect(transfer.reference).not.toMatch(/[0O1I]/);
    expect(transfer).toMatchObject({ orderNo: order.orderNo, payFen: PAY_FEN, account: DEV_TRANSFER_ACCOUNT });
    expect(transfer.state).toBe('awaiting');
    // The order is reserved for 7 days instead of the QR code's 30 minutes.
    expect(transfer.reservedUntil).toBeGreaterThanOrEqual(before + TRANSFER_RESERVE_MS);
    expect((await findOrder(env.DB, order.orderNo))?.expiresAt).toBe(transfer.reservedUntil);

    // Asking again gives the same reference; the order detail carries it.
    const again = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie: buyer });
    expect(again.body.P?.reference).toBe(transfer.reference);
    const detail = await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie: buyer });
    expect(detail.body.P?.transfer?.reference).toBe(transfer.reference);
    expect(detail.body.P?.state).toBe(1);
  });

  it('is kept past the QR code expiry by the close job, and closed after the reservation', async () => {
    const { order, transfer } = await orderAwaitingTransfer();
    await closeExpiredOrdersJob.run(env, Date.now() + 31 * 60_000);
    expect(await orderState(order.orderNo)).toBe(1);
    await closeExpiredOrdersJob.run(env, transfer.reservedUntil + 1);
    expect(await orderState(order.orderNo)).toBe(3);

    const finance = await operatorLogin('finance');
    const res = await callApi('Admin.TransferConfirm', received(transfer.reference), { cookie: finance.cookie });
    expect(res.body.E).toBe(messages.transferOrderClosed);
  });

  it('cannot be chosen for a paid order, nor for another customer’s order', async () => {
    const buyer = await verifiedBuyer('13800006002');
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    const other = await verifiedBuyer('13800006003');
    const foreign = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie: other });
    expect(foreign.body.E).toBe(messages.orderNotFound);
    await payInSimulator(order.codeUrl ?? '');
    expect(await orderState(order.orderNo)).toBe(2);
    const paid = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie: buyer });
    expect(paid.body.E).toBe(messages.orderNotPayable);
    expect(await bankTransferCount()).toBe(0);
  });
});

describe('finance confirms a transfer', { timeout: 30_000 }, () => {
  it('previews without writing, then pays the order through fulfilment on rail transfer, audited', async () => {
    const { buyer, order, transfer } = await orderAwaitingTransfer();
    const finance = await operatorLogin('finance');

    const listed = await callApi('Admin.TransferSearch', { reference: transfer.reference.toLowerCase() }, finance);
    expect(listed.body.P?.list.map((t) => t.orderNo)).toEqual([order.orderNo]);

    const preview = await callApi('Admin.TransferPreview', received(transfer.reference), finance);
    expect(preview.body.P).toMatchObject({ willPay: true, refusal: null });
    expect(preview.body.P?.outcome).toContain('该订单将被标记为已支付');
    expect(await orderState(order.orderNo)).toBe(1);

    const confirmed = await callApi('Admin.TransferConfirm', received(transfer.reference), finance);
    expect(confirmed.body.P).toMatchObject({ orderNo: order.orderNo, paidFen: PAY_FEN });
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packagesOf(order.orderNo)).toBe(1);
    const attempt = (await listOrderPayments(env.DB, order.orderNo)).find((p) => p.provider === 'transfer');
    expect(attempt).toMatchObject({ state: 'paid', transactionId: 'CMB20261127000001', amountFen: PAY_FEN });
    expect(await audits('Admin.TransferConfirm', order.orderNo)).toBe(1);

    const detail = await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie: buyer });
    expect(detail.body.P).toMatchObject({ state: 2, payRail: 'transfer' });
    expect(detail.body.P?.transfer?.state).toBe('confirmed');
    // No longer listed as awaiting.
    expect((await callApi('Admin.TransferSearch', {}, finance)).body.P?.list).toEqual([]);
  });

  it('pays a renewal the same way: any order kind, not only a new package', async () => {
    const { buyer, order, transfer } = await orderAwaitingTransfer();
    const finance = await operatorLogin('finance');
    await callApi('Admin.TransferConfirm', received(transfer.reference), finance);
    const packageId = (await packageOfOrder(order.orderNo))?.id ?? 0;
    const before = (await packageFacts(packageId))?.totalCount ?? 0;

    const renewal = await place('PayOrder.RenewProxy', { packageId, periods: 1 }, buyer);
    const chosen = await callApi('PayOrder.BankTransfer', { orderNo: renewal.orderNo }, { cookie: buyer });
    const reference = chosen.body.P?.reference ?? '';
    expect(reference).not.toBe(transfer.reference);
    const res = await callApi(
      'Admin.TransferConfirm',
      received(reference, { receivedFen: renewal.payFen, bankSerial: 'CMB20261127000002' }),
      finance,
    );
    expect(res.body.P?.orderNo).toBe(renewal.orderNo);
    expect(await orderState(renewal.orderNo)).toBe(2);
    expect((await packageFacts(packageId))?.totalCount).toBeGreaterThan(before);
  });

  it('refuses every mismatch with its reason, changes nothing, and audits the refusal', async () => {
    const { order, transfer } = await orderAwaitingTransfer();
    const finance = await operatorLogin('finance');

    const short = await callApi('Admin.TransferConfirm', received(transfer.reference, { receivedFen: 4000 }), finance);
    expect(short.body.E).toBe(`${messages.transferAmountMismatch}：应收 ¥40.38，实收 ¥40.00`);
    const preview = await callApi(
      'Admin.TransferPreview',
      received(transfer.reference, { receivedFen: 4000 }),
      finance,
    );
    expect(preview.body.P).toMatchObject({ willPay: false, refusal: 'transferAmountMismatch' });

    const unknown = await callApi('Admin.TransferConfirm', received('ZZZZ ZZZZ'), finance);
    expect(unknown.body.E).toBe(messages.transferUnknownReference);
    const malformed = await callApi('Admin.TransferConfirm', received('0O1I0O1I'), finance);
    expect(malformed.body.E).toBe(messages.transferReferenceInvalid);

    expect(await orderState(order.orderNo)).toBe(1);
    expect(await transferPayments(order.orderNo)).toBe(0);
    // The short amount is audited against its order; the unknown reference against the reference itself.
    expect(await audits('Admin.TransferRefused', order.orderNo)).toBe(1);
    expect(await auditCount({ action: 'Admin.TransferRefused', target: 'transfer:ZZZZZZZZ' })).toBe(1);
    expect(await audits('Admin.TransferConfirm', order.orderNo)).toBe(0);

    // Paid by WeChat meanwhile: the transfer cannot pay it again.
    await payInSimulator(order.codeUrl ?? '');
    const late = await callApi('Admin.TransferConfirm', received(transfer.reference), finance);
    expect(late.body.E).toBe(messages.transferOrderPaid);
    expect(await transferPayments(order.orderNo)).toBe(0);
  });

  it('refuses a second confirmation and a bank serial already used', async () => {
    const first = await orderAwaitingTransfer('13800006011');
    const second = await orderAwaitingTransfer('13800006012');
    const finance = await operatorLogin('finance');
    expect((await callApi('Admin.TransferConfirm', received(first.transfer.reference), finance)).body.P).toBeTruthy();
    const twice = await callApi('Admin.TransferConfirm', received(first.transfer.reference), finance);
    expect(twice.body.E).toBe(messages.transferAlreadyConfirmed);
    const reused = await callApi('Admin.TransferConfirm', received(second.transfer.reference), finance);
    expect(reused.body.E).toBe(messages.transferSerialUsed);
    expect(await orderState(second.order.orderNo)).toBe(1);
  });

  it('two concurrent confirmations pay the order exactly once', async () => {
    const { order, transfer } = await orderAwaitingTransfer();
    const a = await operatorLogin('finance');
    const b = await operatorLogin('admin');
    const results = await Promise.all([
      callApi('Admin.TransferConfirm', received(transfer.reference), a),
      callApi('Admin.TransferConfirm', received(transfer.reference, { bankSerial: 'CMB20261127000009' }), b),
    ]);
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === messages.transferAlreadyConfirmed).length).toBe(1);
    expect(await transferPayments(order.orderNo)).toBe(1);
    expect(await packagesOf(order.orderNo)).toBe(1);
    expect(await audits('Admin.TransferConfirm', order.orderNo)).toBe(1);
  });

  it('is finance’s and admin’s: support may not confirm', async () => {
    const { transfer } = await orderAwaitingTransfer();
    const support = await operatorLogin('support');
    const res = await callApi('Admin.TransferConfirm', received(transfer.reference), support);
    expect(res.status).toBe(403);
  });
});

describe('refunding a transfer-paid order', { timeout: 30_000 }, () => {
  it('is finance’s bank transfer back: in progress until marked done with the bank serial, audited', async () => {
    const { buyer, order, transfer } = await orderAwaitingTransfer();
    const finance = await operatorLogin('finance');
    await callApi('Admin.TransferConfirm', received(transfer.reference), finance);

    const refund = await callApi('Order.RefundByOrderNo', { orderNo: order.orderNo, reason: '客户不再需要' }, finance);
    expect(refund.body.P).toMatchObject({ status: 'PROCESSING', endsOrder: true, amountFen: PAY_FEN });
    // Nothing was asked of WeChat Pay: the money goes back by bank transfer.
    expect(await providerRefundCount()).toBe(0);
    const outRefundNo = refund.body.P?.outRefundNo ?? '';
    const listed = await callApi('Admin.TransferRefunds', {}, finance);
    expect(listed.body.P?.list).toMatchObject([
      { outRefundNo, amountFen: PAY_FEN, payerName: '上海某某数据有限公司', paidSerial: 'CMB20261127000001' },
    ]);
    const notice = await noticesSaying(TRANSFER_REFUND_ROUTE_TEXT);
    expect(notice).toBe(1);
    const seen = await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie: buyer });
    expect(seen.body.P?.refunds[0]?.status).toBe('PROCESSING');
    // Finance reads it as its own to-do, not as a WeChat refund (docs/decisions/241).
    const console1 = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance);
    expect(console1.body.P?.refunds).toMatchObject([{ outRefundNo, rail: 'transfer', statusText: '待财务转账退回' }]);

    const done = await callApi('Admin.TransferRefundDone', { outRefundNo, bankSerial: 'CMB20261128000777' }, finance);
    expect(done.body.P).toEqual({ outRefundNo, status: 'SUCCESS' });
    const after = await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie: buyer });
    expect(after.body.P?.refunds[0]?.status).toBe('SUCCESS');
    expect((await callApi('Admin.TransferRefunds', {}, finance)).body.P?.list).toEqual([]);
    expect(await auditCount({ action: 'Admin.TransferRefundDone', target: `refund:${outRefundNo}` })).toBe(1);
    const console2 = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance);
    expect(console2.body.P?.refunds[0]?.statusText).toBe('财务已转账退回');
    const log = await callApi('Admin.AuditSearch', { target: `refund:${outRefundNo}` }, finance);
    expect(log.body.P?.list[0]?.changes).toContainEqual({
      field: '退款状态',
      before: '待财务转账退回',
      after: '财务已转账退回',
    });

    const again = await callApi('Admin.TransferRefundDone', { outRefundNo, bankSerial: 'CMB20261128000778' }, finance);
    expect(again.body.E).toBe(messages.transferRefundNotBank);
  });

  it('cannot mark a WeChat refund done by hand', async () => {
    const buyer = await verifiedBuyer('13800006021');
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    await payInSimulator(order.codeUrl ?? '');
    const finance = await operatorLogin('finance');
    const refund = await callApi('Order.RefundByOrderNo', { orderNo: order.orderNo, reason: '客户不再需要' }, finance);
    const outRefundNo = refund.body.P?.outRefundNo ?? '';
    expect(outRefundNo).not.toBe('');
    const res = await callApi('Admin.TransferRefundDone', { outRefundNo, bankSerial: 'CMB1' }, finance);
    expect(res.body.E).toBe(messages.transferRefundNotBank);
  });
});
