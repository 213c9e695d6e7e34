// 向…查询 in the console (Admin.OrderAskProvider, docs/decisions/244): each open attempt is asked of its own provider
// and answered in that rail's words (an Alipay attempt: the local Alipay stand-in, 支付宝答复：…); the order detail
// names the rails the button asks; an order no provider knows about (a company transfer) is refused and has no button.
// Also: the dashboard counts such orders once, an Alipay mismatch note speaks of Alipay, and the demo seed's refund
// audit entry names its rail (decision 241).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { askProviderLabel } from '../../src/lib/provider-query';
import { findOrder } from '../../src/server/db/orders';
import { searchAuditLog } from '../../src/server/db/console-audit';
import { describeAudit } from '../../src/server/domain/console-audit-read';
import { alipayTransaction, applyTransaction } from '../../src/server/domain/payments';
import { auditSql } from '../../src/server/seed/console-people';
import { simulateAlipayPayment } from '../../src/server/providers/pay/alipay-simulator';
import { callApi } from '../helpers/api';
import { outTradeNoOf, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { failAttempt, paymentCount, paymentNote } from '../helpers/money';
import { operatorLogin } from '../helpers/operators';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity

beforeEach(resetWithCatalogue);

/** An unpaid order whose only open attempt is at Alipay (the WeChat attempt opened when it was placed has failed). */
async function alipayOnlyOrder(phone: string) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  await failAttempt(outTradeNoOf(order.codeUrl ?? ''));
  const code = await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'alipay' }, { cookie });
  const codeUrl = code.body.P?.codeUrl;
  if (!codeUrl) throw new Error(`no Alipay code: ${code.body.E}`);
  return { cookie, order, outTradeNo: outTradeNoOf(codeUrl) };
}

describe('asking the provider about an Alipay order', { timeout: 30_000 }, () => {
  it('asks Alipay, applies its answer and words it as Alipay’s; the button says 向支付宝查询', async () => {
    const { order, outTradeNo } = await alipayOnlyOrder('13800007101');
    const finance = await operatorLogin('finance');

    const before = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance);
    expect(before.body.P?.askRails).toEqual(['alipay']);
    expect(askProviderLabel(before.body.P?.askRails ?? [])).toBe('向支付宝查询');

    // Unpaid at Alipay: Alipay's answer, in Alipay's words.
    const unpaid = await callApi('Admin.OrderAskProvider', { orderNo: order.orderNo }, finance);
    expect(unpaid.body.E).toBeUndefined();
    expect(unpaid.body.P?.results).toEqual([
      { outTradeNo, rail: 'alipay', outcome: 'not_paid', text: '支付宝答复：未支付' },
    ]);

    // Paid at the stand-in with the notification lost: only asking Alipay can know, and the order is paid once.
    expect(await simulateAlipayPayment(env.DB, outTradeNo, { now: Date.now(), isProduction: false })).not.toBeNull();
    const paid = await callApi('Admin.OrderAskProvider', { orderNo: order.orderNo }, finance);
    expect(paid.body.P?.results).toEqual([
      { outTradeNo, rail: 'alipay', outcome: 'paid', text: '支付宝答复：已支付，已补记' },
    ]);
    expect((await findOrder(env.DB, order.orderNo))?.state).toBe(2);
    expect(await paymentCount({ orderNo: order.orderNo, state: 'paid', provider: 'alipay-simulator' })).toBe(1);

    // The audit log says which rail was asked.
    const entries = await describeAudit(
      env.DB,
      await searchAuditLog(env.DB, { action: 'Admin.OrderAskProvider', target: `order:${order.orderNo}`, limit: 5 }),
    );
    expect(entries.map((e) => e.note).sort()).toEqual([
      `支付单号 ${outTradeNo}，支付渠道 支付宝，结果 已支付，已补记`,
      `支付单号 ${outTradeNo}，支付渠道 支付宝，结果 未支付`,
    ]);
  });

  it('an order open on both rails is asked of each, each answer in its own rail’s words', async () => {
    const cookie = await verifiedBuyer('13800007102');
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await callApi('PayOrder.GetPayCode', { orderNo: order.orderNo, rail: 'alipay' }, { cookie });
    const finance = await operatorLogin('finance');
    const detail = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance);
    expect(detail.body.P?.askRails).toEqual(['wechat', 'alipay']);
    // The dashboard's 等待支付渠道结果的订单 counts this order once, not once per attempt.
    expect((await callApi('Admin.Dashboard', {}, finance)).body.P?.todo.pendingAtProvider).toBe(1);
    const asked = await callApi('Admin.OrderAskProvider', { orderNo: order.orderNo }, finance);
    expect(asked.body.P?.results.map((r) => r.text).sort()).toEqual(['微信支付答复：未支付', '支付宝答复：未支付']);
  });
});

