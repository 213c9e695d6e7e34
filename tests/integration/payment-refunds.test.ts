// Refunding one payment attempt flagged refund_needed (Admin.RefundPayment, docs/decisions/180): money WeChat took for
// an order that could not take it (closed, or paid by another attempt) goes back through the WeChat refund in the
// simulator; the flag, the refund row and the audit row change in one batch and the order is never touched. Every
// refusal changes nothing; two concurrent calls refund once.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { ORDER_STATE } from '../../src/lib/order-states';
import { PACKAGE_STATE } from '../../src/lib/package-states';
import { findOrder } from '../../src/server/db/orders';
import { findLiveAttemptRefund, findRefund } from '../../src/server/db/refunds';
import { findSimTransaction } from '../../src/server/db/pay-simulator';
import { MINUTE_MS } from '../../src/lib/time';
import { callApi } from '../helpers/api';
import {
  outTradeNoOf,
  payInSimulator,
  place,
  postNotify,
  refundNotification,
  resetWithCatalogue,
  verifiedBuyer,
} from '../helpers/commerce';
import {
  ageRefund,
  closeOrderQuietly,
  commissionEntries,
  failAttempt,
  failedRefundNote,
  forgetProviderRefunds,
  orderRefundMarks,
  packageCount,
  packageOfOrder,
  paymentCount,
  paymentFlags,
  paymentNote,
  paymentRefundNo,
  pendingPaymentRefund,
  providerRefundCount,
  providerRefunds,
  refundCount,
  refundedByHandAtWeChat,
  refundNeeded,
  setRefundNeeded,
  setRefundStatus,
  someFlaggedAttempt,
} from '../helpers/money';
import { auditCount, auditRows as auditRowsWhere, operatorLogin } from '../helpers/operators';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity

beforeEach(resetWithCatalogue);

const refundPayment = (outTradeNo: string, cookie: string, reason = '订单已关闭，原路退回') =>
  callApi('Admin.RefundPayment', { outTradeNo, reason }, { cookie });

const flag = refundNeeded;
const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const refundRows = () => refundCount();
const auditRows = (outTradeNo: string) =>
  auditCount({ action: 'Admin.RefundPayment', target: `payment:${outTradeNo}` });
const todoCount = async (cookie: string) =>
  (await callApi('Admin.Dashboard', {}, { cookie })).body.P?.todo.refundNeeded;

/** The payer pays after the order was closed (e.g. by the expiry job): WeChat took the money, the attempt is flagged. */
async function paidAfterClose(phone = '13800004001') {
  const buyer = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
  await closeOrderQuietly(order.orderNo);
  expect(await (await payInSimulator(order.codeUrl ?? '')).text()).toContain('商户应答 HTTP 204');
  const outTradeNo = outTradeNoOf(order.codeUrl ?? '');
  expect(await flag(outTradeNo)).toBe(true);
  return { buyer, orderNo: order.orderNo, outTradeNo };
}

/** Two attempts of one order both paid at WeChat: the first pays the order, the second is flagged. */
async function paidTwice(phone = '13800004002') {
  const buyer = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
  const first = outTradeNoOf(order.codeUrl ?? '');
  // The first QR code stops being offered (as if it failed at the provider), so the page asks for a second attempt.
  await failAttempt(first);
  const again = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo }, { cookie: buyer });
  const second = outTradeNoOf(again.body.P?.codeUrl ?? '');
  expect(second).not.toBe(first);
  await payInSimulator(order.codeUrl ?? '');
  await payInSimulator(again.body.P?.codeUrl ?? '');
  expect(await orderState(order.orderNo)).toBe(ORDER_STATE.paid);
  expect(await flag(first)).toBe(false);
  expect(await flag(second)).toBe(true);
  return { buyer, orderNo: order.orderNo, paying: first, outTradeNo: second };
}

