// Foundation journeys: registration by SMS, the personal centre, logout, 404, old URLs and the guard.
import { expect, test } from '@playwright/test';
import { messages } from '../../src/lib/messages';
import { codeFor, freshPhone, hydrated, logIn, registerBySms } from './helpers';

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

test('a visitor registers by SMS code, lands in the personal centre, sees the masked phone, logs out and is sent to /', async ({
  page,
  isMobile,
}) => {
  const phone = freshPhone();
  await page.goto('/login?type=sms');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: '注册账号' })).toBeVisible();
  await page.getByPlaceholder('请输入11位手机号').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送')).toBeVisible();
  await expect(page.getByRole('button', { name: /秒后重发/ })).toBeDisabled();
  await page.getByPlaceholder('6位短信验证码').fill(await codeFor(page, phone));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '注册并登录' }).click();

  await expect(page).toHaveURL(/\/personalCenter$/);
  await expect(page.getByTestId('pc-phone')).toHaveText(masked(phone));
  await expect(page.getByTestId('pc-identity')).toHaveText('未认证');
  // The seed's real-name gate prompts an unverified user on /personalCenter; they may postpone it.
  await expect(page.getByTestId('real-name-prompt')).toBeVisible();
  await page.getByRole('button', { name: '稍后再说' }).click();
  await expect(page.getByTestId('real-name-prompt')).toHaveCount(0);

  if (isMobile) {
    await page.getByTestId('mobile-account-button').click();
    await expect(page.getByTestId('account-drawer')).toBeVisible();
    await expect(page.locator('body')).toHaveClass(/scroll-locked/);
    await expect(page.getByTestId('account-drawer').getByText(masked(phone))).toBeVisible();
    await page.getByTestId('account-drawer').getByRole('button', { name: '退出登录' }).click();
  } else {
    await expect(page.getByTestId('header-phone')).toHaveText(masked(phone));
    await page.getByTestId('header-phone').hover();
    const panel = page.getByTestId('account-panel');
    await expect(panel.getByTestId('identity-label')).toHaveText('未认证');
    await panel.getByRole('button', { name: '退出登录' }).click();
  }
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(masked(phone))).toHaveCount(0);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'token')).toBeUndefined();
  expect(cookies.find((c) => c.name === 'Mine_Info')).toBeUndefined();

  // The old session is gone for good: the personal centre sends us to /login.
  await page.goto('/personalCenter');
  await expect(page).toHaveURL(/\/login\?redirect=%2FpersonalCenter$/);
});

test('a returning user logs in with a password and is taken back where they were going', async ({ page }) => {
  await page.goto('/personalCenter');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await hydrated(page);
  await page.getByPlaceholder('请输入11位手机号').fill('13800138000');
  await page.getByPlaceholder('请输入密码').fill('demo1234');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/personalCenter$/);
  await expect(page.getByTestId('pc-identity')).toHaveText('个人已认证');
});

test('a wrong password shows the server message by the password field and stays on the login page', async ({
  page,
}) => {
  await page.goto('/login');
  await hydrated(page);
  // A number nobody registered: repeated runs against one server cannot lock it.
  await page.getByPlaceholder('请输入11位手机号').fill(freshPhone());
  await page.getByPlaceholder('请输入密码').fill('wrong-password1');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByTestId('secret-error')).toHaveText('手机号或密码错误');
  await expect(page.getByPlaceholder('请输入密码')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/login$/);
});

test('an expired session shows the login-expired notice and goes to /login', async ({ page }) => {
  await logIn(page, '13800138000');
  await hydrated(page);
  // The server forgets the session (as after expiry) while the page is open; the next call gets 401.
  const token = (await page.context().cookies()).find((c) => c.name === 'token');
  expect(token).toBeDefined();
  await page.context().addCookies([{ ...(token as NonNullable<typeof token>), value: 'expired-token' }]);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(page).toHaveURL(/\/login\?expired=1$/);
  await expect(page.getByTestId('toast').filter({ hasText: '登录已过期，请重新登录' })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === 'Mine_Info')).toBeUndefined();
});

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  const res = await page.goto('/this/page/does-not-exist');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByTestId('site-header')).toBeVisible();
  await expect(page.getByTestId('site-footer')).toBeVisible();
  await page.getByTestId('back-home').click();
  await expect(page).toHaveURL(/\/$/);
});

