// The customer's balance (docs/decisions/224): a top-up is an order paid through a rail's ordinary path and credits the
// balance exactly once (the notification replayed, concurrently or later, adds nothing); an order paid from balance is
// debited and fulfilled in one batch, never below zero, and never charged twice.
import { beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../helpers/accounts';
import { callApi } from '../helpers/api';
import {
  notification,
  outTradeNoOf,
  payInSimulator,
  place,
  postNotify,
  resetWithCatalogue,
  verifiedBuyer,
} from '../helpers/commerce';
import { debitBalanceRaw, ledgerCount, packageCount, refundCount } from '../helpers/money';
import { auditCount, operatorLogin } from '../helpers/operators';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the activity discount
const PHONE = '13800002001';

beforeEach(resetWithCatalogue);

/** Place a top-up of `amountFen` and pay it in the WeChat simulator; returns the order and its attempt. */
async function topUp(cookie: string, amountFen: number) {
  const placed = await callApi('Balance.TopUp', { amountFen }, { cookie });
  const order = placed.body.P;
  if (!order) throw new Error(`top-up: ${placed.body.E}`);
  const code = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo }, { cookie });
  const codeUrl = code.body.P?.codeUrl ?? '';
  expect((await payInSimulator(codeUrl)).status).toBe(200);
  return { order, codeUrl, outTradeNo: outTradeNoOf(codeUrl) };
}

const balance = async (cookie: string) => (await callApi('Balance.Get', {}, { cookie })).body.P;

const packagesOf = async (phone: string) => packageCount({ userId: await userIdOf(phone) });

describe('top-up', () => {
  it('credits the balance once through the WeChat notification, and a replayed notification adds nothing', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const { order, outTradeNo } = await topUp(cookie, 10_000);
    expect(order.payFen).toBe(10_000);
    const after = await balance(cookie);
    expect(after?.balanceFen).toBe(10_000);
    expect(after?.list).toEqual([
      expect.objectContaining({ kindText: '充值', amountFen: 10_000, balanceAfterFen: 10_000, orderNo: order.orderNo }),
    ]);
    // The same verified notification again, twice at once: still one credit.
    const n = await notification({ outTradeNo, amountTotalFen: 10_000, attach: order.orderNo });
    const [a, b] = await Promise.all([postNotify(n), postNotify(n)]);
    expect([a.status, b.status]).toEqual([204, 204]);
    expect((await balance(cookie))?.balanceFen).toBe(10_000);
    expect((await balance(cookie))?.total).toBe(1);
    // The bill list names it.
    const bills = await callApi('Order.GetBillList', { state: 2 }, { cookie });
    expect(bills.body.P?.list.map((o) => o.kindText)).toEqual(['余额充值']);
  });

  it('refuses amounts outside ¥10-¥50,000 and cannot itself be paid from balance', async () => {
    const cookie = await verifiedBuyer(PHONE);
    for (const amountFen of [999, 5_000_001, 1234.5]) {
      const res = await callApi('Balance.TopUp', { amountFen }, { cookie });
      expect(res.body.E).toBe('单笔充值金额需为10元至50,000元');
    }
    await topUp(cookie, 10_000);
    const placed = await callApi('Balance.TopUp', { amountFen: 2_000 }, { cookie });
    const res = await callApi('PayOrder.PayFromBalance', { orderNo: placed.body.P?.orderNo ?? '' }, { cookie });
    expect(res.body.E).toBe('充值订单请使用微信支付或支付宝付款');
    expect((await balance(cookie))?.balanceFen).toBe(10_000);
  });
});

