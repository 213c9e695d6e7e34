// The console's order tools: search by number, phone and id; detail with payment attempts; the refund preview (what
// the refund would take back, or why not, writing nothing); the CSV export (spreadsheet-safe cells, audited).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { callApi, callApiUntyped } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, userId, verifiedBuyer } from '../helpers/commerce';
import { operatorLogin } from '../helpers/operators';

beforeEach(resetWithCatalogue);

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity
const PHONE = '13800003001';

async function paidOrder() {
  const buyer = await verifiedBuyer(PHONE);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
  await payInSimulator(order.codeUrl ?? '');
  return order.orderNo;
}

describe('console orders', { timeout: 30_000 }, () => {
  it('finds an order by number, phone and user id and shows its payment attempts', async () => {
    const finance = await operatorLogin('finance');
    const orderNo = await paidOrder();
    for (const q of [orderNo, PHONE, String(await userId(PHONE))]) {
      const res = await callApi('Admin.OrderSearch', { q }, { cookie: finance.cookie });
      expect(res.body.P?.list, q).toEqual([expect.objectContaining({ orderNo, state: 2 })]);
    }
    const detail = await callApi('Admin.OrderDetail', { orderNo }, { cookie: finance.cookie });
    expect(detail.body.P?.order.payFen).toBe(4038);
    expect(detail.body.P?.payments).toEqual([expect.objectContaining({ state: 'paid' })]);
  });

  it('lists only orders whose payment needs a refund with flag=refund_needed, and marks them', async () => {
    const support = await operatorLogin('support');
    const plain = await paidOrder();
    const buyer = await verifiedBuyer('13800003002');
    const flagged = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    await payInSimulator(flagged.codeUrl ?? '');
    // The state a late or duplicate WeChat notification leaves (see commerce-payments): paid, order cannot take it.
    await env.DB.prepare('UPDATE payments SET refund_needed = 1 WHERE order_no = ?').bind(flagged.orderNo).run();
    const all = await callApi('Admin.OrderSearch', {}, { cookie: support.cookie });
    expect(all.body.P?.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ orderNo: plain, refundNeeded: false }),
        expect.objectContaining({ orderNo: flagged.orderNo, refundNeeded: true }),
      ]),
    );
    const only = await callApi('Admin.OrderSearch', { flag: 'refund_needed' }, { cookie: support.cookie });
    expect(only.body.P?.list).toEqual([expect.objectContaining({ orderNo: flagged.orderNo, refundNeeded: true })]);
    const bad = await callApiUntyped('Admin.OrderSearch', { flag: 'nonsense' }, { cookie: support.cookie });
    expect(bad.body.P).toBeUndefined();
    expect(bad.body.E).toBe('筛选条件无效');
  });

  it('lists refunds that need a person with flag=refund_issue and counts them on the dashboard', async () => {
    const finance = await operatorLogin('finance');
    const now = Date.now();
    const hour = 3_600_000;
    // One paid order per case; each gets one refund row in the state WeChat's answers would leave.
    const cases = [
      { phone: '13800003011', status: 'ABNORMAL', age: hour, issue: true }, // the money could not go back
      { phone: '13800003012', status: 'PROCESSING', age: 25 * hour, issue: true }, // no final word after a day
      { phone: '13800003013', status: 'PENDING', age: 25 * hour, issue: true }, // WeChat's answer never known
      { phone: '13800003014', status: 'PROCESSING', age: hour, issue: false }, // still within the day
      { phone: '13800003015', status: 'SUCCESS', age: 48 * hour, issue: false },
      { phone: '13800003016', status: 'FAILED', age: hour, issue: true, refunded: true }, // closed after 已退款
      { phone: '13800003017', status: 'FAILED', age: hour, issue: false }, // refused: the order stays paid
    ] as const;
    const expected: string[] = [];
    for (const [i, c] of cases.entries()) {
      const buyer = await verifiedBuyer(c.phone);
      const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
      await payInSimulator(order.codeUrl ?? '');
      const refundNo = `R-ISSUE-${i}`;
      await env.DB.prepare(
        `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, operator_id,
           created_at, updated_at)
         SELECT ?1, order_no, paid_out_trade_no, user_id, pay_fen, pay_fen, ?2, 1, ?3, ?3 FROM orders WHERE order_no = ?4`,
      )
        .bind(refundNo, c.status, now - c.age, order.orderNo)
        .run();
      if ('refunded' in c)
        await env.DB.prepare('UPDATE orders SET state = 4, out_refund_no = ? WHERE order_no = ?')
          .bind(refundNo, order.orderNo)
          .run();
      if (c.issue) expected.push(order.orderNo);
    }
    const only = await callApi('Admin.OrderSearch', { flag: 'refund_issue' }, { cookie: finance.cookie });
    expect(only.body.P?.list.map((o) => o.orderNo).sort()).toEqual(expected.sort());
    const dash = await callApi('Admin.Dashboard', {}, { cookie: finance.cookie });
    expect(dash.body.P?.todo.refundIssues).toBe(expected.length);
  });

  it('previews a refund without writing anything, and names the blocker once refunded', async () => {
    const finance = await operatorLogin('finance');
    const orderNo = await paidOrder();
    const preview = await callApi('Admin.RefundPreview', { orderNo }, { cookie: finance.cookie });
    expect(preview.body.P).toMatchObject({ amountFen: 4038, blocker: null });
    expect(preview.body.P?.packagesDisabled).toHaveLength(1);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM refunds').first('n')).toBe(0);
    await callApi('Order.RefundByOrderNo', { orderNo, reason: '客户申请' }, { cookie: finance.cookie });
    const after = await callApi('Admin.RefundPreview', { orderNo }, { cookie: finance.cookie });
    expect(after.body.P?.blocker).toBe('该订单已退款');
    // Support may look at orders but not refund them.
    const support = await operatorLogin('support');
    expect((await callApi('Admin.OrderDetail', { orderNo }, { cookie: support.cookie })).status).toBe(200);
    expect((await callApi('Admin.RefundPreview', { orderNo }, { cookie: support.cookie })).status).toBe(403);
  });

  it('exports orders as CSV with a BOM, spreadsheet-safe cells, and an audit row', async () => {
    const finance = await operatorLogin('finance');
    const orderNo = await paidOrder();
    await env.DB.prepare('UPDATE orders SET title = \'=HYPERLINK("x")\' WHERE order_no = ?').bind(orderNo).run();
    const res = await callApi('Admin.OrderExport', { state: 2 }, { cookie: finance.cookie });
    expect(res.body.P?.rows).toBe(1);
    const csv = res.body.P?.csv ?? '';
    expect(csv.startsWith('\uFEFF订单号,用户ID,手机号')).toBe(true);
    expect(csv).toContain(`${orderNo},`);
    expect(csv).toContain('"\'=HYPERLINK(""x"")"'); // never a live formula
    const audit = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE operator_id = ? AND action = 'Admin.OrderExport'",
    )
      .bind(finance.id)
      .first('n');
    expect(audit).toBe(1);
  });
});