test('an old /my/... URL lands on its new page', async ({ page }) => {
  await logIn(page, '13800138000');
  await page.goto('/my/user/index');
  await expect(page).toHaveURL(/\/personalCenter$/);
  await expect(page.getByTestId('account-summary')).toBeVisible();
  const res = await page.request.get('/my/proxy/index', { maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(res.headers().location).toBe('/personalCenter/packageManager/10');
});

test('a logged-out visit to /personalCenter/orderManager ends on /login', async ({ page }) => {
  await page.goto('/personalCenter/orderManager');
  await expect(page).toHaveURL(/\/login\?redirect=%2FpersonalCenter%2ForderManager$/);
  await expect(page.getByTestId('login-form')).toBeVisible();
});

test('the site sections are one tap or hover away: a left drawer on phones, hover panels on desktop', async ({
  page,
  isMobile,
}) => {
  await page.goto('/');
  await hydrated(page);
  if (isMobile) {
    await page.getByTestId('mobile-menu-button').click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: '短效动态IP' })).toBeVisible();
    await expect(page.locator('body')).toHaveClass(/scroll-locked/);
    await menu.getByRole('button', { name: '关闭菜单' }).click({ position: { x: 370, y: 400 } });
    await expect(menu).toBeHidden();
    await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);
  } else {
    await expect(page.getByTestId('mobile-menu-button')).toBeHidden();
    const nav = page.getByRole('navigation', { name: '主导航' });
    const panelLink = nav.getByRole('link', { name: /^短效动态IP/ });
    await expect(panelLink).toBeHidden();
    await nav.getByRole('link', { name: '产品订购' }).hover();
    await expect(panelLink).toBeVisible();
  }
});

test('the home header is transparent at the top and solid after scrolling', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const header = page.getByTestId('site-header');
  await expect(header).toHaveAttribute('data-transparent', '1');
  await page.mouse.wheel(0, 600);
  await expect(header).toHaveAttribute('data-transparent', '0');
  await page.goto('/login');
  await expect(page.getByTestId('site-header')).toHaveAttribute('data-transparent', '0');
});

test('a toast stays for 3 seconds', async ({ page }) => {
  await page.clock.install();
  // Login errors sit by their field; the code-sent confirmation is a toast.
  await page.goto('/login?type=sms');
  await hydrated(page);
  await page.getByPlaceholder('请输入11位手机号').fill(freshPhone());
  // From here time moves only when the test says so (a slow machine must not age the toast).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2000);
  await page.getByRole('button', { name: '获取验证码' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toHaveText(messages.codeSent);
  await page.clock.runFor(2900);
  await expect(toast).toBeVisible();
  await page.clock.runFor(200);
  await expect(toast).toHaveCount(0);
});

test('the page reloads itself within the hour after a new build goes live', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await hydrated(page);
  await page.evaluate(() => {
    (window as unknown as { marker: number }).marker = 1;
  });
  await page.clock.runFor(30 * 60_000);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  await page.route('**/builds/latest.json', (route) => route.fulfill({ json: { buildId: 'a-newer-build' } }));
  const reloaded = page.waitForEvent('load');
  await page.clock.runFor(30 * 60_000);
  await reloaded;
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined();
});

test.describe('a visitor who came through a seller link', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('sees the assigned seller phone in the get-proxy panel after registering and can copy it', async ({
    page,
    isMobile,
  }) => {
    await page.goto('/?did=seller01&from=seller');
    await registerBySms(page, freshPhone());
    await page.getByRole('button', { name: '稍后再说' }).click();
    await page.goto('/getProxy/10');
    await hydrated(page);
    // An unverified user meets the seed's real-name prompt on every public page.
    await page.getByRole('button', { name: '稍后再说' }).click();
    if (isMobile) {
      await page.getByTestId('mobile-menu-button').click();
      await page.getByTestId('mobile-menu').getByRole('button', { name: '获取代理' }).click();
    } else {
      await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '获取代理' }).hover();
    }
    const contact = page.locator('[data-testid="seller-contact"]:visible');
    await expect(contact).toContainText('13600136000');
    await contact.getByRole('button', { name: '复制' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: '复制成功' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('13600136000');
  });
});
