// Buyer journeys (issue 13): a visitor's chosen package survives registration and real-name verification; the ¥5
// 新人专享券 「订单原价满¥10.00可用」 applies to the ¥10.00 package after its 15% discount; every term is shown before
// paying, each discount on its own line; 取消订单 gives the coupon back; a paid order has a detail with every amount and
// the payment numbers; the package list says what is left in one wording; /rebate states the engine's rules and a
// link that credits the promoter; phones get a sticky order bar the red-packet badge does not cover.
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  codeFor,
  freshIdNumber,
  freshPhone,
  hydrated,
  logIn,
  networkOfItsOwn,
  postponeGate,
  registerBySms,
} from './helpers';

/** The 立即购买 a customer taps: the sticky bar on phones, the summary's button on desktops. */
const buyButton = (page: Page, isMobile: boolean): Locator => page.getByTestId(isMobile ? 'order-bar-buy' : 'buy-now');

const pressed = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

test('a visitor picks a package, registers from the buy page, learns why real-name comes first, verifies and continues with the same package; the ¥5 新人专享券 applies to the ¥10.00 package; every term shows before paying; cancelling returns the coupon; the paid order has a full detail', async ({
  page,
  isMobile,
}) => {
  test.setTimeout(180_000);
  await test.step('the visitor chooses 5分钟 · 50,000个 × 2 and registers from the buy page', async () => {
    await page.goto('/buy?type=10');
    await hydrated(page);
    await pressed(page, '5分钟').click();
    await pressed(page, '50,000个').click();
    await page.getByRole('button', { name: '增加' }).click();
    await expect(pressed(page, '50,000个')).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/meal=\d+&units=2/);
    await page.getByRole('complementary', { name: '订单明细' }).getByRole('link', { name: '免费注册' }).click();
    await expect(page).toHaveURL(/\/login\?type=sms&redirect=/);
    await hydrated(page);
    const phone = freshPhone();
    await page.getByPlaceholder('请输入11位手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByPlaceholder('6位短信验证码').fill(await codeFor(page, phone));
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: '注册并登录' }).click();
    await expect(page).toHaveURL(/\/buy\?type=10&meal=\d+&units=2/);
  });

  await test.step('back on the buy page the choice is kept, and the real-name detour is explained', async () => {
    await hydrated(page);
    const gate = page.getByRole('dialog', { name: '请完成实名认证' });
    await expect(gate).toBeVisible();
    await gate.getByRole('button', { name: '稍后再说' }).click();
    await expect(pressed(page, '5分钟')).toHaveAttribute('aria-pressed', 'true');
    await expect(pressed(page, '50,000个')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('购买数量')).toHaveValue('2');
    await expect(page.getByTestId('real-name-notice')).toContainText('根据相关规定，购买代理IP需先完成实名认证');
    await buyButton(page, isMobile).click();
    await expect(page).toHaveURL(/\/personalCenter\/realNameAuth\?next=/);
    await expect(page.getByTestId('purchase-detour')).toContainText('根据相关规定，购买代理IP需先完成实名认证');
  });

  await test.step('after verification 继续购买 leads back to the same package', async () => {
    await page.getByTestId('start-personal').click();
    await expect(page).toHaveURL(/\/personalCenter\/realNameAuth\/auth\?tab=personal&next=/);
    await hydrated(page);
    await page.getByLabel('真实姓名').fill('张买家');
    await page.getByLabel('身份证号').fill(freshIdNumber());
    await page.getByTestId('certify-submit').click();
    await expect(page).toHaveURL(/\/dev\/faceverify\//);
    await page.getByTestId('sim-pass').click();
    await expect(page.getByTestId('certify-passed')).toContainText('个人已认证');
    await page.getByTestId('certify-passed').getByTestId('continue-buying').click();
    await expect(page).toHaveURL(/\/buy\?type=10&meal=\d+&units=2/);
    await hydrated(page);
    await expect(pressed(page, '50,000个')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('real-name-notice')).toHaveCount(0);
  });

  const summary = page.getByRole('complementary', { name: '订单明细' });
  await test.step('the ¥5 新人专享券 「订单原价满¥10.00可用」 applies to the ¥10.00 package discounted to ¥8.50', async () => {
    await pressed(page, '3分钟').click();
    await pressed(page, '10,000个').click();
    await page.getByRole('button', { name: '减少' }).click();
    await expect(page.getByTestId('quote-pay')).toHaveText('¥8.50');
    const coupon = summary.getByRole('listitem').filter({ hasText: '新人专享券' });
    await expect(coupon.getByTestId('coupon-rule')).toHaveText('订单原价满¥10.00可用 · 限短效动态IP、长效静态IP');
    await coupon.getByRole('button', { name: '领取' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: '领取成功，已为您选用该优惠券' })).toBeVisible();
    await expect(page.getByTestId('coupon-select').locator('option:checked')).toHaveText('新人专享券 -¥5.00');
    await expect(page.getByTestId('quote-pay')).toHaveText('¥3.50');
  });

  await test.step('every term and each discount is on its own line before paying, with no zero lines', async () => {
    await expect(summary.getByTestId('term-volume')).toContainText('IP总数10,000个');
    await expect(summary.getByTestId('term-validity')).toContainText('购买后1年（365天）内有效');
    await expect(summary.getByText('单个IP时长')).toBeVisible();
    await expect(summary.getByTestId('amount-list')).toContainText('¥10.00');
    await expect(summary.getByTestId('amount-discount')).toHaveText(/活动优惠（短效按量限时折扣 · 折扣15%）-¥1\.50/);
    await expect(summary.getByTestId('amount-coupon')).toHaveText('优惠券（新人专享券）-¥5.00');
    await expect(summary.getByTestId('amount-credit')).toHaveCount(0);
    await expect(summary.getByText('-¥0.00')).toHaveCount(0);
    await pressed(page, '包天计费').click();
    await expect(summary.getByTestId('term-volume')).toContainText('1,200个/天（含活动赠送200个/天）');
    await expect(summary.getByTestId('term-bonus')).toContainText('+200个/天（赠量20%）');
    await expect(summary.getByTestId('amount-discount')).toHaveCount(0);
    await pressed(page, '按量计费').click();
    await expect(page.getByTestId('quote-pay')).toHaveText('¥3.50');
  });

  await test.step('取消订单 closes the pending order and the coupon comes back', async () => {
    await buyButton(page, isMobile).click();
    const dialog = page.getByRole('dialog', { name: '支付订单' });
    await expect(dialog.getByTestId('pay-amount')).toHaveText('¥3.50');
    await dialog.getByTestId('cancel-order').click();
    await page.getByRole('dialog', { name: '取消订单' }).getByRole('button', { name: '确定取消' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: '订单已取消，占用的优惠券已退回' })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('coupon-select').locator('option:checked')).toHaveText('新人专享券 -¥5.00');
    await expect(page.getByTestId('quote-pay')).toHaveText('¥3.50');
  });

  let orderNo = '';
  await test.step('paying and opening the order detail shows what was bought, each amount and the payment numbers', async () => {
    await buyButton(page, isMobile).click();
    const dialog = page.getByRole('dialog', { name: '支付订单' });
    // While the dialog charges the order, the summary behind it (and the phone's order bar) says the same amount.
    await expect(dialog.getByTestId('pay-amount')).toHaveText('¥3.50');
    await expect(page.getByTestId('quote-pay')).toHaveText('¥3.50');
    await expect(page.getByTestId('coupon-select').locator('option:checked')).toHaveText('新人专享券 -¥5.00');
    const text = (await dialog.getByTestId('pay-box').textContent()) ?? '';
    orderNo = /订单号\s*(D\d{14}[0-9A-Z]{16})/.exec(text)?.[1] ?? '';
    expect(orderNo).not.toBe('');
    const popup = page.waitForEvent('popup');
    await dialog.getByTestId('open-simulator').click();
    const sim = await popup;
    await sim.getByTestId('sim-pay').click();
    await expect(sim.getByTestId('sim-result')).toHaveText('支付成功');
    await sim.close();
    await expect(dialog.getByTestId('pay-success')).toBeVisible({ timeout: 15_000 });
    await page.goto('/personalCenter/orderManager');
    const row = page.getByTestId('bill-row').filter({ hasText: orderNo });
    await row.getByTestId('order-detail-link').click();
    const detail = page.getByTestId('order-detail');
    await expect(detail.getByTestId('order-item')).toContainText('IP 10,000个');
    await expect(detail.getByTestId('order-item')).toContainText('购买后1年（365天）内有效');
    await expect(detail.getByTestId('amount-list')).toContainText('¥10.00');
    await expect(detail.getByTestId('amount-discount')).toContainText('-¥1.50');
    await expect(detail.getByTestId('amount-coupon')).toHaveText('优惠券（新人专享券）-¥5.00');
    await expect(detail.getByTestId('order-pay')).toHaveText('¥3.50');
    await expect(detail.getByTestId('pay-page-state')).toHaveText('已支付');
    await expect(detail.getByTestId('out-trade-no')).toHaveText(/^P\d{14}/);
    await expect(detail.getByTestId('transaction-id')).not.toBeEmpty();
    await expect(detail.getByText('支付时间')).toBeVisible();
  });

  await test.step('the package list says what is left in one wording', async () => {
    await page.goto('/personalCenter/packageManager/10');
    await expect(page.getByText('剩余 10,000 / 共 10,000个').first()).toBeVisible();
  });
});

