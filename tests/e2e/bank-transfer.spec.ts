// Company bank transfer in the browser (对公转账, docs/decisions/227): a new customer buys a package and chooses
// 对公转账 at the cashier, gets the remittance reference, the company account and the exact amount on the order page;
// finance finds the reference on the console's 对公转账 screen, previews the received amount (a wrong one is refused
// with its reason), confirms; the customer's order is paid and the package is active.
import { expect, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import { freshIdNumber, freshPhone, hydrated, networkOfItsOwn, registerBySms } from './helpers';

test('a company buys a package by bank transfer: the cashier gives a reference and the account, finance confirms the amount in the console, the package is active @server-state', async ({
  page,
  browser,
  baseURL,
  isMobile,
}, testInfo) => {
  test.setTimeout(180_000);
  const width = testInfo.project.name;
  await page.context().setExtraHTTPHeaders(networkOfItsOwn());

  await test.step('a new customer registers and passes real-name verification', async () => {
    await registerBySms(page, freshPhone());
    await page.getByRole('dialog', { name: '请完成实名认证' }).getByRole('button', { name: '去认证' }).click();
    await expect(page).toHaveURL(/\/personalCenter\/realNameAuth\/auth\?tab=personal$/);
    await hydrated(page);
    await page.getByLabel('真实姓名').fill('张转账');
    await page.getByLabel('身份证号').fill(freshIdNumber());
    await page.getByTestId('certify-submit').click();
    await expect(page).toHaveURL(/\/dev\/faceverify\//);
    await page.getByTestId('sim-pass').click();
    await expect(page.getByTestId('certify-passed')).toContainText('个人已认证');
  });

  let payText = '';
  let orderNo = '';
  let reference = '';
  await test.step('buying 50,000 IPs, the customer chooses 对公转账 and gets the reference and the account', async () => {
    await page.goto('/buy?type=10');
    await hydrated(page);
    await page.getByRole('button', { name: '3分钟', exact: true }).click();
    await page.getByRole('button', { name: '50,000个', exact: true }).click();
    // 短效 按量 50,000个 · 3分钟 after the 15% activity.
    payText = '¥40.38';
    await expect(page.getByTestId('quote-pay')).toHaveText(payText);
    await page.getByTestId(isMobile ? 'order-bar-buy' : 'buy-now').click();
    const dialog = page.getByRole('dialog', { name: '支付订单' });
    await expect(dialog.getByTestId('pay-amount')).toHaveText(payText);
    await dialog.getByTestId('choose-transfer').click();
    await expect(page).toHaveURL(/\/payPage\?orderNo=D\d{14}[0-9A-Z]{16}$/);
    orderNo = new URL(page.url()).searchParams.get('orderNo') ?? '';
    await hydrated(page);
    const details = page.getByTestId('transfer-details');
    await expect(details.getByTestId('transfer-state')).toHaveText('等待对公转账');
    await expect(page.getByTestId('pay-page-state')).toHaveText('等待对公转账');
    reference = ((await details.getByTestId('transfer-reference').textContent()) ?? '').replace(/\s/g, '');
    expect(reference).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    await expect(details.getByTestId('transfer-amount')).toHaveText(payText);
    await expect(details).toContainText('示例网络科技有限公司');
    await expect(details).toContainText('招商银行股份有限公司上海分行营业部');
    await expect(details.getByTestId('transfer-reserved')).toContainText('北京时间');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()?.width ?? 1440,
    );
    await page.screenshot({ path: `.tmp/shots/transfer-customer-${width}.png`, fullPage: true });
  });

  await test.step('finance finds the reference, a wrong amount is refused, the right one confirmed', async () => {
    const financeName = `bt_${width}${Date.now() % 100_000}`;
    createOperator(financeName, '李财务', 'finance');
    const finance = await (await browser.newContext(baseURL ? { baseURL } : {})).newPage();
    await finance.setViewportSize(page.viewportSize() ?? { width: 1440, height: 900 });
    await consoleLogin(finance, financeName);
    await finance.goto('/admin/transfers');
    await hydrated(finance);
    await finance.getByLabel('汇款识别码').first().fill(reference.toLowerCase());
    await finance.getByRole('button', { name: '查找' }).click();
    await expect(finance.getByTestId('transfer-table')).toContainText(payText);
    await finance.getByRole('link', { name: '确认到账' }).first().click();
    await hydrated(finance);
    const form = finance.getByTestId('transfer-preview-form');
    await expect(form.getByLabel('汇款识别码')).toHaveValue(reference);
    await form.getByLabel('到账金额（元）').fill('1.00');
    await form.getByLabel('付款户名').fill('上海某某数据有限公司');
    await form.getByLabel('银行流水号').fill(`CMB${Date.now()}`);
    await form.getByRole('button', { name: '预览' }).click();
    const preview = finance.getByTestId('transfer-preview');
    await expect(preview).toContainText('到账金额与订单应付金额不一致');
    await expect(preview.getByTestId('transfer-confirm-button')).toHaveCount(0);
    // The refusal is said as one (an error toast with the reason), never as a success.
    await expect(finance.getByTestId('toast').filter({ hasText: '到账金额与订单应付金额不一致' })).toBeVisible();
    await expect(finance.getByTestId('toast').filter({ hasText: '请核对预览后确认' })).toHaveCount(0);

    await form.getByLabel('到账金额（元）').fill(payText.replace('¥', ''));
    await form.getByRole('button', { name: '预览' }).click();
    await expect(preview).toContainText('该订单将被标记为已支付');
    await finance.screenshot({ path: `.tmp/shots/transfer-console-${width}.png`, fullPage: true });
    expect(await finance.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      finance.viewportSize()?.width ?? 1440,
    );
    await preview.getByTestId('transfer-confirm-button').click();
    await expect(finance.getByTestId('toast').filter({ hasText: '已确认到账，订单已支付' })).toBeVisible();
    await finance.goto('/admin/transfers');
    await expect(finance.getByTestId('transfer-table')).not.toContainText(reference.slice(0, 4));
    // The audit log names the reference as an identifier (as written, never a word of the page: KHWVWDWK is no English).
    await finance.goto('/admin/audit');
    await expect(
      finance.getByTestId('audit-changes').locator('[translate="no"]').filter({ hasText: reference }).first(),
    ).toBeVisible();
  });

  await test.step('the customer sees the order paid and the package active', async () => {
    await page.goto(`/payPage?orderNo=${orderNo}`);
    await expect(page.getByTestId('pay-page-state')).toHaveText('已支付');
    await expect(page.getByTestId('pay-success')).toContainText('支付成功');
    await expect(page.getByTestId('transaction-id')).toBeVisible();
    await page.goto('/personalCenter/packageManager/10');
    const pkg = page.getByTestId('package-table').getByRole('row').filter({ hasText: '50000个' });
    await expect(pkg).toHaveCount(1);
    await expect(pkg).toContainText('使用中');
  });
});