describe('an order no provider knows about', { timeout: 30_000 }, () => {
  it('awaiting a company transfer: refused in words that send finance to 对公转账, and no button', async () => {
    const cookie = await verifiedBuyer('13800007103');
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    await failAttempt(outTradeNoOf(order.codeUrl ?? ''));
    const chosen = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie });
    expect(chosen.body.P?.state).toBe('awaiting');
    const finance = await operatorLogin('finance');

    const detail = await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance);
    expect(detail.body.P?.order.state).toBe(1);
    expect(detail.body.P?.askRails).toEqual([]);
    const asked = await callApi('Admin.OrderAskProvider', { orderNo: order.orderNo }, finance);
    expect(asked.body.E).toBe(messages.nothingToAskProvider);
    expect(asked.body.E).toContain('对公转账由财务在「对公转账」确认到账');
    expect(asked.body.P).toBeUndefined();
    // An order that does not exist is still 订单不存在.
    const unknown = 'D20261127000000NONE000000000000';
    expect((await callApi('Admin.OrderAskProvider', { orderNo: unknown }, finance)).body.E).toBe(
      messages.orderNotFound,
    );
  });

  it('paid by company transfer: refused, nothing asked', async () => {
    const cookie = await verifiedBuyer('13800007104');
    const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
    const chosen = await callApi('PayOrder.BankTransfer', { orderNo: order.orderNo }, { cookie });
    const reference = chosen.body.P?.reference ?? '';
    const finance = await operatorLogin('finance');
    const confirmed = await callApi(
      'Admin.TransferConfirm',
      { reference, receivedFen: 4038, payerName: '上海某某数据有限公司', bankSerial: 'CMB20261127007104' },
      finance,
    );
    expect(confirmed.body.E).toBeUndefined();
    // The WeChat attempt opened at placement was left unpaid; once the transfer paid the order, only it is open.
    await failAttempt(outTradeNoOf(order.codeUrl ?? ''));
    const asked = await callApi('Admin.OrderAskProvider', { orderNo: order.orderNo }, finance);
    expect(asked.body.E).toBe(messages.nothingToAskProvider);
    expect(asked.body.P).toBeUndefined();
    expect((await callApi('Admin.OrderDetail', { orderNo: order.orderNo }, finance)).body.P?.askRails).toEqual([]);
  });
});

describe('a payment an Alipay answer does not match', () => {
  it('is flagged for a refund with a note in Alipay’s words', async () => {
    const { outTradeNo } = await alipayOnlyOrder('13800007105');
    const outcome = await applyTransaction(
      env.DB,
      alipayTransaction(
        { name: 'alipay-simulator', client: null as never },
        { outTradeNo, tradeNo: '2026112722001400000000000001', tradeStatus: 'TRADE_SUCCESS', totalFen: 1 },
      ),
      Date.now(),
    );
    expect(outcome).toBe('mismatch');
    expect(await paymentNote(outTradeNo)).toMatch(
      /^支付宝报告支付成功，但与本单记录不符：金额 1 分，币种 CNY，支付宝交易号 2026112722001400000000000001。订单未因此支付，需退款；.*支付宝商户平台/,
    );
  });
});

describe('the demo seed', () => {
  it('records the rail in its refund audit entry as Order.RefundByOrderNo does, so the log names it', async () => {
    const statement = auditSql(Date.now()).find((x) => x.includes("'Order.RefundByOrderNo'")) ?? '';
    const after = /'(\{[^']*"status":"SUCCESS"[^']*\})'/.exec(statement)?.[1] ?? '';
    expect(JSON.parse(after)).toMatchObject({ status: 'SUCCESS', route: 'original', rail: 'wechat' });
    const [view] = await describeAudit(env.DB, [
      {
        id: 1,
        operatorId: 1,
        operatorName: 'demo.finance',
        role: 'finance',
        action: 'Order.RefundByOrderNo',
        target: 'order:D1',
        before: '{"state":2}',
        after,
        reason: '',
        clientIp: '127.0.0.1',
        createdAt: Date.now(),
      },
    ]);
    expect(view?.changes).toContainEqual({ field: '退款状态', before: null, after: '已退回微信支付' });
    expect(view?.changes).toContainEqual({ field: '退回渠道', before: null, after: '微信支付' });
  });
});
