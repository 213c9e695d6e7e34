// Partial refunds in the browser (docs/decisions/205, 206): finance opens 退款 on a paid order, sees what is refundable
// beside the package's usage and the pro-rata suggestion, types a partial amount in 元 and confirms; the order stays
// paid with 已退 shown; the customer's order detail lists the refund with its amount, 北京时间, route and reason.
import { expect, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import { hydrated, logIn } from './helpers';

test('finance refunds part of an order in 元 beside its usage; the customer sees the refund on the order @server-state', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const width = testInfo.project.name;
  // The demo customer buys a package and pays it in the WeChat Pay simulator.
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

  const financeName = `pr_${width}${Date.now() % 100_000}`;
  createOperator(financeName, '王财务', 'finance');
  const finance = await (await browser.newContext(baseURL ? { baseURL } : {})).newPage();
  await finance.setViewportSize(page.viewportSize() ?? { width: 1440, height: 900 });
  await consoleLogin(finance, financeName);
  await finance.goto(`/admin/orders/${order.orderNo}`);
  await hydrated(finance);
  await finance.getByRole('button', { name: '退款' }).click();
  const dialog = finance.getByTestId('refund-preview');
  await expect(dialog.getByTestId('refund-usage')).toContainText('可退 ¥40.38');
  await expect(dialog.getByTestId('refund-usage')).toContainText('IP 已用 0 / 剩余 50,000');
  await expect(dialog.getByTestId('refund-summary')).toContainText('全额退款 ¥40.38');
  // More than is refundable is stopped before anything is sent.
  await dialog.getByTestId('refund-amount').fill('50');
  await expect(dialog).toContainText('超过可退金额 ¥40.38');
  await dialog.getByTestId('refund-amount').fill('10');
  await expect(dialog.getByTestId('refund-summary')).toContainText('部分退款 ¥10.00');
  await expect(dialog).toContainText('套餐继续可用');
  await dialog.getByLabel(/退款原因/).fill('服务中断补偿');
  await finance.screenshot({ path: `.tmp/shots/partial-refund-dialog-${width}.png`, fullPage: true });
  await finance.getByRole('button', { name: '确认退款 ¥10.00' }).click();
  await expect(finance.getByTestId('order-refunded')).toContainText('¥10.00（可退 ¥30.38）');
  await expect(finance.getByTestId('order-state')).toHaveText('已支付');

  // The customer's order detail: the refund, its time in 北京时间, the route and the reason.
  await page.goto(`/payPage?orderNo=${order.orderNo}`);
  const refund = page.getByTestId('order-refund');
  await expect(refund).toContainText('¥10.00');
  await expect(refund).toContainText('北京时间');
  await expect(refund).toContainText('原路退回微信支付');
  await expect(refund).toContainText('服务中断补偿');
  await expect(refund).toContainText('套餐可继续使用');
  await expect(page.getByTestId('pay-page-state')).toHaveText('已支付（已部分退款）');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );
  await page.screenshot({ path: `.tmp/shots/partial-refund-customer-${width}.png`, fullPage: true });
  await page.goto('/personalCenter/orderManager');
  await expect(page.getByTestId('bill-refunded').first()).toContainText('已退 ¥10.00');
  await page.screenshot({ path: `.tmp/shots/partial-refund-bills-${width}.png`, fullPage: true });
});
