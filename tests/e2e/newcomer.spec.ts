// A new customer's first visit (issue 13): consistent coverage figures, login and registration that keep where the
// visitor was going, errors next to the field, the account drawer and menu, scenario pages, the footer and the shell.
import { expect, test } from '@playwright/test';
import { SCENARIOS } from '../../src/lib/site';
import { codeFor, freshPhone, hydrated, logIn, networkOfItsOwn, registerBySms } from './helpers';

test('a visitor sees the same city count and availability on the home page, the region page and the login page', async ({
  page,
}) => {
  await page.goto('/region');
  const totals = page.getByTestId('region-totals');
  const cities = (await totals.locator('dd').nth(0).textContent())?.trim() ?? '';
  const availability = (await totals.locator('dd').nth(2).textContent())?.trim() ?? '';
  expect(cities).toMatch(/^\d+$/);
  expect(availability).toMatch(/^\d{2}\.\d{2}%$/);
  await expect(page.getByText('实时更新')).toHaveCount(0);

  await page.goto('/');
  const claims = page.getByTestId('home-claims');
  await expect(claims.getByText(cities, { exact: true })).toBeVisible();
  await expect(claims.getByText(availability, { exact: true })).toBeVisible();
  await expect(page.getByText(/实时更新/)).toHaveCount(0);
  await expect(page.getByText('300+', { exact: true })).toHaveCount(0);

  await page.goto('/login');
  const desktop = (page.viewportSize()?.width ?? 0) > 768;
  if (desktop) await expect(page.getByText(`${cities} 个城市节点，IP可用率 ${availability}`)).toBeVisible();
});

test('a visitor sent to log in follows 免费注册, registers by SMS and lands on the page they came from', async ({
  page,
}) => {
  const target = '/personalCenter/getAgent/whiteList';
  await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
  await hydrated(page);
  await page.getByTestId('login-form').getByRole('link', { name: '免费注册' }).click();
  await expect(page).toHaveURL(/\/login\?type=sms&redirect=%2FpersonalCenter%2FgetAgent%2FwhiteList$/);
  await hydrated(page);
  // Back and forth keeps it too.
  await expect(page.getByTestId('login-form').getByRole('link', { name: '立即登录' })).toHaveAttribute(
    'href',
    `/login?redirect=${encodeURIComponent(target)}`,
  );

  const phone = freshPhone();
  await page.getByPlaceholder('请输入11位手机号').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送')).toBeVisible();
  await page.getByPlaceholder('6位短信验证码').fill(await codeFor(page, phone));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
});

test('a login link never carries a destination on another site', async ({ page }) => {
  for (const evil of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
    await page.goto(`/login?redirect=${encodeURIComponent(evil)}`);
    await expect(page.getByTestId('login-form').getByRole('link', { name: '免费注册' })).toHaveAttribute(
      'href',
      '/login?type=sms',
    );
  }
});