describe('paying from balance', () => {
  it('debits the exact amount and fulfils the order in the same batch; short balance changes nothing', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const short = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const refused = await callApi('PayOrder.PayFromBalance', { orderNo: short.orderNo }, { cookie });
    expect(refused.body.E).toBe('账户余额不足，请先充值或选择微信支付、支付宝付款');
    expect(await packagesOf(PHONE)).toBe(0);

    await topUp(cookie, 5_000);
    const paid = await callApi('PayOrder.PayFromBalance', { orderNo: short.orderNo }, { cookie });
    expect(paid.body.P).toMatchObject({ paid: true, chargedFen: 4_038, balanceFen: 962 });
    expect(await packagesOf(PHONE)).toBe(1);
    const state = await callApi('PayOrder.GetOrderStateByOrderId', { orderNo: short.orderNo }, { cookie });
    expect(state.body.P?.state).toBe(2);
    const ledger = await balance(cookie);
    expect(ledger?.list.map((e) => [e.kindText, e.amountFen, e.balanceAfterFen, e.orderNo])).toEqual([
      ['消费', -4_038, 962, short.orderNo],
      ['充值', 5_000, 5_000, expect.any(String)],
    ]);
  });

  it('two concurrent payments that together exceed the balance: exactly one succeeds', async () => {
    const cookie = await verifiedBuyer(PHONE);
    await topUp(cookie, 5_000);
    const a = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const b = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const results = await Promise.all([
      callApi('PayOrder.PayFromBalance', { orderNo: a.orderNo }, { cookie }),
      callApi('PayOrder.PayFromBalance', { orderNo: b.orderNo }, { cookie }),
    ]);
    expect(results.filter((r) => r.body.P?.paid).length).toBe(1);
    expect(results.filter((r) => r.body.E === '账户余额不足，请先充值或选择微信支付、支付宝付款').length).toBe(1);
    expect((await balance(cookie))?.balanceFen).toBe(962);
    expect(await packagesOf(PHONE)).toBe(1);
    expect(await ledgerCount('pay')).toBe(1);
  });

  it('the same order paid twice at once from balance is charged once', async () => {
    const cookie = await verifiedBuyer(PHONE);
    await topUp(cookie, 20_000);
    const o = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const results = await Promise.all([
      callApi('PayOrder.PayFromBalance', { orderNo: o.orderNo }, { cookie }),
      callApi('PayOrder.PayFromBalance', { orderNo: o.orderNo }, { cookie }),
    ]);
    expect(results.filter((r) => r.body.P?.paid).length).toBe(1);
    expect(results.filter((r) => r.body.E === '订单已支付、已关闭或已过期').length).toBe(1);
    expect((await balance(cookie))?.balanceFen).toBe(20_000 - 4_038);
    expect(await packagesOf(PHONE)).toBe(1);
    // Later again: still refused, still charged once.
    const again = await callApi('PayOrder.PayFromBalance', { orderNo: o.orderNo }, { cookie });
    expect(again.body.E).toBe('订单已支付、已关闭或已过期');
    expect((await balance(cookie))?.balanceFen).toBe(20_000 - 4_038);
  });

  it('never lets the balance go below zero, even written directly', async () => {
    const cookie = await verifiedBuyer(PHONE);
    await topUp(cookie, 1_000);
    await expect(debitBalanceRaw(await userIdOf(PHONE), 1001)).rejects.toThrow(/CHECK/);
  });

  it('downloads the ledger as CSV with the running balance', async () => {
    const cookie = await verifiedBuyer(PHONE);
    await topUp(cookie, 5_000);
    const o = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await callApi('PayOrder.PayFromBalance', { orderNo: o.orderNo }, { cookie });
    const csv = (await callApi('Balance.ExportLedger', {}, { cookie })).body.P;
    expect(csv?.rows).toBe(2);
    const lines = (csv?.csv ?? '').replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('时间（北京时间）,类型,收入（元）,支出（元）,余额（元）,订单号,说明');
    expect(lines[1]).toContain(`,消费,,40.38,9.62,${o.orderNo},`);
    expect(lines[2]).toContain(',充值,50.00,,50.00,');
  });
});

