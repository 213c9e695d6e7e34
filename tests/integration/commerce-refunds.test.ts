// Refunding a paid order (operator): WeChat refund through the simulator, then one conditional batch that marks the
// order refunded, disables the package it created and reverses the promoter's commission; refused for unpaid and
// refunded orders and for non-operators; concurrent refunds refund once.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMISSION_STATE } from '../../src/lib/commission-rules';
import { findOrder } from '../../src/server/db/orders';
import { findSimTransaction } from '../../src/server/db/pay-simulator';
import { listOrderRefunds } from '../../src/server/db/refunds';
import { userIdOf } from '../helpers/accounts';
import { callApi, cookieJar, latestCode } from '../helpers/api';
import { outTradeNoOf, payInSimulator, place, resetWithCatalogue } from '../helpers/commerce';
import {
  availableCommissionFen,
  commissionStateOf,
  forgetProviderRefunds,
  packageOfOrder,
  paymentNote,
  providerRefundCount,
  refundCount,
  refundedByHandAtWeChat,
  refundNeeded,
  setRefundNeeded,
} from '../helpers/money';
import { auditRows, operatorLogin } from '../helpers/operators';
import { freshIp, markIdentityVerified, newUser } from '../helpers/trust';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity
const PROMOTER = '13800002001';
const INVITEE = '13800002002';

beforeEach(resetWithCatalogue);

/** The promoter's available commission in fen (ledger state 1). */
const available = async () => availableCommissionFen(await userIdOf(PROMOTER));

/** A promoter, an invitee registered through the promoter's link (real-name verified) and an operator. */
async function actors() {
  const promoter = await newUser(PROMOTER);
  const code = (await callApi('UserPromotion.AddUserPromotion', {}, { cookie: promoter })).body.P?.code;
  const ip = freshIp();
  await callApi('User.GetCode', { phone: INVITEE }, { ip });
  const res = await callApi(
    'User.LoginRegister',
    { phone: INVITEE, code: await latestCode(INVITEE) },
    { ip, cookie: `did=${code}` },
  );
  if (res.body.E) throw new Error(res.body.E);
  const invitee = cookieJar(res.setCookies);
  await markIdentityVerified(INVITEE);
  const finance = await operatorLogin('finance');
  return { promoter, invitee, operator: finance.cookie, operatorId: finance.id };
}

/** The invitee buys a package and pays it in the simulator. */
async function paidOrder(invitee: string) {
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, invitee);
  const paid = await payInSimulator(order.codeUrl ?? '');
  expect(await paid.text()).toContain('商户应答 HTTP 204');
  return { ...order, outTradeNo: outTradeNoOf(order.codeUrl ?? '') };
}

const refund = (orderNo: string, cookie: string, reason = '用户申请退款') =>
  callApi('Order.RefundByOrderNo', { orderNo, reason }, { cookie });

const orderState = async (orderNo: string) => (await findOrder(env.DB, orderNo))?.state;
const packageState = async (orderNo: string) => (await packageOfOrder(orderNo))?.state;
const refundRows = () => refundCount();
const providerRefunds = () => providerRefundCount();

