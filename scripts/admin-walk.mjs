// Walks every operator console screen as a new admin and screenshots it at 1440 and 390 px, for looking at the
// console with the demo data (docs/decisions/165). Against a running preview:
//   npm run preview -- --name=walk --port=9441        (builds, migrates, seeds the demo data, serves)
//   node scripts/admin-walk.mjs http://127.0.0.1:9441 --persist-to=.tmp/preview-walk/state \
//     --config=.tmp/preview-walk/wrangler.toml   [--role=finance] [--only=catalogue,...]
// It creates an admin with scripts/admin-create.mjs, logs in at /admin/login binding TOTP (otpauth computes the codes),
// visits every route under src/pages/admin (detail pages included) and opens the dialogs (refund previews, suspend,
// node created). Shots: .tmp/admin-walk/<name>-<desktop|mobile>.png (full page). Prints the screens wider than 390 px
// on the phone and any page error; exits 1 if there was one.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { arg } from './lib/args.mjs';
import { launchChromium } from './lib/chromium.mjs';
import { Secret, TOTP } from 'otpauth';

const args = process.argv.slice(2);
const base = args.find((a) => a.startsWith('http')) ?? 'http://127.0.0.1:9441';
const out = arg('out') ?? '.tmp/admin-walk';
const only = arg('only')?.split(',');
mkdirSync(out, { recursive: true });

const username = `walk_${Date.now() % 1_000_000}`;
const password = randomBytes(12).toString('base64url');
execFileSync(
  process.execPath,
  [
    'scripts/admin-create.mjs',
    `--username=${username}`,
    '--name=巡检管理员',
    `--role=${arg('role') ?? 'admin'}`,
    `--password=${password}`,
    ...(arg('persist-to') ? [`--persist-to=${arg('persist-to')}`] : []),
    ...(arg('config') ? [`--config=${arg('config')}`] : []),
  ],
  { stdio: 'inherit' },
);

const browser = await launchChromium([
  // --lang: date and time inputs render as a Chinese operator's browser shows them.
  '--lang=zh-CN',
]);
const WIDTHS = [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
];
const problems = [];

/** Waits for the client leaves to hydrate (the console's forms and dialogs need it). */
async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300);
}

/** Full-page shot (a dialog is shot as the screen shows it: fixed layers cover only the viewport). */
async function shot(page, name, kind, { fullPage = true } = {}) {
  if (only && !only.includes(name)) return;
  await settle(page);
  await page.screenshot({ path: `${out}/${name}-${kind}.png`, fullPage });
  if (kind === 'mobile') {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) problems.push(`${name}: ${width}px wide on the phone`);
  }
}

/** The first link on the page whose href matches, or null. */
const firstHref = (page, re) =>
  page.$$eval(
    'a[href]',
    (as, src) => {
      const r = new RegExp(src);
      return as.map((a) => a.getAttribute('href')).find((h) => h && r.test(h)) ?? null;
    },
    re.source,
  );

