// Invoices (docs/decisions/229-230): a customer saves titles (个人/企业 with a checked 税号; 专票 only for the company
// whose 企业认证 passed), requests an invoice for picked orders or an amount never above paid − refunded − already
// requested (also when two requests race), finance issues it (PDF into R2, or an electronic number) or refuses it with
// a reason, audited; the owner downloads the PDF, nobody else can; a refund after invoicing is flagged for 红冲.
import { SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import { userIdOf } from '../helpers/accounts';
import { BASE, callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { invoiceRequestTotals } from '../helpers/money';
import { auditCount, operatorLogin } from '../helpers/operators';
import { approveCompany as approveCertifiedCompany, renameCertifiedCompany } from '../helpers/trust';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity
const PAID_FEN = 4038;
const CREDIT = '91350100M000100Y43'; // a valid unified social credit code
const COMPANY = '上海示例科技有限公司';
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeEach(resetWithCatalogue);

let phoneSeq = 0;

/** A customer with one paid order. */
async function customerWithPaidOrder() {
  phoneSeq += 1;
  const phone = `1390000${String(4000 + phoneSeq)}`;
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  expect(await (await payInSimulator(order.codeUrl ?? '')).text()).toContain('商户应答 HTTP 204');
  return { phone, cookie, orderNo: order.orderNo, id: await userIdOf(phone) };
}

const personalTitle = async (cookie: string) => {
  const r = await callApi('Invoice.TitleSave', { kind: 'personal', name: '张三' }, { cookie });
  if (!r.body.P) throw new Error(r.body.E);
  return r.body.P.id;
};

const companyTitle = (cookie: string, extra: Record<string, string> = {}) =>
  callApi(
    'Invoice.TitleSave',
    {
      kind: 'company',
      name: COMPANY,
      taxNo: CREDIT,
      address: '上海市浦东新区示例路1号',
      phone: '021-55550000',
      bank: '示例银行上海分行',
      account: '6222000011112222',
      ...extra,
    },
    { cookie },
  );

const overview = async (cookie: string) => {
  const r = await callApi('Invoice.Overview', {}, { cookie });
  if (!r.body.P) throw new Error(r.body.E);
  return r.body.P;
};

/** Mark the customer's 企业认证 as passed for a company name (as the support review would). */
const approveCompany = (uid: number, name = COMPANY) => approveCertifiedCompany(uid, name);

const uploadPdf = (id: number, cookie: string, body: Uint8Array<ArrayBuffer>) =>
  SELF.fetch(`${BASE}/api/upload/invoice/${id}`, {
    method: 'POST',
    body,
    headers: { cookie, 'content-type': 'application/octet-stream' },
  });

const download = (id: number, cookie: string) => SELF.fetch(`${BASE}/api/invoice/${id}/pdf`, { headers: { cookie } });

describe('invoice titles', { timeout: 30_000 }, () => {
  it('keeps a personal title and a company title with a checked 税号, and refuses a company without a valid one', async () => {
    const { cookie } = await customerWithPaidOrder();
    await personalTitle(cookie);
    const noTax = await callApi('Invoice.TitleSave', { kind: 'company', name: COMPANY }, { cookie });
    expect(noTax.body.E).toBe(messages.invoiceTaxNoRequired);
    const badSum = await companyTitle(cookie, { taxNo: '91350100M000100Y44' });
    expect(badSum.body.E).toBe(messages.creditCodeInvalid);
    const ok = await companyTitle(cookie, { taxNo: CREDIT.toLowerCase() });
    expect(ok.body.E).toBeUndefined();
    const titles = (await overview(cookie)).titles;
    expect(titles.map((t) => [t.kind, t.name, t.taxNo])).toEqual([
      ['company', COMPANY, CREDIT],
      ['personal', '张三', ''],
    ]);
  });

  it('refuses a 专票 until the company passed 企业认证, then only under the certified name', async () => {
    const c = await customerWithPaidOrder();
    const titleId = (await companyTitle(c.cookie)).body.P?.id ?? 0;
    const personal = await personalTitle(c.cookie);
    const ask = (id: number) =>
      callApi(
        'Invoice.Apply',
        { titleId: id, type: 'special', email: 'fin@example.com', amountFen: 1000 },
        {
          cookie: c.cookie,
        },
      );
    expect((await ask(titleId)).body.E).toBe(messages.invoiceSpecialNeedsCompany);
    expect((await ask(personal)).body.E).toBe(messages.invoiceSpecialPersonalTitle);
    await approveCompany(c.id, '另一家示例有限公司');
    expect((await ask(titleId)).body.E).toBe(messages.invoiceSpecialNameMismatch);
    await renameCertifiedCompany(c.id, COMPANY);
    const ok = await ask(titleId);
    expect(ok.body.E).toBeUndefined();
    expect(ok.body.P).toMatchObject({ amountFen: 1000 });
    const o = await overview(c.cookie);
    expect(o.certifiedCompanyName).toBe(COMPANY);
    expect(o.requests[0]).toMatchObject({ type: 'special', state: 'pending', title: { name: COMPANY, taxNo: CREDIT } });
  });
});

describe('invoice requests', { timeout: 30_000 }, () => {
  it('never asks for more than paid − refunded − already requested, and picked orders are taken once', async () => {
    const c = await customerWithPaidOrder();
    const titleId = await personalTitle(c.cookie);
    let o = await overview(c.cookie);
    expect(o.summary).toEqual({ netPaidFen: PAID_FEN, heldFen: 0, invoiceableFen: PAID_FEN });
    expect(o.orders.map((x) => x.orderNo)).toEqual([c.orderNo]);
    const base = { titleId, type: 'normal' as const, email: 'me@example.com' };
    const tooMuch = await callApi('Invoice.Apply', { ...base, amountFen: PAID_FEN + 1 }, { cookie: c.cookie });
    expect(tooMuch.body.E).toBe(messages.invoiceAmountTooLarge);
    const byOrder = await callApi('Invoice.Apply', { ...base, orderNos: [c.orderNo] }, { cookie: c.cookie });
    expect(byOrder.body.P).toMatchObject({ amountFen: PAID_FEN });
    o = await overview(c.cookie);
    expect(o.summary.invoiceableFen).toBe(0);
    expect(o.orders).toEqual([]);
    const again = await callApi('Invoice.Apply', { ...base, orderNos: [c.orderNo] }, { cookie: c.cookie });
    expect(again.body.E).toBe(messages.invoiceOrdersUnavailable);
    const amount = await callApi('Invoice.Apply', { ...base, amountFen: 1 }, { cookie: c.cookie });
    expect(amount.body.E).toBe(messages.invoiceAmountTooLarge);
    // Someone else's order is never pickable.
    const other = await customerWithPaidOrder();
    const otherTitle = await personalTitle(other.cookie);
    const theft = await callApi(
      'Invoice.Apply',
      { titleId: otherTitle, type: 'normal', email: 'x@example.com', orderNos: [c.orderNo] },
      { cookie: other.cookie },
    );
    expect(theft.body.E).toBe(messages.invoiceOrdersUnavailable);
    expect((await invoiceRequestTotals(other.id)).count).toBe(0);
  });

  it('two concurrent requests that together exceed the invoiceable amount: exactly one succeeds', async () => {
    const c = await customerWithPaidOrder();
    const titleId = await personalTitle(c.cookie);
    const ask = () =>
      callApi(
        'Invoice.Apply',
        { titleId, type: 'normal', email: 'me@example.com', amountFen: 3000 },
        { cookie: c.cookie },
      );
    const results = await Promise.all([ask(), ask(), ask()]);
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === messages.invoiceAmountTooLarge).length).toBe(2);
    expect((await invoiceRequestTotals(c.id)).fen).toBe(3000);
    expect((await overview(c.cookie)).summary.invoiceableFen).toBe(PAID_FEN - 3000);
  });

  it('does not count an order refunded before the request', async () => {
    const c = await customerWithPaidOrder();
    const finance = await operatorLogin('finance');
    const refund = await callApi(
      'Order.RefundByOrderNo',
      { orderNo: c.orderNo, reason: '客户申请退款', amountFen: 1000 },
      { cookie: finance.cookie },
    );
    expect(refund.body.E).toBeUndefined();
    const o = await overview(c.cookie);
    expect(o.summary.invoiceableFen).toBe(PAID_FEN - 1000);
    expect(o.orders).toEqual([]); // a refunded order is no longer pickable as a whole
  });
});

