// The console's order tools: search by number, phone and id; detail with payment attempts; the refund preview (what
// the refund would take back, or why not, writing nothing); the CSV export (spreadsheet-safe cells, audited).
import { beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { flagOrderAttempts, forceOrderRefunded, refundCount, refundRowOfOrder, setOrderTitle } from '../helpers/money';
import { auditCount, operatorLogin } from '../helpers/operators';

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
    for (const q of [orderNo, PHONE, String(await userIdOf(PHONE))]) {
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
    await flagOrderAttempts(flagged.orderNo);
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
      await refundRowOfOrder(order.orderNo, refundNo, c.status, now - c.age);
      if ('refunded' in c) await forceOrderRefunded(order.orderNo, refundNo);
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
    expect(await refundCount()).toBe(0);
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
    await setOrderTitle(orderNo, '=HYPERLINK("x")');
    const res = await callApi('Admin.OrderExport', { state: 2 }, { cookie: finance.cookie });
    expect(res.body.P?.rows).toBe(1);
    const csv = res.body.P?.csv ?? '';
    expect(csv.startsWith('\uFEFF订单号,用户ID,手机号')).toBe(true);
    expect(csv).toContain(`${orderNo},`);
    expect(csv).toContain('"\'=HYPERLINK(""x"")"'); // never a live formula
    expect(await auditCount({ operatorId: finance.id, action: 'Admin.OrderExport' })).toBe(1);
  });
});
