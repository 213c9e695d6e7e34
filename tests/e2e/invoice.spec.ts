// Invoices in the browser (docs/decisions/229-230): the customer saves a company title, asks for a 普票 for the order
// they just paid, finance uploads the issued PDF in the console, and the customer downloads it from 发票管理.
import { expect, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import { hydrated, logIn, requestInvoice } from './helpers';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('a customer requests an invoice, finance attaches the PDF, the customer downloads it @server-state', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const width = testInfo.project.name;
  await logIn(page, '13800138000');
  const order = await page.evaluate(async () => {
    const res = await fetch('/api', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'source-type': '1' },
      body: JSON.stringify({ A: 'PayOrder.BuyProxy', P: { mealId: 101010, units: 1 } }),
    });
    return ((await res.json()) as { P: { orderNo: string; codeUrl: string } }).P;
  });
  const outTradeNo = new URL(order.codeUrl, 'http://x').searchParams.get('out_trade_no') ?? '';
  const paid = await page.request.post('/dev/wechatpay/pay', { form: { out_trade_no: outTradeNo } });
  expect(await paid.text()).toContain('商户应答 HTTP 204');

  // A company title, then a request for the paid order.
  const latest = await requestInvoice(page, {
    company: '上海示例科技有限公司',
    orderNo: order.orderNo,
    picked: '已选 1 笔，合计 ¥40.38',
  });
  await expect(latest).toContainText('增值税普通发票 · ¥40.38');
  await expect(latest.getByTestId('invoice-state')).toHaveText('待开具');
  const requestId = await page.evaluate(async () => {
    const res = await fetch('/api', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'source-type': '1' },
      body: JSON.stringify({ A: 'Invoice.Overview', P: {} }),
    });
    return ((await res.json()) as { P: { requests: { id: number }[] } }).P.requests[0]?.id ?? 0;
  });

  // Finance uploads the issued invoice's PDF.
  const financeName = `inv_${width}${Date.now() % 100_000}`;
  createOperator(financeName, '李财务', 'finance');
  const finance = await (await browser.newContext(baseURL ? { baseURL } : {})).newPage();
  await finance.setViewportSize(page.viewportSize() ?? { width: 1440, height: 900 });
  await consoleLogin(finance, financeName);
  await finance.goto('/admin/invoices');
  await expect(finance.getByTestId('invoice-table')).toContainText(`#${requestId}`);
  await finance.goto(`/admin/invoices/${requestId}`);
  await hydrated(finance);
  await expect(finance.getByTestId('invoice-state')).toHaveText('待开具');
  await finance
    .getByTestId('invoice-pdf-input')
    .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(finance.getByTestId('invoice-state')).toHaveText('已开具');
  await finance.screenshot({ path: `.tmp/shots/invoice-console-issued-${width}.png`, fullPage: true });

  // The customer sees it issued and downloads the PDF.
  await page.reload();
  await hydrated(page);
  await expect(latest.getByTestId('invoice-state')).toHaveText('已开具');
  const [download] = await Promise.all([page.waitForEvent('download'), latest.getByTestId('invoice-download').click()]);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );
  await page.screenshot({ path: `.tmp/shots/invoice-customer-issued-${width}.png`, fullPage: true });
});