describe('refunds to balance or the original rail', () => {
  const refund = (orderNo: string, cookie: string, p: { amountFen?: number; route?: 'original' | 'balance' } = {}) =>
    callApi('Order.RefundByOrderNo', { orderNo, reason: '客户申请退款', ...p }, { cookie });
  const detail = async (orderNo: string, cookie: string) =>
    (await callApi('Order.GetDetail', { orderNo }, { cookie })).body.P;

  it('a WeChat-paid order refunded to balance: credited once in the commit, WeChat not asked, audited, route shown', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await payInSimulator(order.codeUrl ?? '');
    const { cookie: finance } = await operatorLogin('finance');
    const partial = await refund(order.orderNo, finance, { amountFen: 1_000, route: 'balance' });
    expect(partial.body.P).toMatchObject({ amountFen: 1_000, endsOrder: false, route: 'balance', status: 'SUCCESS' });
    expect((await balance(cookie))?.balanceFen).toBe(1_000);
    const rest = await refund(order.orderNo, finance, { route: 'balance' });
    expect(rest.body.P).toMatchObject({ amountFen: 3_038, endsOrder: true, route: 'balance' });
    const after = await balance(cookie);
    expect(after?.balanceFen).toBe(4_038);
    expect(after?.list.map((e) => [e.kindText, e.amountFen, e.balanceAfterFen])).toEqual([
      ['退款', 3_038, 4_038],
      ['退款', 1_000, 1_000],
    ]);
    // Nothing went to WeChat: no refund at the simulator.
    expect(await refundCount({ route: 'balance', status: 'SUCCESS' })).toBe(2);
    const d = await detail(order.orderNo, cookie);
    expect(d?.state).toBe(4);
    expect(d?.refunds.map((r) => r.route)).toEqual(['balance', 'balance']);
    expect(await auditCount({ action: 'Order.RefundByOrderNo', afterContains: 'balance' })).toBe(2);
  });

  it('an order paid from balance goes back to balance even when the operator asks for the original rail', async () => {
    const cookie = await verifiedBuyer(PHONE);
    await topUp(cookie, 5_000);
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await callApi('PayOrder.PayFromBalance', { orderNo: order.orderNo }, { cookie });
    const { cookie: finance } = await operatorLogin('finance');
    const preview = await callApi('Admin.RefundPreview', { orderNo: order.orderNo }, { cookie: finance });
    expect(preview.body.P?.payRail).toBe('balance');
    const r = await refund(order.orderNo, finance, { route: 'original' });
    expect(r.body.P).toMatchObject({ route: 'balance', endsOrder: true, amountFen: 4_038 });
    expect((await balance(cookie))?.balanceFen).toBe(5_000);
  });

  it('refuses to refund a top-up order here, and the original route still goes to the rail', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const { order } = await topUp(cookie, 5_000);
    const { cookie: finance } = await operatorLogin('finance');
    expect((await refund(order.orderNo, finance)).body.E).toBe(
      '余额充值订单不能在此退款：充值金额已计入客户余额，请通过余额调整处理',
    );
    const bought = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await payInSimulator(bought.codeUrl ?? '');
    const r = await refund(bought.orderNo, finance);
    expect(r.body.P).toMatchObject({ route: 'original' });
    expect((await balance(cookie))?.balanceFen).toBe(5_000);
  });
});

describe('console balance adjustments', () => {
  it('finance credits and debits with a reason, audited; a debit beyond the balance changes nothing; support may not', async () => {
    const cookie = await verifiedBuyer(PHONE);
    const id = await userIdOf(PHONE);
    const { cookie: finance } = await operatorLogin('finance');
    const up = await callApi(
      'Admin.BalanceAdjust',
      { userId: id, direction: 'credit', amountFen: 2_000, reason: '活动补偿' },
      { cookie: finance },
    );
    expect(up.body.P).toEqual({ userId: id, amountFen: 2_000, balanceFen: 2_000 });
    const over = await callApi(
      'Admin.BalanceAdjust',
      { userId: id, direction: 'debit', amountFen: 2_001, reason: '误充扣回' },
      { cookie: finance },
    );
    expect(over.body.E).toBe('扣减金额超过客户当前账户余额，余额不能为负');
    const down = await callApi(
      'Admin.BalanceAdjust',
      { userId: id, direction: 'debit', amountFen: 500, reason: '误充扣回' },
      { cookie: finance },
    );
    expect(down.body.P?.balanceFen).toBe(1_500);
    const { cookie: support } = await operatorLogin('support');
    const refused = await callApi(
      'Admin.BalanceAdjust',
      { userId: id, direction: 'credit', amountFen: 100, reason: '客服试图加钱' },
      { cookie: support },
    );
    expect(refused.body.P).toBeUndefined();

    expect((await balance(cookie))?.list.map((e) => [e.kindText, e.amountFen, e.balanceAfterFen, e.note])).toEqual([
      ['调整', -500, 1_500, '误充扣回'],
      ['调整', 2_000, 2_000, '活动补偿'],
    ]);
    // Two audit rows (the refused debit wrote none), labelled in words on the customer's history.
    expect(await auditCount({ action: 'Admin.BalanceAdjust' })).toBe(2);
    const detail = await callApi('Admin.CustomerDetail', { userId: id }, { cookie: finance });
    expect(detail.body.P?.history.map((h) => h.actionLabel)).toContain('调整客户账户余额');
    const shown = await callApi('Admin.CustomerBalance', { userId: id }, { cookie: support });
    expect(shown.body.P?.balanceFen).toBe(1_500);
  });
});