test('a customer who mistypes the password sees why next to the password field, and the 密码 label only focuses it', async ({
  page,
}) => {
  await page.goto('/login');
  await hydrated(page);
  const password = page.getByLabel('密码', { exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  // Clicking the label focuses the field and stays on password login.
  await page.locator('label', { hasText: /^密码$/ }).click();
  await expect(password).toBeFocused();
  await expect(page.getByRole('tab', { name: '密码登录' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: '忘记密码？用验证码登录' })).toBeVisible();

  // A client-side error sits by its field.
  await page.getByRole('button', { name: '登录', exact: true }).click();
  const phoneField = page.getByLabel('手机号');
  await expect(phoneField).toHaveAttribute('aria-invalid', 'true');
  await expect(phoneField).toBeFocused();
  const phoneErrorId = await phoneField.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${phoneErrorId}"]`)).toHaveText(/手机号/);

  // The server's refusal too: by the password field, described by it, no distant toast.
  await phoneField.fill(freshPhone());
  await password.fill('wrong-password-1');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  const errorId = await password.getAttribute('aria-describedby');
  expect(errorId).toBeTruthy();
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText('手机号或密码错误');
  await expect(phoneField).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('toast').filter({ hasText: '手机号或密码错误' })).toHaveCount(0);
  // Typing again clears it.
  await password.fill('another-try');
  await expect(password).toHaveAttribute('aria-invalid', 'false');
});

test('a logged-in customer finds the personal-centre pages in the account menu and closes it with Esc', async ({
  page,
  isMobile,
}) => {
  await logIn(page, '13800138000');
  await hydrated(page);
  const opener = isMobile ? page.getByTestId('mobile-account-button') : page.getByTestId('header-phone');
  await opener.click();
  const links = page.getByTestId('account-links');
  for (const name of ['个人中心', '购买套餐', 'API提取', '订单管理', '优惠券', '账户设置']) {
    await expect(links.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(links.getByRole('link', { name: '订单管理' })).toHaveAttribute('href', '/personalCenter/orderManager');
  await page.keyboard.press('Escape');
  await expect(links).toBeHidden();
  await expect(opener).toBeFocused();

  if (isMobile) {
    // The drawer starts below the header, which stays visible, and has a named close button.
    await opener.click();
    const drawer = page.getByTestId('account-drawer');
    await expect(drawer).toBeVisible();
    const header = await page.getByTestId('site-header').boundingBox();
    const panel = await drawer.getByRole('dialog', { name: '我的账户' }).boundingBox();
    expect(panel?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
    await expect(page.getByRole('link', { name: '云枢代理 返回首页' })).toBeVisible();
    const close = drawer.getByRole('button', { name: '关闭账户面板' });
    await expect(close).toBeFocused();
    await close.click();
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);

    // The menu drawer closes on Esc too.
    const menuButton = page.getByTestId('mobile-menu-button');
    await menuButton.click();
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('mobile-menu')).toBeHidden();
    await expect(menuButton).toBeFocused();
  }
});

test('every personal-centre page a customer opens first has a page heading', async ({ page }) => {
  await logIn(page, '13800138000');
  const pages: [string, string][] = [
    ['/personalCenter', '个人中心'],
    ['/personalCenter/buy?type=10&tab=1', '购买套餐'],
    ['/personalCenter/orderManager', '订单管理'],
    ['/personalCenter/couponManager', '优惠券'],
  ];
  for (const [path, name] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  }
});

test('a visitor reading the new-media scenario gets usage steps for fixed IPs, not a broken extraction line', async ({
  page,
}) => {
  await page.goto('/businessScen/mediaMatrix');
  await expect(page.getByTestId('scenario-steps').getByRole('listitem')).toHaveCount(4);
  await expect(page.getByText(/GET \/extract/)).toHaveCount(0);
  await expect(page.getByText('在个人中心“长效IP管理”中为每个账号分配固定出口')).toHaveCount(0);
  await page.goto('/businessScen/adVerification');
  await expect(page.getByText('GET /extract?key=YOUR_KEY&type=40&num=10')).toBeVisible();
});

test('the footer lists all eight scenarios and the site-operator convention', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByTestId('site-footer');
  for (const s of SCENARIOS) {
    await expect(footer.getByRole('link', { name: s.label, exact: true })).toHaveAttribute(
      'href',
      `/businessScen/${s.type}`,
    );
  }
  await expect(footer.getByRole('link', { name: '网站运营者约定' })).toHaveAttribute('href', /^https:\/\//);
});

test('pages load without an invalid stylesheet preload', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('preload')) warnings.push(m.text());
  });
  for (const path of ['/', '/login', '/help']) {
    const html = await (await page.request.get(path)).text();
    // React 19.2's Flight hint wrote as="stylesheet"; fixed, the stylesheet preload is as="style" (or merged into
    // the stylesheet link itself).
    expect(html.includes('as="stylesheet"'), `${path} has a preload with as="stylesheet"`).toBe(false);
    await page.goto(path);
    await hydrated(page);
  }
  expect(warnings).toEqual([]);
});

test('the root font size grows smoothly with the window: no jump at the 768 px breakpoint', async ({ page }) => {
  const rootSize = async (width: number) => {
    await page.setViewportSize({ width, height: 800 });
    return page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));
  };
  await page.goto('/');
  const at768 = await rootSize(768);
  const at769 = await rootSize(769);
  expect(Math.abs(at769 - at768)).toBeLessThan(0.05);
  expect(await rootSize(390)).toBe(15);
  expect(await rootSize(1344)).toBeCloseTo(15.5, 1);
  expect(await rootSize(1920)).toBe(16);
  expect(await rootSize(2560)).toBe(16);
});

test('the extraction tool names its fields and drops a test result when the options change', async ({ page }) => {
  await logIn(page, '13800138000');
  await page.goto('/personalCenter/getAgent/api?type=10');
  await hydrated(page);
  await expect(page.getByRole('combobox', { name: '选择套餐' })).toBeVisible();
  await page.getByRole('textbox', { name: '提取密钥' }).fill('demo13800138000key0000000000abcd');
  const count = page.getByRole('spinbutton', { name: '提取数量' });
  await expect(count).toBeVisible();
  await page.getByTestId('try-link').click();
  await expect(page.getByTestId('try-result')).toBeVisible();
  await count.fill('7');
  await expect(page.getByTestId('try-result')).toHaveCount(0);
});

test("a new customer's bandwidth page speaks of 北京时间 and its empty chart draws no made-up scale", async ({
  page,
}) => {
  // Registering sends an SMS code, limited per client address: this journey comes from a network of its own.
  await page.context().setExtraHTTPHeaders(networkOfItsOwn());
  await registerBySms(page, freshPhone());
  await page.goto('/personalCenter/getAgent/bandwidth');
  const main = page.getByRole('main');
  await expect(main.getByText('按北京时间统计', { exact: false })).toBeVisible();
  await expect(main).not.toContainText('Asia/Shanghai');
  const chart = main.getByRole('img', { name: '下行、上行' }).locator('visible=true');
  await expect(chart).toContainText('暂无流量数据');
  // No traffic: the axis has no tick labels (it once read "0 B" and "1 B").
  await expect(chart).not.toContainText(/\d B/);
});