describe('finance review and the PDF', { timeout: 40_000 }, () => {
  it('finance uploads the PDF, the owner downloads it, nobody else can; audited', async () => {
    const c = await customerWithPaidOrder();
    const titleId = await personalTitle(c.cookie);
    const made = await callApi(
      'Invoice.Apply',
      { titleId, type: 'normal', email: 'me@example.com', orderNos: [c.orderNo] },
      { cookie: c.cookie },
    );
    const id = made.body.P?.id ?? 0;
    const finance = await operatorLogin('finance');
    const support = await operatorLogin('support');
    const list = await callApi('Admin.InvoiceList', { state: 'pending' }, { cookie: finance.cookie });
    expect(list.body.P?.list.map((r) => [r.id, r.phone, r.amountFen])).toEqual([[id, c.phone, PAID_FEN]]);
    expect((await callApi('Admin.InvoiceList', {}, { cookie: support.cookie })).body.E).toBeDefined();
    expect((await uploadPdf(id, support.cookie, PDF)).status).toBe(403);
    const notPdf = await uploadPdf(id, finance.cookie, new TextEncoder().encode('<html>not a pdf</html>'));
    expect(notPdf.status).toBe(415);
    expect(((await notPdf.json()) as { E: string }).E).toBe(messages.invoicePdfNotPdf);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PDF);
    expect((await uploadPdf(id, finance.cookie, big)).status).toBe(413);
    // Nothing was issued or stored by the refused uploads.
    expect((await overview(c.cookie)).requests[0]?.state).toBe('pending');
    const up = await uploadPdf(id, finance.cookie, PDF);
    expect(up.status).toBe(200);
    const mine = (await overview(c.cookie)).requests[0];
    expect(mine).toMatchObject({ id, state: 'issued', hasPdf: true, pdfUrl: `/api/invoice/${id}/pdf` });
    const got = await download(id, c.cookie);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);
    // Another customer, an unknown id and no login learn nothing.
    const other = await customerWithPaidOrder();
    const theirs = await download(id, other.cookie);
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { E: string }).E).toBe(messages.invoiceNotFound);
    const unknown = await download(id + 999, c.cookie);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { E: string }).E).toBe(messages.invoiceNotFound);
    expect((await download(id, '')).status).toBe(401);
    expect((await download(id, finance.cookie)).status).toBe(200);
    // A second upload of an issued request changes nothing.
    const twice = await uploadPdf(id, finance.cookie, PDF);
    expect(((await twice.json()) as { E: string }).E).toBe(messages.invoiceNotPending);
    expect(await auditCount({ action: 'Admin.InvoiceIssue', target: `invoice:${id}`, operatorId: finance.id })).toBe(1);
  });

  it('issues by electronic number or refuses with a reason the customer reads; refused amounts come back', async () => {
    const c = await customerWithPaidOrder();
    const titleId = await personalTitle(c.cookie);
    const ask = (amountFen: number) =>
      callApi('Invoice.Apply', { titleId, type: 'normal', email: 'me@example.com', amountFen }, { cookie: c.cookie });
    const a = (await ask(1000)).body.P?.id ?? 0;
    const b = (await ask(2000)).body.P?.id ?? 0;
    const finance = await operatorLogin('finance');
    const badNo = await callApi('Admin.InvoiceIssue', { id: a, invoiceNo: 'abc' }, { cookie: finance.cookie });
    expect(badNo.body.E).toBe(messages.invoiceNumberInvalid);
    const issued = await callApi(
      'Admin.InvoiceIssue',
      { id: a, invoiceNo: '26312000000012345678' },
      { cookie: finance.cookie },
    );
    expect(issued.body.E).toBeUndefined();
    const refused = await callApi(
      'Admin.InvoiceRefuse',
      { id: b, reason: '抬头名称与付款方不一致' },
      {
        cookie: finance.cookie,
      },
    );
    expect(refused.body.E).toBeUndefined();
    const again = await callApi('Admin.InvoiceRefuse', { id: a, reason: '重复' }, { cookie: finance.cookie });
    expect(again.body.E).toBe(messages.invoiceNotPending);
    const o = await overview(c.cookie);
    expect(o.requests.map((r) => [r.id, r.state, r.invoiceNo, r.refuseReason, r.pdfUrl])).toEqual([
      [b, 'refused', '', '抬头名称与付款方不一致', null],
      [a, 'issued', '26312000000012345678', '', null],
    ]);
    expect(o.summary.invoiceableFen).toBe(PAID_FEN - 1000);
    expect((await download(a, c.cookie)).status).toBe(404);
    expect(
      await auditCount({ action: 'Admin.InvoiceRefuse', target: `invoice:${b}`, reason: '抬头名称与付款方不一致' }),
    ).toBe(1);
  });

  it('flags an invoiced order refunded afterwards to finance (红冲)', async () => {
    const c = await customerWithPaidOrder();
    const titleId = await personalTitle(c.cookie);
    const id =
      (
        await callApi(
          'Invoice.Apply',
          { titleId, type: 'normal', email: 'me@example.com', orderNos: [c.orderNo] },
          { cookie: c.cookie },
        )
      ).body.P?.id ?? 0;
    const finance = await operatorLogin('finance');
    await callApi('Admin.InvoiceIssue', { id, invoiceNo: '26312000000012345678' }, { cookie: finance.cookie });
    const flagged = async () =>
      (await callApi('Admin.InvoiceList', { state: 'all', flagged: true }, { cookie: finance.cookie })).body.P?.list ??
      [];
    expect(await flagged()).toEqual([]);
    const refund = await callApi(
      'Order.RefundByOrderNo',
      { orderNo: c.orderNo, reason: '客户申请退款' },
      { cookie: finance.cookie },
    );
    expect(refund.body.E).toBeUndefined();
    const rows = await flagged();
    expect(rows.map((r) => [r.id, r.refundedOrdersFen, r.customerOverFen])).toEqual([[id, PAID_FEN, PAID_FEN]]);
    const detail = await callApi('Admin.InvoiceDetail', { id }, { cookie: finance.cookie });
    expect(detail.body.P).toMatchObject({ refundedOrdersFen: PAID_FEN, customerOverFen: PAID_FEN });
  });
});
