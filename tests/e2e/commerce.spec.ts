// Commerce journeys: a new user passes the real-name gate (face simulator), buys a type-10 package with a coupon and
// pays through the WeChat Pay simulator, sees the order, the package and the renewal in the bill; an unpaid order
// shows in the 待支付 count until it is paid from the cashier page, whose polling turns it to 已支付.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { freshIdNumber, freshPhone, hydrated, logIn, registerBySms } from './helpers';

/** Pay the order shown in `box` through the simulator page its 开发环境 link opens (a real signed callback). */
async function payInSimulator(page: Page, box: Locator): Promise<void> {
  const popup = page.waitForEvent('popup');
  await box.getByTestId('open-simulator').click();
  const sim = await popup;
  await expect(sim.getByTestId('sim-state')).toHaveText('待支付');
  await sim.getByTestId('sim-pay').click();
  await expect(sim.getByTestId('sim-result')).toHaveText('支付成功');
  await expect(sim.getByText('商户应答 HTTP 204')).toBeVisible();
  await sim.close();
}

/** The order number a payment box shows ("订单号 D…"). */
async function orderNoIn(box: Locator): Promise<string> {
  const text = (await box.textContent()) ?? '';
  const no = /订单号\s*(D\d{14}[0-9A-Z]{16})/.exec(text)?.[1];
  expect(no, 'the payment box shows the order number').toBeDefined();
  return no as string;
}

/** The 待支付 badge on the order page (absent when nothing is unpaid). */
async function unpaidCount(page: Page): Promise<number> {
  await page.goto('/personalCenter/orderManager');
  const badge = page.getByTestId('pay-no-count');
  return (await badge.count()) ? Number(await badge.textContent()) : 0;
}

