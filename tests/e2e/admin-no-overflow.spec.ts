// On a 390 px phone no operator console screen is wider than the screen, and each shows its heading: every screen of
// the console's navigation (the list comes from the code, so new screens are covered) and the detail pages reached from
// them (a customer, an order, an article, a new article), with the development seed's data in them.
import { expect, type Page, test } from '@playwright/test';
import { ADMIN_NAV } from '../../src/pages/admin/_components/console-nav';
import { consoleLogin, createOperator } from './console';
import { hydrated } from './helpers';

const PHONE_WIDTH = 390;

/** The heading each navigation screen shows (a screen missing here must still show a non-empty heading). */
const HEADINGS: Record<string, string> = {
  '/admin': '概览',
  '/admin/customers': '客户',
  '/admin/orders': '订单',
  '/admin/reviews': '企业认证审核',
  '/admin/verifications': '个人实名记录',
  '/admin/withdrawals': '提现',
  '/admin/catalogue': '商品目录',
  '/admin/campaigns': '营销活动',
  '/admin/sellers': '销售与推广',
  '/admin/help': '帮助中心',
  '/admin/content': '站点内容',
  '/admin/consultations': '企业咨询',
  '/admin/nodes': '节点',
  '/admin/redirects': '跳转规则',
  '/admin/audit': '操作日志',
  '/admin/operators': '运营账号',
};

/** Opens a console path and returns its heading and the document's scroll width. */
async function look(page: Page, path: string): Promise<{ heading: string; width: number }> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  await hydrated(page);
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1, path).toBeVisible();
  const heading = ((await h1.textContent()) ?? '').trim();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  return { heading, width };
}

const firstHref = (page: Page, selector: string) => page.locator(selector).first().getAttribute('href');

test('an operator on a phone never has to scroll sideways in the console, and every screen shows its heading @phone @server-state', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const username = `phone_${testInfo.project.name}${Date.now() % 100_000}`;
  createOperator(username, '手机巡检');
  await consoleLogin(page, username);

  const wide: string[] = [];
  const wrongHeading: string[] = [];
  const check = async (path: string, expected?: string | RegExp) => {
    const { heading, width } = await look(page, path);
    if (width > PHONE_WIDTH) wide.push(`${path}: ${width}px`);
    const ok =
      expected === undefined
        ? heading.length > 0
        : typeof expected === 'string'
          ? heading === expected
          : expected.test(heading);
    if (!ok) wrongHeading.push(`${path}: 「${heading}」`);
  };

  const screens = ADMIN_NAV; // the operator is an admin: every screen
  expect(screens.length).toBeGreaterThan(10);
  for (const s of screens) await check(s.href, HEADINGS[s.href]);

  // Detail pages, reached the way an operator reaches them (the seed's customers, orders and articles fill them).
  await page.goto('/admin/customers?q=13500135001');
  const customer = await firstHref(page, 'a[href^="/admin/customers/"]');
  expect(customer).toMatch(/^\/admin\/customers\/\d+$/);
  await check(customer ?? '', '客户 13500135001');
  await page.goto('/admin/orders');
  const order = await firstHref(page, 'a[href^="/admin/orders/D"]');
  expect(order).toBeTruthy();
  await check(order ?? '', '订单详情');
  await page.goto('/admin/help');
  const article = await firstHref(page, 'a[href^="/admin/help/"]:not([href$="/new"])');
  expect(article).toMatch(/^\/admin\/help\/\d+$/);
  await check(article ?? '', /^编辑文章 #\d+$/);
  await check('/admin/help/new', '新建文章');

  expect(wide).toEqual([]);
  expect(wrongHeading).toEqual([]);
});
