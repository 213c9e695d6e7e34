// The console's catalogue and campaigns journey: an admin (bootstrapped by the documented command) logs in with TOTP,
// creates a product on the catalogue screen and a coupon on the campaigns screen and issues it to a customer; the
// customer buys the new product with the coupon and pays in the WeChat Pay simulator (the order is priced by the
// engine: list price less the live activity less the coupon); finance refunds the order with a reason; the audit log
// shows each step.
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { consoleLogin, createOperator, readsInWords } from './console';
import { hydrated } from './helpers';

const CUSTOMER = { phone: '13800138000', password: 'demo1234' }; // the seed's verified demo customer

async function api<T>(req: APIRequestContext, A: string, P: unknown = {}): Promise<T> {
  const res = await req.post('/api', { data: { A, P }, headers: { 'content-type': 'application/json' } });
  const body = (await res.json()) as { P?: T; E?: string };
  if (body.E !== undefined || body.P === undefined) throw new Error(`${A}: ${body.E}`);
  return body.P;
}

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  return context.newPage();
}

const noWiderThanViewport = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );

test('an admin creates a product and a coupon; a customer buys with them and pays; finance refunds; the audit log shows it @server-state', async ({
  page,
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(240_000);
  const shot = (p: Page, name: string) =>
    p.screenshot({ path: `.tmp/shots/admin-${name}-${testInfo.project.name}.png`, fullPage: true });
  const tag = `${testInfo.project.name.slice(0, 3)}${Date.now() % 100_000}`;
  const adminName = `cat_${tag}`;
  const financeName = `catfin_${tag}`;
  createOperator(adminName, '目录管理员', 'admin');
  createOperator(financeName, '王财务', 'finance');

  // The admin creates a product: 短效 按量 1,000 IPs · 5 minutes · 30 days at ¥20.00.
  await consoleLogin(page, adminName);
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '商品目录' }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue$/);
  await expect(page.getByRole('heading', { name: '商品目录' })).toBeVisible();
  await hydrated(page);
  const productName = `测试套餐${tag}`;
  // The create form is folded so the list comes first; 新建 opens it.
  await page.getByTestId('meal-create-fold').getByText('＋ 新建短效动态IP套餐').click();
  const meal = page.getByTestId('meal-create');
  await meal.getByLabel('计费方式').selectOption('1');
  await meal.getByLabel('套餐名称').fill(productName);
  await meal.getByLabel('IP时长').selectOption('5');
  await meal.getByLabel(/^数量/).fill('1000');
  await meal.getByLabel('有效期（天）').fill('30');
  await meal.getByLabel('每份价格（元）').fill('20');
  await meal.getByRole('button', { name: '新建套餐' }).click();
  const row = page.getByTestId('meal-table').getByRole('row').filter({ hasText: productName });
  await expect(row).toContainText('¥20.00');
  // The live 15 % activity on 短效 按量 applies to it, as the engine quotes it.
  await expect(row).toContainText('¥17.00');
  await expect(page.getByTestId('buy-preview')).toHaveAttribute('href', '/buy?type=10');
  await shot(page, 'catalogue');
  await noWiderThanViewport(page);

  // The admin creates a coupon (¥5 off from ¥10, 短效 only, stock 10) and issues it to the customer.
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '营销活动' }).click();
  await expect(page.getByRole('heading', { name: '营销活动' })).toBeVisible();
  await hydrated(page);
  const couponName = `立减券${tag}`;
  const coupon = page.getByTestId('coupon-form');
  await coupon.getByLabel('名称').fill(couponName);
  // The face value is typed in 元, as people read it (it once took fen: typing 5 made a ¥0.05 coupon).
  await expect(page.getByRole('link', { name: '立减券（减金额）' })).toHaveAttribute('aria-current', 'page');
  await coupon.getByLabel('立减金额（元）').fill('5');
  await coupon.getByLabel(/^使用门槛/).fill('10');
  await coupon.getByRole('checkbox', { name: '短效动态IP' }).check();
  await coupon.getByLabel('库存（0为不限）').fill('10');
  await coupon.getByRole('button', { name: '新建优惠券' }).click();
  const couponRow = page.getByTestId('coupon-table').getByRole('row').filter({ hasText: couponName });
  await expect(couponRow).toContainText('¥5.00');
  await expect(couponRow).toContainText('订单原价满¥10.00可用 · 限短效动态IP');
  await expect(couponRow).toContainText('已发 0');
  const issue = page.getByTestId('coupon-issue');
  await issue
    .getByLabel('优惠券')
    .selectOption({ label: `${(await couponRow.textContent())?.match(/#\d+/)?.[0]} ${couponName}（¥5.00）` });
  await issue.getByLabel(/客户手机号或用户ID/).fill(CUSTOMER.phone);
  await issue.getByLabel('发放原因（记入操作日志）').fill('新品体验');
  await issue.getByRole('button', { name: '发放' }).click();
  await expect(couponRow).toContainText('已发 1');
  await shot(page, 'campaigns');
  await noWiderThanViewport(page);

  // The customer buys the new product with the coupon and pays in the simulator: 2000 - 15 % (300) - 500 = 1200.
  const customer = await playwright.request.newContext(baseURL ? { baseURL } : {});
  await api(customer, 'User.Login', CUSTOMER);
  const offered = await api<{ meals: { id: number; name: string; payFen: number }[] }>(
    customer,
    'ProxyMeal.GetMealWithActivity',
    { type: 10 },
  );
  const product = offered.meals.find((m) => m.name === productName);
  expect(product?.payFen).toBe(1700);
  const mine = await api<{ list: { id: number; name: string }[] }>(customer, 'Coupon.GetList', { state: 1 });
  const held = mine.list.find((c) => c.name === couponName);
  expect(held).toBeTruthy();
  const order = await api<{ orderNo: string; payFen: number; codeUrl: string }>(customer, 'PayOrder.BuyProxy', {
    mealId: product?.id,
    units: 1,
    couponId: held?.id,
  });
  expect(order.payFen).toBe(1200);
  const outTradeNo = new URL(order.codeUrl, 'http://x').searchParams.get('out_trade_no') ?? '';
  const paid = await customer.post('/dev/wechatpay/pay', { form: { out_trade_no: outTradeNo } });
  expect(await paid.text()).toContain('商户应答 HTTP 204');

  // The coupon's use shows on the campaigns screen.
  await page.reload();
  await expect(couponRow).toContainText('已用 1');

  // Finance refunds the order with a reason.
  const finance = await newPage(browser, baseURL);
  await consoleLogin(finance, financeName);
  await finance.goto(`/admin/orders/${order.orderNo}`);
  await expect(finance.getByTestId('order-state')).toHaveText('已支付');
  await hydrated(finance);
  await finance.getByRole('button', { name: '退款' }).click();
  const preview = finance.getByTestId('refund-preview');
  await expect(preview).toContainText('全额退款 ¥12.00');
  await preview.getByLabel(/退款原因/).fill('客户不需要了');
  await finance.getByRole('button', { name: '确认退款' }).click();
  await expect(finance.getByTestId('order-state')).toHaveText('已退款');
  // Finance reads the catalogue but has no button to change it.
  await finance.goto('/admin/catalogue?type=10');
  await expect(finance.getByTestId('meal-table')).toContainText(productName);
  expect((await finance.request.post('/api', { data: { A: 'Admin.MealSave', P: {} } })).status()).toBe(403);

  // The audit log shows each step in words: no action code, no English word, no raw JSON, fen or epoch milliseconds.
  await page.goto(`/admin/audit?operator=${adminName}`);
  const audit = page.getByTestId('audit-table');
  for (const action of ['登录后台', '新建套餐', '新建优惠券', '发放优惠券']) {
    await expect(audit.getByTestId('audit-action').filter({ hasText: action }).first()).toBeVisible();
  }
  const created = audit.getByTestId('audit-row').filter({ hasText: '新建优惠券' });
  await expect(created).toContainText(`优惠券 ${couponName}（新建）`);
  await expect(created).toContainText('面额：¥5.00');
  await expect(created).toContainText('使用门槛（订单原价满）：¥10.00');
  await expect(audit).toContainText('新品体验');
  await readsInWords(audit, [order.orderNo, tag]);
  await page.goto(`/admin/audit?operator=${financeName}`);
  const refunded = audit.getByTestId('audit-row').filter({ hasText: '订单退款' });
  await expect(refunded).toContainText(`订单 ${order.orderNo}`);
  await expect(refunded).toContainText('状态：已支付 → 已退款');
  await expect(refunded).toContainText('金额：¥12.00');
  await expect(audit).toContainText('客户不需要了');
  await readsInWords(audit, [order.orderNo, tag]);
  await shot(page, 'audit-catalogue');
});