test('a new user registers, passes the real-name gate, buys a type-10 package with a coupon, pays through the simulator, sees the order paid and the package in the package list, renews it, and sees the bill', async ({
  page,
  isMobile,
}) => {
  test.setTimeout(120_000);
  await registerBySms(page, freshPhone());
  await expect(page.getByTestId('pc-identity')).toHaveText('未认证');

  // The gate: the prompt leads to real-name authentication; the face check passes in the development simulator.
  const prompt = page.getByRole('dialog', { name: '请完成实名认证' });
  await expect(prompt.getByTestId('real-name-prompt')).toBeVisible();
  // 去认证 opens the verification form itself, not the status page one click before it.
  await prompt.getByRole('button', { name: '去认证' }).click();
  await expect(page).toHaveURL(/\/personalCenter\/realNameAuth\/auth\?tab=personal$/);
  await hydrated(page);
  await page.getByLabel('真实姓名').fill('张测试');
  await page.getByLabel('身份证号').fill(freshIdNumber());
  await page.getByTestId('certify-submit').click();
  await expect(page).toHaveURL(/\/dev\/faceverify\//);
  await page.getByTestId('sim-pass').click();
  await expect(page.getByTestId('certify-passed')).toContainText('个人已认证');

  // Buy: 50,000 IPs (over the new-user coupon's threshold); the received coupon is chosen as the best one.
  await page.goto('/buy?type=10');
  await hydrated(page);
  await expect(page.getByTestId('real-name-notice')).toHaveCount(0);
  await page.getByRole('button', { name: '50,000个' }).click();
  const coupon = page.getByRole('listitem').filter({ hasText: '新人专享券' });
  await coupon.getByRole('button', { name: '领取' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: '领取成功' })).toBeVisible();
  await expect(page.getByTestId('coupon-select').locator('option:checked')).toHaveText(/新人专享券 -¥5\.00/);
  const summary = page.getByRole('complementary', { name: '订单明细' });
  await expect(summary.getByTestId('amount-coupon')).toContainText('优惠券（新人专享券）');
  await expect(summary.getByText('-¥5.00', { exact: true })).toBeVisible();
  const payText = (await page.getByTestId('quote-pay').textContent()) ?? '';
  expect(payText).toMatch(/^¥\d+\.\d{2}$/);
  await page.getByTestId('buy-now').click();

  const dialog = page.getByRole('dialog', { name: '支付订单' });
  await expect(dialog.getByTestId('pay-amount')).toHaveText(payText);
  // A desktop shows WeChat's QR code; a phone opens WeChat's own (H5) payment instead of a code to scan with itself.
  if (isMobile) await expect(dialog.getByTestId('open-wechat')).toHaveText('打开微信支付付款');
  else await expect(dialog.getByRole('img', { name: '微信支付二维码' })).toBeVisible();
  const orderNo = await orderNoIn(dialog);
  await payInSimulator(page, dialog);
  // The dialog polls the order state and turns to the paid view.
  await expect(dialog.getByTestId('pay-success')).toContainText('支付成功', { timeout: 15_000 });

  await dialog.getByRole('link', { name: '查看订单' }).click();
  await expect(page).toHaveURL(/\/personalCenter\/orderManager$/);
  const bought = page.getByTestId('bill-row').filter({ hasText: orderNo });
  await expect(bought).toContainText('已支付');
  await expect(bought).toContainText('新购');
  await expect(bought).toContainText(payText);
  await expect(page.getByTestId('pay-no-count')).toHaveCount(0);

  // The package is in the package list with its full count.
  await page.goto('/personalCenter/packageManager/10');
  const pkg = page.getByTestId('package-table').getByRole('row').filter({ hasText: '50000个' });
  await expect(pkg).toHaveCount(1);
  await expect(pkg).toContainText('剩余 50,000 / 共 50,000个');
  await expect(pkg).toContainText('使用中');

  // The row offers 升级 with only real upgrades, priced after the package's credit, and no error on opening.
  await pkg.getByRole('link', { name: '升级' }).click();
  const upgrade = page.getByRole('dialog', { name: '升级套餐' });
  await expect(upgrade.getByText('应付')).toBeVisible();
  await expect(upgrade.locator('p.text-rose-600')).toHaveCount(0);
  const targets = await upgrade.getByRole('combobox').locator('option').allTextContents();
  expect(targets.length).toBeGreaterThan(0);
  for (const t of targets) expect(t).toMatch(/（抵扣后 ¥\d+\.\d{2}）$/);
  expect(targets.some((t) => t.includes('50000个'))).toBe(false);
  await upgrade.getByRole('button', { name: '取消' }).click();

  // Renew it for one period from the row's 续费 (the renewal tab opens with its dialog) and pay again.
  await page.goto('/personalCenter/packageManager/10');
  await pkg.getByRole('link', { name: '续费' }).click();
  await expect(page).toHaveURL(/tab=2&package=\d+&action=renew$/);
  const renew = page.getByRole('dialog', { name: '续费套餐' });
  await expect(renew.getByText('应付')).toBeVisible();
  await renew.getByRole('button', { name: '去支付' }).click();
  const renewPay = page.getByRole('dialog', { name: '支付订单' });
  await expect(renewPay.getByTestId('pay-box')).toBeVisible();
  const renewNo = await orderNoIn(renewPay);
  await payInSimulator(page, renewPay);
  await expect(renewPay.getByTestId('pay-success')).toContainText('支付成功', { timeout: 15_000 });

  await page.goto('/personalCenter/packageManager/10');
  await expect(pkg).toContainText('剩余 100,000 / 共 100,000个');

  // The bill: both orders, paid, newest first.
  await page.goto('/personalCenter/orderManager?state=2');
  const rows = page.getByTestId('bill-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(renewNo);
  await expect(rows.nth(0)).toContainText('续费');
  await expect(rows.nth(1)).toContainText(orderNo);
  for (const row of await rows.all()) await expect(row).toContainText('已支付');
});

test('an unpaid order raises the 待支付 count until it is paid on the cashier page, which polls to 已支付', async ({
  page,
  isMobile,
}) => {
  test.setTimeout(90_000);
  // The verified demo user (any verified account will do; this journey is about the unpaid order, not the gate).
  await logIn(page, '13800138000');
  const before = await unpaidCount(page);

  await page.goto('/buy?type=10');
  await hydrated(page);
  await page.getByTestId('buy-now').click();
  const dialog = page.getByRole('dialog', { name: '支付订单' });
  await expect(dialog.getByTestId('pay-box')).toBeVisible();
  const orderNo = await orderNoIn(dialog);
  await dialog.getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toHaveCount(0);

  expect(await unpaidCount(page)).toBe(before + 1);
  await page.getByRole('link', { name: /^待支付/ }).click();
  await expect(page).toHaveURL(/state=1/);
  const row = page.getByTestId('bill-row').filter({ hasText: orderNo });
  await expect(row).toContainText('待支付');

  // The cashier page; Playwright's clock drives its 2.5 s polling.
  await page.clock.install();
  await row.getByRole('link', { name: '去支付' }).click();
  await expect(page).toHaveURL(`/payPage?orderNo=${orderNo}`);
  await hydrated(page);
  await expect(page.getByTestId('pay-page-state')).toHaveText('待支付');
  const box = page.getByTestId('pay-box');
  if (isMobile) {
    // On a phone the cashier opens WeChat's H5 payment, which returns the payer to the cashier (redirect_url).
    await box.getByTestId('open-wechat').click();
    await expect(page).toHaveURL(/\/dev\/wechatpay\/pay\?out_trade_no=.*&h5=1&redirect_url=/);
    await page.getByTestId('sim-pay').click();
    await page.getByTestId('sim-return').click();
    await expect(page).toHaveURL(`/payPage?orderNo=${orderNo}`);
  } else {
    await payInSimulator(page, box);
    await page.clock.runFor(2500);
    await expect(page.getByTestId('pay-success')).toContainText('支付成功');
  }
  await expect(page.getByTestId('pay-page-state')).toHaveText('已支付');

  expect(await unpaidCount(page)).toBe(before);
  await page.goto('/personalCenter/orderManager?state=2');
  await expect(page.getByTestId('bill-row').filter({ hasText: orderNo })).toContainText('已支付');
});

test('the same order can be paid with Alipay: a QR code on a desktop, Alipay’s own payment page on a phone', async ({
  page,
  isMobile,
}) => {
  test.setTimeout(90_000);
  await logIn(page, '13800138000');
  await page.goto('/buy?type=10');
  await hydrated(page);
  const payText = (await page.getByTestId('quote-pay').textContent()) ?? '';
  await page.getByTestId('buy-now').click();
  const dialog = page.getByRole('dialog', { name: '支付订单' });
  await expect(dialog.getByRole('tab', { name: '微信支付' })).toHaveAttribute('aria-selected', 'true');
  await dialog.getByRole('tab', { name: '支付宝' }).click();
  await expect(dialog.getByTestId('pay-amount')).toHaveText(payText);
  const orderNo = await orderNoIn(dialog);
  if (!isMobile) {
    // A desktop scans Alipay's QR code (or opens Alipay's web cashier); here the stand-in's cashier pays it.
    await expect(dialog.getByRole('img', { name: '支付宝二维码' })).toBeVisible();
    const popup = page.waitForEvent('popup');
    await dialog.getByTestId('open-simulator').click();
    const sim = await popup;
    await expect(sim.getByTestId('alipay-sim-state')).toHaveText('等待付款');
    await sim.getByTestId('alipay-sim-pay').click();
    await expect(sim.getByText('商户应答：success')).toBeVisible();
    await sim.close();
    await expect(dialog.getByTestId('pay-success')).toContainText('支付成功', { timeout: 15_000 });
    // A paid order can no longer be cancelled: the dialog stops offering it.
    await expect(dialog.getByTestId('cancel-order')).toHaveCount(0);
  } else {
    // A phone never gets a QR code to scan with itself: it goes to Alipay's mobile payment and comes back.
    await expect(dialog.getByRole('img', { name: '支付宝二维码' })).toHaveCount(0);
    await dialog.getByTestId('open-alipay').click();
    await expect(page).toHaveURL(/\/dev\/alipay\/pay\?out_trade_no=/);
    await page.getByTestId('alipay-sim-pay').click();
    await expect(page.getByTestId('alipay-sim-result')).toHaveText('付款成功');
    await page.getByTestId('alipay-sim-return').click();
    await expect(page).toHaveURL(`/payPage?orderNo=${orderNo}`);
    await expect(page.getByTestId('pay-page-state')).toHaveText('已支付');
  }
  await page.goto('/personalCenter/orderManager?state=2');
  await expect(page.getByTestId('bill-row').filter({ hasText: orderNo })).toContainText(payText);
});

test('a returning customer with only gift packages is told why they cannot be renewed and offered the same package', async ({
  page,
}) => {
  await logIn(page, '13800138000');
  await page.goto('/personalCenter/packageManager/10');
  // The demo customer's packages were given (demo data), not bought: their rows offer 购买同款 instead of 续费.
  await page.getByTestId('package-table').getByRole('link', { name: '购买同款' }).first().click();
  await expect(page).toHaveURL(/\/personalCenter\/buy\?type=10&tab=2&package=\d+&action=renew$/);
  await hydrated(page);
  // No dialog for a package that cannot be renewed: the row says why and what to do instead.
  await expect(page.getByRole('dialog', { name: '续费套餐' })).toHaveCount(0);
  const row = page.getByTestId('gift-renew').first();
  await expect(row).toContainText('赠送套餐不支持续费，可购买同款套餐继续使用');
  await row.getByRole('link', { name: '购买同款套餐' }).click();
  await expect(page).toHaveURL(/\/personalCenter\/buy\?type=10&tab=1(&meal=\d+)?/);
  await expect(page.getByTestId('buy-panel')).toBeVisible();
});