test('a customer without a promotion code gets a /rebate link that credits them, and the page states the rates, window and minimum the engine applies', async ({
  page,
}) => {
  const phone = freshPhone();
  await page.goto('/login?type=sms&redirect=%2Frebate');
  await hydrated(page);
  await page.getByPlaceholder('请输入11位手机号').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await page.getByPlaceholder('6位短信验证码').fill(await codeFor(page, phone));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/rebate$/);
  const link = (await page.getByTestId('rebate-link').locator('p.font-mono').textContent()) ?? '';
  expect(link).toMatch(/\/\?did=[a-z2-9]{8}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('最高可得20%返佣');
  const rates = page.getByTestId('rebate-rates');
  await expect(rates.getByRole('row', { name: /短效动态IP/ })).toContainText('20%');
  await expect(rates.getByRole('row', { name: /短效动态IP/ })).toContainText('10%');
  await expect(rates.getByRole('row', { name: /优质IP/ })).toContainText('5%');
  const rules = page.getByTestId('rebate-rules');
  await expect(rules).toContainText('365天');
  await expect(rules).toContainText('满¥50.00');
  await expect(page.getByText('30%')).toHaveCount(0);
  await expect(page.getByText('满100元')).toHaveCount(0);
  // The personal centre shows the same code and the same rules.
  await page.goto('/personalCenter/promotionRebate');
  await expect(page.getByTestId('promotion-link')).toHaveText(link);
  await expect(page.getByTestId('commission-rules')).toContainText('满¥50.00');
});