test('an operator pages and narrows the meal list, opens a meal from its row to edit it and goes back to the same list @server-state', async ({
  page,
}, testInfo) => {
  const admin = `catlist_${testInfo.project.name.slice(0, 3)}${Date.now() % 100_000}`;
  createOperator(admin, '目录浏览', 'admin');
  await consoleLogin(page, admin);
  // 长效静态IP: the seed's 75 meals (the journey above adds its products to 短效动态IP).
  await page.goto('/admin/catalogue?type=40');
  await hydrated(page);
  const rows = page.getByTestId('meal-table').locator('tbody tr');
  const pager = page.getByRole('navigation', { name: '分页' });
  await expect(rows).toHaveCount(20);
  await expect(pager).toContainText('共 75 条 · 第 1/4 页');
  // One screen of rows, not a card per meal: the page stays short and no wider than the screen.
  const size = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  }));
  expect(size.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 1440);
  expect(size.height).toBeLessThan(4000);

  await pager.getByRole('link', { name: '下一页' }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(pager).toContainText('第 2/4 页');

  // Narrow to 包天 · 4小时: twelve meals, each of them 包天; the chips count what they would list.
  const byBilling = page.getByRole('navigation', { name: '计费方式' });
  await expect(byBilling.getByRole('link', { name: /^包天计费\s*60$/ })).toBeVisible();
  await byBilling.getByRole('link', { name: /^包天计费\s*60$/ }).click();
  await expect(page).toHaveURL(/[?&]billing=2\b/);
  await page
    .getByRole('navigation', { name: 'IP时长' })
    .getByRole('link', { name: /^4小时\s*12$/ })
    .click();
  await expect(page).toHaveURL(/[?&]minutes=240\b/);
  await expect(rows).toHaveCount(12);
  for (const text of await rows.allTextContents()) expect(text).toMatch(/包天计费[\s\S]*4小时/);

  // A row opens the meal's edit view (the list's filters kept); 返回列表 comes back to the same list.
  const name = ((await rows.first().getByRole('link').first().textContent()) ?? '').trim();
  await rows.first().getByRole('link', { name }).first().click();
  await expect(page).toHaveURL(/[?&]meal=\d+/);
  await expect(page.getByRole('heading', { name: /^编辑套餐 #\d+$/ })).toBeVisible();
  await expect(page.getByTestId('meal-edit').getByLabel('套餐名称')).toHaveValue(name);
  await expect(page.getByRole('button', { name: '下架' }).first()).toBeVisible();
  await page.getByRole('link', { name: '‹ 返回列表' }).click();
  await expect(page).toHaveURL(/[?&]billing=2\b.*[?&]minutes=240\b|[?&]minutes=240\b.*[?&]billing=2\b/);
  await expect(page).not.toHaveURL(/meal=/);
  await expect(page.getByRole('heading', { name: /^编辑套餐/ })).toHaveCount(0);
  await expect(rows).toHaveCount(12);
});
