// Issue 25's journey, as a new customer lives it: register, pass real-name, top up ¥100 with Alipay (the stand-in),
// buy a package from the balance, turn on auto-renew, see the renewal paid from the balance when the hourly job runs
// inside the renewal window (the job's clock moved through the scheduled-event trigger), ask for an invoice, finance
// attaches the PDF in the console, and the customer downloads it.
import { expect, type Page, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import {
  callAction,
  freshIdNumber,
  freshPhone,
  hydrated,
  networkOfItsOwn,
  registerBySms,
  requestInvoice,
} from './helpers';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const DAILY_ONE_DAY = 102_000; // 短效 包天 1000个/天 · 1天: inside the renewal window as soon as it is bought
const HOUR = 3_600_000;

/** Run the hourly jobs (auto-renew among them) as if the hour came at `at` (wrangler's scheduled-event trigger). */
async function hourlyJobsAt(page: Page, at: number): Promise<void> {
  const res = await page.request.get(`/cdn-cgi/local/scheduled?cron=${encodeURIComponent('7 * * * *')}&time=${at}`);
  expect(res.ok()).toBe(true);
}

interface Pkg {
  id: number;
  expiresAt: number;
}

test('top up with Alipay, buy from the balance, auto-renew from it, then an invoice finance attaches @server-state', async ({
  page,
  browser,
  baseURL,
  isMobile,
}, testInfo) => {
  test.setTimeout(300_000);
  const width = testInfo.project.name;
  await page.context().setExtraHTTPHeaders(networkOfItsOwn());
  await registerBySms(page, freshPhone());
  const prompt = page.getByRole('dialog', { name: '请完成实名认证' });
  await prompt.getByRole('button', { name: '去认证' }).click();
  await hydrated(page);
  await page.getByLabel('真实姓名').fill('孙测试');
  await page.getByLabel('身份证号').fill(freshIdNumber());
  await page.getByTestId('certify-submit').click();
  await page.getByTestId('sim-pass').click();
  await expect(page.getByTestId('certify-passed')).toContainText('个人已认证');

  // Top up ¥100 with Alipay.
  await page.goto('/personalCenter/balance');
  await hydrated(page);
  await expect(page.getByTestId('balance-amount')).toContainText('¥0.00');
  await page.getByTestId('top-up-form').getByRole('button', { name: '¥100', exact: true }).click();
  await page.getByTestId('top-up-submit').click();
  await expect(page).toHaveURL(/\/payPage\?orderNo=D/);
  await hydrated(page);
  await page.getByRole('tab', { name: '支付宝' }).click();
  await expect(page.getByTestId('pay-amount')).toHaveText('¥100.00');
  if (isMobile) {
    await page.getByTestId('open-alipay').click();
    await expect(page).toHaveURL(/\/dev\/alipay\/pay\?out_trade_no=/);
    await page.getByTestId('alipay-sim-pay').click();
    await page.getByTestId('alipay-sim-return').click();
  } else {
    const popup = page.waitForEvent('popup');
    await page.getByTestId('open-simulator').click();
    const sim = await popup;
    await sim.getByTestId('alipay-sim-pay').click();
    await expect(sim.getByText('商户应答：success')).toBeVisible();
    await sim.close();
  }
  await expect(page.getByTestId('pay-page-state')).toHaveText('已支付', { timeout: 15_000 });
  await page.goto('/personalCenter/balance');
  await expect(page.getByTestId('balance-amount')).toContainText('¥100.00');

  // Buy a one-day package from the balance: the amount charged is the amount quoted.
  const quote = await callAction<{ payFen: number }>(page, 'PayOrder.Quote', {
    request: { kind: 'buy', mealId: DAILY_ONE_DAY, units: 1 },
  });
  const order = await callAction<{ orderNo: string }>(page, 'PayOrder.BuyProxy', { mealId: DAILY_ONE_DAY, units: 1 });
  await page.goto(`/payPage?orderNo=${order.orderNo}`);
  await hydrated(page);
  await page.getByRole('tab', { name: '余额支付' }).click();
  const charge = `¥${(quote.payFen / 100).toFixed(2)}`;
  await expect(page.getByTestId('balance-charge')).toHaveText(charge);
  await page.getByTestId('balance-pay-submit').click();
  await expect(page.getByTestId('pay-success')).toBeVisible({ timeout: 15_000 });
  const afterBuy = 10_000 - quote.payFen;

  // Auto-renew on for the package.
  const list = await callAction<{ list: Pkg[] }>(page, 'Proxy.GetProxys', { type: 10, page: 1, pageSize: 10 });
  const pkg = list.list[0] as Pkg;
  await page.goto('/personalCenter/packageManager/10');
  await hydrated(page);
  const toggle = page.getByTestId(`auto-renew-${pkg.id}`);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await page.screenshot({ path: `.tmp/shots/balance-journey-auto-renew-${width}.png`, fullPage: true });

  // The hour 30 hours before expiry is outside the renewal window: nothing is charged.
  await hourlyJobsAt(page, pkg.expiresAt - 30 * HOUR);
  await page.goto('/personalCenter/balance');
  await expect(page.getByTestId('balance-amount')).toContainText(`¥${(afterBuy / 100).toFixed(2)}`);
  // Within the last day the hour renews it from the balance, once.
  await hourlyJobsAt(page, pkg.expiresAt - 12 * HOUR);
  await hourlyJobsAt(page, pkg.expiresAt - 11 * HOUR);
  const renewed = await callAction<{ list: Pkg[] }>(page, 'Proxy.GetProxys', { type: 10, page: 1, pageSize: 10 });
  expect(renewed.list.find((p) => p.id === pkg.id)?.expiresAt ?? 0).toBeGreaterThanOrEqual(pkg.expiresAt + 23 * HOUR);
  await page.reload();
  await expect(page.getByTestId('balance-amount')).toContainText(`¥${((afterBuy - quote.payFen) / 100).toFixed(2)}`);
  await expect(page.getByTestId('ledger-row').filter({ hasText: '自动续费' })).toHaveCount(1);
  await page.screenshot({ path: `.tmp/shots/balance-journey-ledger-${width}.png`, fullPage: true });

  // An invoice for what was bought (the top-up itself is not invoiced: decision 229).
  const latest = await requestInvoice(page, {
    company: '杭州示例网络有限公司',
    orderNo: order.orderNo,
    picked: '已选 1 笔',
  });
  await expect(latest.getByTestId('invoice-state')).toHaveText('待开具');
  const requestId = (await callAction<{ requests: { id: number }[] }>(page, 'Invoice.Overview')).requests[0]?.id ?? 0;

  const financeName = `bal_${width}${Date.now() % 100_000}`;
  createOperator(financeName, '周财务', 'finance');
  const finance = await (await browser.newContext(baseURL ? { baseURL } : {})).newPage();
  await finance.setViewportSize(page.viewportSize() ?? { width: 1440, height: 900 });
  await consoleLogin(finance, financeName);
  await finance.goto(`/admin/invoices/${requestId}`);
  await hydrated(finance);
  await finance
    .getByTestId('invoice-pdf-input')
    .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(finance.getByTestId('invoice-state')).toHaveText('已开具');

  await page.reload();
  await hydrated(page);
  await expect(latest.getByTestId('invoice-state')).toHaveText('已开具');
  const [download] = await Promise.all([page.waitForEvent('download'), latest.getByTestId('invoice-download').click()]);
  const { readFileSync } = await import('node:fs');
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
});
