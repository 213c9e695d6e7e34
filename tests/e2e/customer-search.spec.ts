// The console's customer search says what it matched: four digits are read as the last four of a phone and as a
// customer id, each its own labelled list, never a silent jump to one customer.
import { expect, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import { hydrated } from './helpers';

test('support searches 尾号 8000 and sees the customers by phone tail and by id, each labelled @server-state', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = `cs_${testInfo.project.name}${Date.now() % 100_000}`;
  createOperator(name, '赵客服', 'support');
  await consoleLogin(page, name);
  await page.goto('/admin/customers?q=8000');
  await hydrated(page);
  const byTail = page.getByTestId('customer-match-phoneTail');
  await expect(byTail.getByTestId('customer-match-text')).toHaveText(/^按手机尾号 8000 找到 \d+ 位客户$/);
  await expect(byTail.getByTestId('customer-table')).toContainText('13800138000');
  await expect(page.getByTestId('customer-match-id').getByTestId('customer-match-text')).toHaveText(
    /^按客户编号 8000 (找到 1 位客户|没有找到客户)$/,
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );
  await page.screenshot({ path: `.tmp/shots/customer-search-${testInfo.project.name}.png`, fullPage: true });
});
