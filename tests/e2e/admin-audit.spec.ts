// The console for people (issue 24): a coupon's face value typed in 元 (typing 10 makes a ¥10.00 coupon; it once took
// fen and made ¥0.10), the audit log in words (the coupon's creation as 新建优惠券 · 面额：¥10.00, no code, English
// word, JSON or epoch number), its plain action list as a filter, and ops reading its own 操作日志.
import { expect, type Page, test } from '@playwright/test';
import { consoleLogin, createOperator, readsInWords } from './console';
import { hydrated } from './helpers';

const noWiderThanViewport = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );

test('typing 10 makes a ¥10.00 coupon; the audit log says so in words, filtered by its plain action list; ops reads its own log @server-state', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const shot = (p: Page, name: string) =>
    p.screenshot({ path: `.tmp/shots/audit-${name}-${testInfo.project.name}.png`, fullPage: true });
  const tag = `${testInfo.project.name.slice(0, 3)}${Date.now() % 100_000}`;
  const adminName = `aud_${tag}`;
  const opsName = `audops_${tag}`;
  createOperator(adminName, '审计管理员', 'admin');
  createOperator(opsName, '赵运维', 'ops');

  await consoleLogin(page, adminName);
  await page.goto('/admin/campaigns');
  await hydrated(page);
  const form = page.getByTestId('coupon-form');
  await expect(form.getByLabel('立减金额（元）')).toBeVisible();
  await shot(page, 'coupon-form');
  await noWiderThanViewport(page);
  const couponName = `十元券${tag}`;
  await form.getByLabel('名称').fill(couponName);
  await form.getByLabel('立减金额（元）').fill('10');
  await form.getByRole('button', { name: '新建优惠券' }).click();
  const row = page.getByTestId('coupon-table').getByRole('row').filter({ hasText: couponName });
  await expect(row).toContainText('¥10.00');

  // The discount form takes a percentage instead.
  await page.getByRole('link', { name: '折扣券（打折）' }).click();
  await expect(page.getByTestId('coupon-form').getByLabel('减免比例（%，1-90）')).toBeVisible();

  // The audit log: the creation in words.
  await page.goto(`/admin/audit?operator=${adminName}`);
  const audit = page.getByTestId('audit-table');
  const created = audit.getByTestId('audit-row').filter({ hasText: '新建优惠券' });
  await expect(created).toContainText(`优惠券 ${couponName}（新建）`);
  await expect(created).toContainText('面额：¥10.00');
  await expect(created).toContainText('类型：立减');
  await expect(created).toContainText(/开始时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await readsInWords(audit, [tag]);
  await shot(page, 'log');
  await noWiderThanViewport(page);

  // The plain action list filters it.
  await hydrated(page);
  await page.getByLabel('操作', { exact: true }).selectOption({ label: '登录后台' });
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/action=Operator\.Login/);
  await expect(audit.getByTestId('audit-action').first()).toHaveText('登录后台');
  await expect(audit).not.toContainText('新建优惠券');

  // ops has its own 操作日志: its sign-in, and not the admin's coupon.
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const ops = await context.newPage();
  await consoleLogin(ops, opsName);
  await ops.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '操作日志' }).click();
  await expect(ops.getByRole('heading', { name: '操作日志' })).toBeVisible();
  const opsAudit = ops.getByTestId('audit-table');
  await expect(opsAudit.getByTestId('audit-row').filter({ hasText: opsName }).first()).toContainText('登录后台');
  await expect(opsAudit).not.toContainText(couponName);
  await expect(ops.getByLabel('操作', { exact: true }).locator('option', { hasText: '新建优惠券' })).toHaveCount(0);
  await context.close();
});