describe('operator refunds', () => {
  it('refunds a paid order in full: order refunded, package disabled, commission reversed, refund row SUCCESS', async () => {
    const { invitee, operator, operatorId } = await actors();
    const before = await available();
    const order = await paidOrder(invitee);
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packageState(order.orderNo)).toBe(1);
    expect(await available()).toBe(before + Math.floor((4038 * 2000) / 10_000));
    // An attempt flagged for a refund (e.g. an extension that could not be delivered) is refunded the same way.
    await setRefundNeeded(order.outTradeNo, true);

    const res = await refund(order.orderNo, operator);
    expect(res.body.E).toBeUndefined();
    expect(res.body.P).toMatchObject({ orderNo: order.orderNo, amountFen: 4038, status: 'SUCCESS' });
    expect(res.body.P?.outRefundNo).toMatch(/^R\d{14}[0-9A-Z]{16}$/);

    expect(await orderState(order.orderNo)).toBe(4);
    expect(await packageState(order.orderNo)).toBe(5);
    expect(await available()).toBe(before);
    expect(await refundNeeded(order.outTradeNo)).toBe(false);
    expect(await paymentNote(order.outTradeNo)).toBe(`已随订单退款 ${res.body.P?.outRefundNo}`);
    expect(await commissionStateOf(order.orderNo)).toBe(COMMISSION_STATE.reversed);
    const [row] = await listOrderRefunds(env.DB, order.orderNo);
    expect(row).toMatchObject({
      outRefundNo: res.body.P?.outRefundNo,
      outTradeNo: order.outTradeNo,
      amountFen: 4038,
      totalFen: 4038,
      status: 'SUCCESS',
      operatorId,
      reason: '用户申请退款',
    });
    expect(row?.refundId).toMatch(/^50\d+$/);
    // The operator's audit row was written in the batch that refunded the order.
    const audit = await auditRows({ action: 'Order.RefundByOrderNo', target: `order:${order.orderNo}` });
    expect(audit).toEqual([
      expect.objectContaining({ operatorId: operatorId, role: 'finance', reason: '用户申请退款' }),
    ]);
    expect(String(audit[0]?.after)).toContain(String(res.body.P?.outRefundNo));
    // WeChat's side: one refund of the whole amount, and the transaction now reads REFUND.
    expect(await providerRefunds()).toBe(1);
    expect((await findSimTransaction(env.DB, order.outTradeNo))?.tradeState).toBe('REFUND');
    // The buyer's bill list shows it refunded.
    const bills = await callApi('Order.GetBillList', { state: 4 }, { cookie: invitee });
    expect(bills.body.P?.list).toEqual([expect.objectContaining({ orderNo: order.orderNo, stateText: '已退款' })]);
  });

  it('refuses non-operators with 403 and changes nothing', async () => {
    const { promoter, invitee } = await actors();
    const order = await paidOrder(invitee);
    expect((await refund(order.orderNo, invitee)).status).toBe(403);
    expect((await refund(order.orderNo, promoter)).status).toBe(403);
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packageState(order.orderNo)).toBe(1);
    expect(await refundRows()).toBe(0);
    expect(await providerRefunds()).toBe(0);
  });

  it('refuses unpaid and already refunded orders in Chinese and changes nothing', async () => {
    const { invitee, operator } = await actors();
    const unpaid = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, invitee);
    expect((await refund(unpaid.orderNo, operator)).body.E).toBe('只有已支付的订单可以退款');
    expect(await orderState(unpaid.orderNo)).toBe(1);
    expect(await refundRows()).toBe(0);

    const order = await paidOrder(invitee);
    expect((await refund(order.orderNo, operator)).body.P?.status).toBe('SUCCESS');
    const availableAfter = await available();
    expect((await refund(order.orderNo, operator)).body.E).toBe('该订单已退款');
    expect(await orderState(order.orderNo)).toBe(4);
    expect(await refundRows()).toBe(1);
    expect(await providerRefunds()).toBe(1);
    expect(await available()).toBe(availableAfter);
    expect((await refund(order.orderNo, operator, '  ')).body.E).toBe('请填写退款原因（最多80个字）');
  });

  it('refunds once under two concurrent requests: one provider refund, one refunds row', async () => {
    const { invitee, operator } = await actors();
    const order = await paidOrder(invitee);
    const [a, b] = await Promise.all([refund(order.orderNo, operator), refund(order.orderNo, operator)]);
    const ok = [a, b].filter((r) => r.body.P);
    const refused = [a, b].filter((r) => r.body.E);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(['该订单正在退款中，请稍后刷新查看结果', '该订单已退款']).toContain(refused[0]?.body.E);
    expect(await providerRefunds()).toBe(1);
    expect(await refundRows()).toBe(1);
    expect(await orderState(order.orderNo)).toBe(4);
    expect(await packageState(order.orderNo)).toBe(5);
  });

  it('leaves the order paid and the refund row FAILED when WeChat refuses, and a later refund can succeed', async () => {
    const { invitee, operator } = await actors();
    const order = await paidOrder(invitee);
    // WeChat's side has already refunded this transaction in full (e.g. by hand in the merchant platform).
    await refundedByHandAtWeChat(order.outTradeNo, 4038, 'RBYHAND');
    const res = await refund(order.orderNo, operator);
    expect(res.body.E).toMatch(/^支付渠道拒绝退款，订单仍为已支付/);
    expect(await orderState(order.orderNo)).toBe(2);
    expect(await packageState(order.orderNo)).toBe(1);
    expect(await refundCount({ status: 'FAILED' })).toBe(1);

    await forgetProviderRefunds('RBYHAND');
    expect((await refund(order.orderNo, operator)).body.P?.status).toBe('SUCCESS');
    expect(await orderState(order.orderNo)).toBe(4);
    expect(await refundCount({ status: 'SUCCESS' })).toBe(1);
  });
});