let storageState;
for (const [kind, viewport] of WIDTHS) {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    baseURL: base,
    ...(kind === 'mobile' ? { isMobile: true, hasTouch: true } : {}),
    ...(storageState ? { storageState } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${kind} ${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${kind} ${page.url()}: console ${m.text()}`);
  });
  if (!storageState) {
    // First login: password, then the enrolment step shows the secret, the "authenticator" answers.
    await page.goto('/admin/login');
    await settle(page);
    await shot(page, 'login', kind);
    await page.getByLabel('账号').fill(username);
    await page.getByLabel('密码').fill(password);
    await page.getByRole('button', { name: '下一步' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    await shot(page, 'login-totp-enrol', kind);
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    await page.getByRole('textbox', { name: '动态验证码' }).fill(code);
    await page.getByRole('button', { name: '绑定并登录' }).click();
    await page.waitForURL(/\/admin$/);
    storageState = await context.storageState();
  } else {
    // The phone reuses the session; the login page is shot logged out in a context of its own.
    const guest = await browser.newContext({
      viewport,
      locale: 'zh-CN',
      baseURL: base,
      isMobile: true,
      hasTouch: true,
    });
    const g = await guest.newPage();
    await g.goto('/admin/login');
    await shot(g, 'login', kind);
    await guest.close();
  }

  const visit = async (name, path) => {
    const res = await page.goto(path);
    if (!res || res.status() >= 400) problems.push(`${kind} ${path}: HTTP ${res?.status()}`);
    await shot(page, name, kind);
  };

  await visit('dashboard', '/admin');
  await page
    .locator('[data-testid="dash-pool-regions"] summary')
    .click()
    .catch(() => undefined);
  await shot(page, 'dashboard-regions-open', kind);
  await visit('customers', '/admin/customers');
  await visit('customers-search', '/admin/customers?q=13500135001');
  const customer = await firstHref(page, /^\/admin\/customers\/\d+$/);
  await visit('customer-detail', customer ?? '/admin/customers/1');
  await page.getByRole('button', { name: '停用账号' }).click();
  await shot(page, 'customer-detail-suspend-dialog', kind, { fullPage: false });
  await page.keyboard.press('Escape');
  await visit('customer-suspended', '/admin/customers?q=13500135003');
  const suspended = await firstHref(page, /^\/admin\/customers\/\d+$/);
  if (suspended) await visit('customer-suspended-detail', suspended);

  await visit('orders', '/admin/orders');
  const orders = await page.$$eval('a[href^="/admin/orders/"]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
  await visit('orders-unpaid', '/admin/orders?state=1');
  const pick = (tail) => orders.find((h) => h.endsWith(tail)) ?? orders[0] ?? '/admin/orders/none';
  await visit('order-paid', pick('SEEDO00000000013'));
  await page.getByRole('button', { name: '退款', exact: true }).click();
  await page
    .getByTestId('refund-preview')
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await shot(page, 'order-paid-refund-dialog', kind, { fullPage: false });
  await page.keyboard.press('Escape');
  await visit('order-refunded', pick('SEEDO00000000005'));
  await visit('order-refund-needed', pick('SEEDO00000000010'));
  // The flagged attempt's own 退款 (Admin.RefundPaymentPreview; the refund itself is not executed by the walk).
  await page
    .getByTestId('payment-refund')
    .first()
    .click()
    .catch(() => undefined);
  await page
    .getByTestId('payment-refund-preview')
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await shot(page, 'order-refund-needed-dialog', kind, { fullPage: false });
  await page.keyboard.press('Escape');
  await visit('order-pending', pick('SEEDO00000000015'));

  await visit('reviews', '/admin/reviews');
  const licence = await page
    .$eval('[data-testid="review-licence"]', (img) => img.getAttribute('src'))
    .catch(() => null);
  // The image itself (served from private R2 to reviewers only), checked by request: a bare image is no console page.
  const image = licence ? await page.request.get(licence) : null;
  if (image?.status() !== 200 || image.headers()['content-type'] !== 'image/png')
    problems.push(`${kind} /admin/reviews: licence image ${licence} answered ${image?.status()}`);
  await visit('verifications', '/admin/verifications');
  await visit('withdrawals', '/admin/withdrawals');
  for (const state of [2, 3, 4]) await visit(`withdrawals-state${state}`, `/admin/withdrawals?state=${state}`);
  await visit('transfers', '/admin/transfers');
  await visit('invoices', '/admin/invoices');
  await visit('invoices-all', '/admin/invoices?state=');
  const invoice = await firstHref(page, /^\/admin\/invoices\/\d+$/);
  if (invoice) await visit('invoice-detail', invoice);
  await visit('catalogue', '/admin/catalogue');
  await visit('catalogue-filtered', '/admin/catalogue?type=40&billing=2&page=2');
  await visit('catalogue-meal-edit', '/admin/catalogue?type=10&page=3&meal=102410#meal-edit');
  await visit('catalogue-activity-edit', '/admin/catalogue?type=10&activity=1#activity-edit');
  await visit('catalogue-fixed', '/admin/catalogue?type=30');
  const region = await firstHref(page, /[?&]region=\d+/);
  await visit('catalogue-region-edit', region ?? '/admin/catalogue?type=30&region=1');
  await visit('campaigns', '/admin/campaigns');
  await visit('sellers', '/admin/sellers');
  await visit('help', '/admin/help');
  const article = await firstHref(page, /^\/admin\/help\/\d+$/);
  await visit('help-article', article ?? '/admin/help/1');
  await visit('help-new', '/admin/help/new');
  await visit('content', '/admin/content');
  await visit('consultations', '/admin/consultations');
  await visit('consultations-all', '/admin/consultations?state=all');
  await visit('nodes', '/admin/nodes');
  if (!only || only.includes('nodes-created-dialog')) {
    await page.getByLabel('节点名称').fill(`walk-${kind}-${Date.now() % 100_000}`);
    await page.getByLabel('节点名称').press('Enter');
    await page
      .getByTestId('node-secret')
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await shot(page, 'nodes-created-dialog', kind, { fullPage: false });
  }
  await visit('redirects', '/admin/redirects');
  await visit('egress', '/admin/egress');
  await visit('grants', '/admin/grants');
  await visit('trace', '/admin/trace');
  await visit('audit', '/admin/audit');
  await visit('operators', '/admin/operators');
  await context.close();
}
await browser.close();
console.log(`screenshots in ${out}/`);
if (problems.length) {
  console.log(problems.join('\n'));
  process.exit(1);
}
