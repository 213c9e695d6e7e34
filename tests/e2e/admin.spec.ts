// Operator console journeys: the first admin is created by the bootstrap command, logs in with a password and binds a
// TOTP authenticator, creates a finance operator; finance logs in the same way, finds a paid order, previews and
// executes a refund with a reason, and asks WeChat Pay and Alipay about an unpaid order; support-level suspension ends a
// customer's session; the audit log shows each step.
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { consoleLogin, consoleLoginAgain, createOperator, OPERATOR_PASSWORD as PASSWORD } from './console';
import { codeFor, freshPhone, hydrated } from './helpers';

async function api<T>(req: APIRequestContext, A: string, P: unknown = {}): Promise<T> {
  const res = await req.post('/api', { data: { A, P }, headers: { 'content-type': 'application/json' } });
  const body = (await res.json()) as { P?: T; E?: string };
  if (body.E !== undefined || body.P === undefined) throw new Error(`${A}: ${body.E}`);
  return body.P;
}

/** The demo customer (real-name verified) buys a package and pays it in the WeChat Pay simulator. */
async function paidOrder(req: APIRequestContext): Promise<string> {
  await api(req, 'User.Login', { phone: '13800138000', password: 'demo1234' });
  const order = await api<{ orderNo: string; codeUrl: string }>(req, 'PayOrder.BuyProxy', {
    mealId: 101_010,
    units: 1,
  });
  const outTradeNo = new URL(order.codeUrl, 'http://x').searchParams.get('out_trade_no') ?? '';
  const paid = await req.post('/dev/wechatpay/pay', { form: { out_trade_no: outTradeNo } });
  expect(await paid.text()).toContain('商户应答 HTTP 204');
  return order.orderNo;
}

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  return context.newPage();
}