describe('refunding a flagged payment attempt', { timeout: 30_000 }, () => {
  it('refunds the attempt of a closed order: flag cleared, refund row, audit row; the order stays closed', async () => {
    const finance = await operatorLogin('finance');
    const { orderNo, outTradeNo } = await paidAfterClose();
    expect(await todoCount(finance.cookie)).toBe(1);

    const preview = await callApi('Admin.RefundPaymentPreview', { outTradeNo }, { cookie: finance.cookie });
    expect(preview.body.P).toMatchObject({ amountFen: 4038, blocker: null, orderNo, liveRefund: null });
    expect(await refundRows()).toBe(0);

    const res = await refundPayment(outTradeNo, finance.cookie);
    expect(res.body.E).toBeUndefined();
    expect(res.body.P).toMatchObject({ outTradeNo, orderNo, amountFen: 4038, status: 'SUCCESS' });
    expect(res.body.P?.outRefundNo).toMatch(/^R\d{14}[0-9A-Z]{16}$/);

    expect(await flag(outTradeNo)).toBe(false);
    expect(await paymentRefundNo(outTradeNo)).toBe(res.body.P?.outRefundNo);
    expect(await paymentNote(outTradeNo)).toBe(
      `已支付，但订单已关闭或已由另一笔支付完成：需退款，请对这笔支付点「退款」；已退款 ${res.body.P?.outRefundNo}（SUCCESS）`,
    );
    const row = await findLiveAttemptRefund(env.DB, outTradeNo);
    expect(row).toMatchObject({
      outRefundNo: res.body.P?.outRefundNo,
      orderNo,
      kind: 'payment',
      amountFen: 4038,
      totalFen: 4038,
      status: 'SUCCESS',
      operatorId: finance.id,
      reason: '订单已关闭，原路退回',
    });
    expect(row?.refundId).toMatch(/^50\d+$/);
    const audit = await auditRowsWhere({ operatorId: finance.id, action: 'Admin.RefundPayment' });
    expect(audit).toEqual([
      expect.objectContaining({
        operatorId: finance.id,
        role: 'finance',
        target: `payment:${outTradeNo}`,
        reason: '订单已关闭，原路退回',
      }),
    ]);
    expect(String(audit[0]?.before)).toContain('refundNeeded');
    expect(String(audit[0]?.after)).toContain(String(res.body.P?.outRefundNo));
    // The order is untouched (still closed, never refunded); no package was created or disabled.
    expect(await orderRefundMarks(orderNo)).toEqual({ state: ORDER_STATE.closed, refundedAt: null, outRefundNo: null });
    expect(await packageCount()).toBe(0);
    // WeChat's side: one refund of the whole attempt, the transaction reads REFUND.
    expect(await providerRefundCount()).toBe(1);
    expect((await findSimTransaction(env.DB, outTradeNo))?.tradeState).toBe('REFUND');
    // The console: the to-do count dropped, the order no longer lists under 需退款, its detail shows the refund.
    expect(await todoCount(finance.cookie)).toBe(0);
    const flagged = await callApi('Admin.OrderSearch', { flag: 'refund_needed' }, { cookie: finance.cookie });
    expect(flagged.body.P?.list).toEqual([]);
    const detail = await callApi('Admin.OrderDetail', { orderNo }, { cookie: finance.cookie });
    expect(detail.body.P?.payments).toEqual([
      expect.objectContaining({ outTradeNo, refundNeeded: 0, outRefundNo: res.body.P?.outRefundNo }),
    ]);
    expect(detail.body.P?.refunds).toEqual([
      expect.objectContaining({ outRefundNo: res.body.P?.outRefundNo, status: 'SUCCESS' }),
    ]);
    // A second call finds nothing to refund and changes nothing.
    expect((await refundPayment(outTradeNo, finance.cookie)).body.E).toBe('该笔支付已退款');
    expect(await providerRefundCount()).toBe(1);
    expect(await auditRows(outTradeNo)).toBe(1);
  });

  it('refunds the extra attempt of an order paid by another attempt: the order stays paid with its package', async () => {
    const finance = await operatorLogin('finance');
    const { orderNo, paying, outTradeNo } = await paidTwice();
    const commissionBefore = (await commissionEntries()).length;
    const res = await refundPayment(outTradeNo, finance.cookie, '重复支付退款');
    expect(res.body.P).toMatchObject({ outTradeNo, orderNo, amountFen: 4038, status: 'SUCCESS' });
    expect(await flag(outTradeNo)).toBe(false);
    expect(await orderState(orderNo)).toBe(ORDER_STATE.paid);
    expect((await findOrder(env.DB, orderNo))?.paidOutTradeNo).toBe(paying);
    expect((await packageOfOrder(orderNo))?.state).toBe(PACKAGE_STATE.active);
    expect((await commissionEntries()).length).toBe(commissionBefore);
    expect((await findSimTransaction(env.DB, paying))?.tradeState).toBe('SUCCESS');
    // The order itself can still be refunded afterwards, by its paying attempt: the payment refund does not block it.
    const orderRefund = await callApi(
      'Order.RefundByOrderNo',
      { orderNo, reason: '客户申请退款' },
      { cookie: finance.cookie },
    );
    expect(orderRefund.body.P?.status).toBe('SUCCESS');
    expect(await orderState(orderNo)).toBe(ORDER_STATE.refunded);
    expect(await refundCount({ orderNo, status: 'SUCCESS' })).toBe(2);
  });

  it('refuses unknown, unflagged and order-paying attempts in Chinese and changes nothing', async () => {
    const finance = await operatorLogin('finance');
    const { orderNo, paying } = await paidTwice();
    const buyer = await verifiedBuyer('13800004003');
    const unpaid = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    const before = await paymentFlags();

    const unknown = 'P20990101000000AAAAAAAAAAAAAAAA';
    expect((await refundPayment(unknown, finance.cookie)).body.E).toBe('支付记录不存在，请核对商户订单号');
    expect((await refundPayment('not-a-trade-no', finance.cookie)).body.E).toBe('支付记录不存在，请核对商户订单号');
    expect((await refundPayment(outTradeNoOf(unpaid.codeUrl ?? ''), finance.cookie)).body.E).toBe(
      '该笔支付没有需退款标记（未多收款或已退款），无需退款',
    );
    // The attempt that paid a paid order (even if flagged) is refunded with the order, never on its own.
    await setRefundNeeded(paying, true);
    const paysOrder = '该笔支付是订单的付款，请使用订单的「退款」（同时停用套餐、冲销佣金）';
    expect((await refundPayment(paying, finance.cookie)).body.E).toBe(paysOrder);
    const preview = await callApi('Admin.RefundPaymentPreview', { outTradeNo: paying }, { cookie: finance.cookie });
    expect(preview.body.P?.blocker).toBe(paysOrder);
    await setRefundNeeded(paying, false);
    // Reasons follow the order refund's rules.
    const flagged = await someFlaggedAttempt();
    expect((await refundPayment(flagged ?? '', finance.cookie, '  ')).body.E).toBe('请填写退款原因（最多80个字）');
    expect((await refundPayment(flagged ?? '', finance.cookie, '退'.repeat(81))).body.E).toBe(
      '请填写退款原因（最多80个字）',
    );

    expect(await paymentFlags()).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
    expect(await refundRows()).toBe(0);
    expect(await providerRefundCount()).toBe(0);
    // The audit log is append-only across the file's tests: count this operator's rows.
    expect(await auditCount({ action: 'Admin.RefundPayment', operatorId: finance.id })).toBe(0);
    expect(await orderState(orderNo)).toBe(ORDER_STATE.paid);
  });

  it('is finance and admin only: customers and other roles get 403 and nothing changes', async () => {
    const { buyer, outTradeNo } = await paidAfterClose();
    for (const role of ['support', 'content', 'ops'] as const) {
      const { cookie } = await operatorLogin(role);
      expect((await refundPayment(outTradeNo, cookie)).status, role).toBe(403);
      expect((await callApi('Admin.RefundPaymentPreview', { outTradeNo }, { cookie })).status, role).toBe(403);
    }
    expect((await refundPayment(outTradeNo, buyer)).status).toBe(403);
    expect((await refundPayment(outTradeNo, '')).status).toBe(401);
    expect(await flag(outTradeNo)).toBe(true);
    expect(await refundRows()).toBe(0);
    expect(await providerRefundCount()).toBe(0);
    // An admin may.
    const admin = await operatorLogin('admin');
    expect((await refundPayment(outTradeNo, admin.cookie)).body.P?.status).toBe('SUCCESS');
  });

  it('refunds once under two concurrent requests: one provider refund, one row, flag cleared once, one audit row', async () => {
    const finance = await operatorLogin('finance');
    const { outTradeNo } = await paidAfterClose();
    const [a, b] = await Promise.all([
      refundPayment(outTradeNo, finance.cookie),
      refundPayment(outTradeNo, finance.cookie),
    ]);
    const ok = [a, b].filter((r) => r.body.P);
    const refused = [a, b].filter((r) => r.body.E);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(['该笔支付正在退款中，请稍后刷新查看结果', '该笔支付已退款']).toContain(refused[0]?.body.E);
    expect(await providerRefundCount()).toBe(1);
    expect(await refundRows()).toBe(1);
    expect(await flag(outTradeNo)).toBe(false);
    expect(await auditRows(outTradeNo)).toBe(1);
    expect(await paymentCount({ noteContains: '已退款 R' })).toBe(1);
  });

  it('keeps the flag and fails the row when WeChat refuses; an unknown outcome is re-sent with the same number', async () => {
    const finance = await operatorLogin('finance');
    const { outTradeNo } = await paidAfterClose();
    // Already refunded in full by hand in the merchant platform: WeChat refuses (not enough left to refund).
    await refundedByHandAtWeChat(outTradeNo, 4038, 'RBYHAND');
    expect((await refundPayment(outTradeNo, finance.cookie)).body.E).toMatch(/^支付渠道拒绝退款，该笔支付仍为需退款/);
    expect(await flag(outTradeNo)).toBe(true);
    expect(await refundCount({ status: 'FAILED', kind: 'payment' })).toBe(1);
    expect(await failedRefundNote()).toMatch(
      /^退款被拒绝，钱未退回：请按错误详情修正后重新退款（将使用新的退款单号）。错误详情：\S/,
    );
    expect(await auditRows(outTradeNo)).toBe(0);
    await forgetProviderRefunds('RBYHAND');

    // An earlier call whose outcome stayed unknown left a PENDING row: a second call inside a minute is refused, a
    // later one re-sends that same out_refund_no (WeChat never refunds one number twice).
    await pendingPaymentRefund(outTradeNo, 'RPENDING0001', finance.id, '先前的请求');
    expect((await refundPayment(outTradeNo, finance.cookie)).body.E).toBe('该笔支付正在退款中，请稍后刷新查看结果');
    expect(await providerRefundCount()).toBe(0);
    await ageRefund('RPENDING0001', 2 * MINUTE_MS);
    const retried = await refundPayment(outTradeNo, finance.cookie);
    expect(retried.body.P).toMatchObject({ outRefundNo: 'RPENDING0001', status: 'SUCCESS' });
    expect((await providerRefunds())[0]?.outRefundNo).toBe('RPENDING0001');
    expect(await flag(outTradeNo)).toBe(false);
    expect(await auditRows(outTradeNo)).toBe(1);
  });
});