test('on a phone the price and 立即购买 stay in a bottom bar the red-packet badge does not cover @phone', async ({
  page,
}) => {
  await page.goto('/buy?type=50');
  await hydrated(page);
  const bar = page.getByTestId('order-bar');
  await expect(bar).toBeInViewport();
  await expect(bar.getByTestId('order-bar-pay')).toHaveText(/^¥\d/);
  await expect(bar.getByTestId('order-bar-buy')).toHaveText('登录后购买');
  await expect(page.getByText('-¥0.00')).toHaveCount(0);
  const badge = page.getByTestId('red-packet-button');
  if (await badge.count()) {
    const b = await badge.boundingBox();
    for (const id of ['order-bar-pay', 'order-bar-buy']) {
      const o = await page.getByTestId(id).boundingBox();
      if (!b || !o) throw new Error('no box');
      const overlap = b.x < o.x + o.width && o.x < b.x + b.width && b.y < o.y + o.height && o.y < b.y + b.height;
      expect(overlap, `the red-packet badge covers ${id}`).toBe(false);
    }
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});

test('a customer who double-clicks 领取 receives the coupon once, hears it once, and identical coupons are one choice', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Registering sends an SMS code, limited per client address: this journey comes from a network of its own.
  await page.context().setExtraHTTPHeaders(networkOfItsOwn());
  await registerBySms(page, freshPhone());
  await postponeGate(page);
  await page.goto('/buy?type=10');
  await hydrated(page);
  await postponeGate(page);
  await pressed(page, '200,000个').click();
  const offer = page.getByRole('listitem').filter({ hasText: '全场9折券' });
  await offer.getByRole('button', { name: '领取' }).dblclick();
  const toasts = page.getByTestId('toast').filter({ hasText: '领取成功' });
  await expect(toasts).toHaveCount(1);
  const select = page.getByTestId('coupon-select');
  await expect(select.locator('option', { hasText: '全场9折券' })).toHaveCount(1);
  await expect(select.locator('option', { hasText: '全场9折券' })).not.toContainText('×');
  // The second (the limit is two per customer) is the same coupon: one choice, counted.
  await expect(toasts).toHaveCount(0, { timeout: 5_000 });
  await offer.getByRole('button', { name: '领取' }).click();
  await expect(toasts).toHaveCount(1);
  await expect(select.locator('option', { hasText: '全场9折券' })).toHaveCount(1);
  await expect(select.locator('option', { hasText: '全场9折券' })).toContainText('×2');
});

test('a fixed-IP buyer who has not chosen a region is shown the region select, marked with why', async ({
  page,
  isMobile,
}) => {
  await logIn(page, '13800138000');
  await page.goto('/buy?type=30');
  await hydrated(page);
  const region = page.getByLabel('选择地区');
  await expect(region).toHaveValue('0');
  await buyButton(page, isMobile).click();
  await expect(region).toHaveAttribute('aria-invalid', 'true');
  await expect(region).toBeFocused();
  await expect(page.getByTestId('region-error')).toHaveText('请选择地区');
  await expect(page.getByRole('dialog', { name: '支付订单' })).toHaveCount(0);
  await region.selectOption({ index: 1 });
  await expect(page.getByTestId('region-error')).toHaveCount(0);
  await expect(region).toHaveAttribute('aria-invalid', 'false');
});