test('the first admin is bootstrapped, binds TOTP, creates finance; finance refunds an order; the audit log shows each step @server-state', async ({
  page,
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const tag = `${testInfo.project.name}${Date.now() % 100_000}`;
  const adminName = `boot_${tag}`;
  // The documented bootstrap: no SQL by hand.
  createOperator(adminName, '首位管理员');

  // Public pages never link the console, and the console is not indexed.
  await page.goto('/');
  expect(await page.locator('a[href^="/admin"]').count()).toBe(0);
  const guarded = await page.request.get('/admin/orders', { maxRedirects: 0 });
  expect(guarded.status()).toBe(302);
  expect(guarded.headers().location).toBe('/admin/login');

  const adminSecret = await consoleLogin(page, adminName);
  await expect(page.getByTestId('admin-whoami')).toContainText('首位管理员（管理员）');
  // A later login (authenticator bound) asks for the code in its own empty field, typed key by key.
  await consoleLoginAgain(await newPage(browser, baseURL), adminName, adminSecret);
  await expect(page.getByTestId('dash-todo')).toBeVisible();
  await page.screenshot({ path: `.tmp/shots/admin-dashboard-${testInfo.project.name}.png`, fullPage: true });
  const head = await page.request.get('/admin');
  expect(head.headers()['x-robots-tag']).toBe('noindex, nofollow');

  // The admin creates a finance operator.
  const financeName = `fin_${tag}`;
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '运营账号' }).click();
  await hydrated(page);
  const create = page.getByTestId('operator-create');
  await create.getByLabel('账号').fill(financeName);
  await create.getByLabel('姓名').fill('李财务');
  await create.getByLabel('角色').selectOption('finance');
  await create.getByLabel('初始密码').fill(PASSWORD);
  await create.getByRole('button', { name: '新建账号' }).click();
  await expect(page.getByTestId('operator-list')).toContainText(`@${financeName}`);
  // Resetting the password asks for it and a reason in the console's dialog; the account is then not enrolled.
  const financeRow = page
    .getByTestId('operator-list')
    .locator('tbody tr')
    .filter({ hasText: `@${financeName}` });
  await financeRow.getByRole('button', { name: '重置密码与验证器' }).click();
  const reset = page.getByRole('dialog', { name: '重置密码与验证器' });
  await reset.getByLabel('新的初始密码').fill(PASSWORD);
  await reset.getByLabel('原因（记入操作日志）').fill('测试重置');
  await reset.getByRole('button', { name: '确定' }).click();
  await expect(reset).toHaveCount(0);
  await expect(financeRow).toContainText('未绑定验证器');
  await page.screenshot({ path: `.tmp/shots/admin-operators-${testInfo.project.name}.png`, fullPage: true });

  // A paid order to refund.
  const customer = await playwright.request.newContext(baseURL ? { baseURL } : {});
  const orderNo = await paidOrder(customer);

  // Finance logs in (binding TOTP), finds the order, previews and executes the refund.
  const finance = await newPage(browser, baseURL);
  await consoleLogin(finance, financeName);
  await expect(finance.getByRole('link', { name: '运营账号' })).toHaveCount(0); // not a finance screen
  await finance.goto(`/admin/orders?q=${orderNo}`);
  await hydrated(finance);
  await finance.getByTestId('order-table').getByRole('link', { name: '详情' }).click();
  await expect(finance.getByTestId('order-state')).toHaveText('已支付');
  await hydrated(finance);
  await finance.getByRole('button', { name: '退款' }).click();
  const preview = finance.getByTestId('refund-preview');
  await expect(preview).toContainText('全额退款 ¥40.38');
  await finance.screenshot({ path: `.tmp/shots/admin-refund-${testInfo.project.name}.png`, fullPage: true });
  await preview.getByLabel(/退款原因/).fill('客户申请退款');
  await finance.getByRole('button', { name: '确认退款' }).click();
  await expect(finance.getByTestId('order-state')).toHaveText('已退款');
  await expect(finance.getByTestId('order-refunds')).toContainText('已退回微信支付');
  // An unpaid order open at WeChat Pay and at Alipay (docs/decisions/244): the button names both rails, each attempt is
  // asked of its own provider and answers in its rail's words.
  const unpaid = await api<{ orderNo: string }>(customer, 'PayOrder.BuyProxy', { mealId: 101_010, units: 1 });
  await api(customer, 'PayOrder.GetPayCode', { orderNo: unpaid.orderNo, rail: 'alipay' });
  await finance.goto(`/admin/orders/${unpaid.orderNo}`);
  await hydrated(finance);
  await finance.getByRole('button', { name: '向微信支付和支付宝查询' }).click();
  const answer = finance.getByTestId('toast').filter({ hasText: '支付宝答复：未支付' });
  await expect(answer).toContainText('微信支付答复：未支付');
  // Finance reads its own entries in the audit log (docs/decisions/203): the refund it made, and not the operator the
  // admin created.
  await finance.goto('/admin/audit');
  await expect(finance.getByTestId('audit-table')).toContainText('订单退款');
  await expect(finance.getByTestId('audit-table')).not.toContainText('新建运营账号');

  // A customer suspended from the console is logged out at once.
  const phone = freshPhone();
  const suspended = await playwright.request.newContext(baseURL ? { baseURL } : {});
  await api(suspended, 'User.GetCode', { phone });
  const probe = await newPage(browser, baseURL);
  await api(suspended, 'User.LoginRegister', { phone, code: await codeFor(probe, phone) });
  const { id: userId } = await api<{ id: number }>(suspended, 'User.GetMineInfo');
  await page.goto(`/admin/customers/${userId}`);
  await hydrated(page);
  await page.getByRole('button', { name: '停用账号' }).click();
  await page.getByLabel('原因（记入操作日志）').fill('测试停用');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByTestId('customer-status')).toHaveText('已停用');
  await expect(page.getByRole('link', { name: '客户', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: `.tmp/shots/admin-customer-${testInfo.project.name}.png`, fullPage: true });
  expect((await suspended.post('/api', { data: { A: 'User.GetMineInfo', P: {} } })).status()).toBe(401);

  // The audit log shows each step.
  await page.goto(`/admin/audit?operator=${financeName}`);
  await expect(page.getByTestId('audit-table')).toContainText('订单退款');
  await expect(page.getByTestId('audit-table')).toContainText('客户申请退款');
  await expect(page.getByTestId('audit-table')).toContainText('登录后台');
  await page.goto(`/admin/audit?operator=${adminName}`);
  for (const action of ['登录后台', '新建运营账号', '停用客户账号']) {
    await expect(page.getByTestId('audit-table')).toContainText(action);
  }
  await page.screenshot({ path: `.tmp/shots/admin-audit-${testInfo.project.name}.png`, fullPage: true });

  // The review queues open for the admin (admin passes every role) and are empty here.
  await page.goto('/admin/reviews');
  await expect(page.getByRole('heading', { name: '企业认证审核' })).toBeVisible();
  await page.goto('/admin/withdrawals');
  await expect(page.getByRole('navigation', { name: '提现状态' })).toBeVisible();
  await page.screenshot({ path: `.tmp/shots/admin-withdrawals-${testInfo.project.name}.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );
});

test('support grants a customer fixed IPs from the console: the form has the dedicated fields and the IPs are allocated at once @server-state', async ({
  page,
  browser,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = `${testInfo.project.name}${Date.now() % 100_000}`;
  const supportName = `grant_${tag}`;
  createOperator(supportName, '客服小李', 'support');
  const phone = freshPhone();
  const customer = await playwright.request.newContext(baseURL ? { baseURL } : {});
  await api(customer, 'User.GetCode', { phone });
  const probe = await newPage(browser, baseURL);
  await api(customer, 'User.LoginRegister', { phone, code: await codeFor(probe, phone) });
  const { id: userId } = await api<{ id: number }>(customer, 'User.GetMineInfo');

  await consoleLogin(page, supportName);
  await page.goto(`/admin/customers/${userId}`);
  await hydrated(page);
  const form = page.getByTestId('grant-form');
  // Extractable products: billing method, duration, amount.
  await expect(form.getByLabel('计费方式')).toBeVisible();
  await form.getByLabel('产品').selectOption({ label: '固定IP' });
  await expect(form.getByLabel('计费方式')).toHaveCount(0);
  const region = form.getByLabel(/^地区/);
  // The first region with a free IP of any carrier (the option says 电信/联通/移动 counts).
  const options = await region
    .locator('option')
    .evaluateAll((els) => els.map((o) => ({ value: o.getAttribute('value') ?? '', text: o.textContent ?? '' })));
  const value =
    options.find((o) => {
      const m = /（(\d+)\/(\d+)\/(\d+)）/.exec(o.text);
      return m !== null && Number(m[1]) + Number(m[2]) + Number(m[3]) > 0;
    })?.value ?? '';
  expect(value).not.toBe('');
  await region.selectOption(value);
  await form.getByLabel(/^IP数/).fill('1');
  await form.getByLabel(/^有效天数/).fill('7');
  await form.getByLabel(/^赠送原因/).fill('大客户测试补偿');
  await page.screenshot({ path: `.tmp/shots/admin-grant-${testInfo.project.name}.png`, fullPage: true });
  await form.getByRole('button', { name: '赠送' }).click();
  await expect(page.getByText(/已赠送并分配 1 个IP：/)).toBeVisible();
  const record = await api<{ list: { ip: string; live: boolean }[] }>(
    customer,
    'FixedAllocation.FixedIpConsumerRecord',
    {
      page: 1,
      pageSize: 10,
    },
  );
  expect(record.list.filter((a) => a.live)).toHaveLength(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1440,
  );
});