describe('WeChat refund notifications', { timeout: 30_000 }, () => {
  const refundRow = (outRefundNo: string) => findRefund(env.DB, outRefundNo);
  /** A payment refund WeChat accepted as PROCESSING (the simulator answers SUCCESS at once: the row is set back). */
  async function processingPaymentRefund() {
    const finance = await operatorLogin('finance');
    const { orderNo, outTradeNo } = await paidAfterClose();
    const res = await refundPayment(outTradeNo, finance.cookie);
    const outRefundNo = res.body.P?.outRefundNo ?? '';
    await setRefundStatus(outRefundNo, 'PROCESSING');
    const refundId = (await refundRow(outRefundNo))?.refundId ?? '';
    return { finance, orderNo, outTradeNo, outRefundNo, refundId };
  }

  it('REFUND.SUCCESS settles a PROCESSING payment refund; the order and the cleared flag stay as they are', async () => {
    const { orderNo, outTradeNo, outRefundNo, refundId } = await processingPaymentRefund();
    // Signed for another merchant, or with a mismatched attempt or amount: nothing changes.
    const foreign = await refundNotification(
      { outTradeNo, outRefundNo, refundId, status: 'SUCCESS', refundFen: 4038, totalFen: 4038 },
      { mchid: '1900009999' },
    );
    expect((await postNotify(foreign)).status).toBe(401);
    const otherAttempt = await refundNotification({
      outTradeNo: 'P20990101000000AAAAAAAAAAAAAAAA',
      outRefundNo,
      refundId,
      status: 'SUCCESS',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(otherAttempt)).status).toBe(204);
    const otherAmount = await refundNotification({
      outTradeNo,
      outRefundNo,
      refundId,
      status: 'SUCCESS',
      refundFen: 1,
      totalFen: 4038,
    });
    expect((await postNotify(otherAmount)).status).toBe(204);
    expect((await refundRow(outRefundNo))?.status).toBe('PROCESSING');

    const ok = await refundNotification({
      outTradeNo,
      outRefundNo,
      refundId,
      status: 'SUCCESS',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(ok)).status).toBe(204);
    expect(await refundRow(outRefundNo)).toMatchObject({ status: 'SUCCESS', kind: 'payment' });
    // Delivered again (WeChat retries): still SUCCESS; an ABNORMAL after SUCCESS does not move it back.
    expect((await postNotify(ok)).status).toBe(204);
    const late = await refundNotification({
      outTradeNo,
      outRefundNo,
      refundId,
      status: 'ABNORMAL',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(late)).status).toBe(204);
    expect((await refundRow(outRefundNo))?.status).toBe('SUCCESS');
    expect(await flag(outTradeNo)).toBe(false);
    expect(await orderState(orderNo)).toBe(ORDER_STATE.closed);
    expect(await refundCount()).toBe(1);
  });

  it('REFUND.CLOSED fails the payment refund and flags the attempt again, so it can be refunded anew', async () => {
    const { finance, outTradeNo, outRefundNo, refundId } = await processingPaymentRefund();
    const closed = await refundNotification({
      outTradeNo,
      outRefundNo,
      refundId,
      status: 'CLOSED',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(closed)).status).toBe(204);
    expect(await refundRow(outRefundNo)).toMatchObject({
      status: 'FAILED',
      note: '微信已关闭该退款（CLOSED），钱未退回：这笔支付已重新标记为需退款，可再次退款',
    });
    expect(await flag(outTradeNo)).toBe(true);
    expect(await paymentNote(outTradeNo)).toMatch(
      new RegExp(
        `；已退款 ${outRefundNo}（SUCCESS）；退款 ${outRefundNo} 已被微信关闭（CLOSED），钱未退回：已重新标记为需退款，可再次退款$`,
      ),
    );
    expect(await paymentRefundNo(outTradeNo)).toBeNull();
    // WeChat's side gave nothing back: a new refund goes through under a new number.
    await forgetProviderRefunds();
    const again = await refundPayment(outTradeNo, finance.cookie);
    expect(again.body.P?.status).toBe('SUCCESS');
    expect(again.body.P?.outRefundNo).not.toBe(outRefundNo);
    expect(await flag(outTradeNo)).toBe(false);
  });

  it('REFUND.SUCCESS settles a PROCESSING order refund the same way, and only notes a PENDING one', async () => {
    const finance = await operatorLogin('finance');
    const { orderNo, paying, outTradeNo } = await paidTwice();
    const orderRefund = await callApi(
      'Order.RefundByOrderNo',
      { orderNo, reason: '客户申请退款' },
      { cookie: finance.cookie },
    );
    const orderRefundNo = orderRefund.body.P?.outRefundNo ?? '';
    await setRefundStatus(orderRefundNo, 'PROCESSING');
    const refundId = (await refundRow(orderRefundNo))?.refundId ?? '';
    const ok = await refundNotification({
      outTradeNo: paying,
      outRefundNo: orderRefundNo,
      refundId,
      status: 'SUCCESS',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(ok)).status).toBe(204);
    expect(await refundRow(orderRefundNo)).toMatchObject({ status: 'SUCCESS', kind: 'order' });
    expect(await orderState(orderNo)).toBe(ORDER_STATE.refunded);
    // The extra attempt's refund whose answer was lost stays PENDING (the next 退款 re-sends it and commits).
    await pendingPaymentRefund(outTradeNo, 'RLOST0001', finance.id, '重复支付');
    const lost = await refundNotification({
      outTradeNo,
      outRefundNo: 'RLOST0001',
      refundId: '50LOST',
      status: 'SUCCESS',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(lost)).status).toBe(204);
    expect(await refundRow('RLOST0001')).toMatchObject({ status: 'PENDING' });
    expect((await refundRow('RLOST0001'))?.note).toBe(
      '微信已通知退款结果 SUCCESS，但本条尚未提交：请再点一次「退款」，将用同一退款单号重发并记录结果',
    );
    expect(await flag(outTradeNo)).toBe(true);
    // A refund we never made (e.g. by hand in the merchant platform) is acknowledged and changes nothing.
    const foreign = await refundNotification({
      outTradeNo,
      outRefundNo: 'RBYHAND0001',
      refundId: '50BYHAND',
      status: 'SUCCESS',
      refundFen: 4038,
      totalFen: 4038,
    });
    expect((await postNotify(foreign)).status).toBe(204);
    expect(await refundCount()).toBe(2);
  });
});
