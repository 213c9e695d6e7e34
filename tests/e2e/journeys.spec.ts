// Every journey without a stumble (issue 24): each operator role walks every console screen its role may open (the
// list comes from the console's own navigation, so new screens are covered) and the detail pages reached from them;
// the returning customer walks the personal centre and the buy pages. On none of them an error toast, a raw code or an
// English word (screen-check.ts), and on a 390 px phone none is wider than the screen.
import { expect, type Page, test } from '@playwright/test';
import { readyNav } from '../../src/lib/personal-center-nav';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/lib/operator-roles';
import { consoleLogin, createOperator } from './console';
import { hydrated, logIn } from './helpers';
import { screenProblems, watchErrorToasts } from './screen-check';

/** Opens each path and collects what is wrong on it, as "path: problem" lines. */
async function walk(page: Page, paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await hydrated(page);
    for (const p of await screenProblems(page)) found.push(`${path}: ${p}`);
  }
  return found;
}

/** The first link on a screen matching the selector (a detail page reached as an operator reaches it). */
async function firstLink(page: Page, path: string, selector: string): Promise<string | null> {
  await page.goto(path);
  await hydrated(page);
  const link = page.locator(selector).first();
  return (await link.count()) ? link.getAttribute('href') : null;
}

/** Detail pages each screen leads to, for the roles that may open that screen. */
async function detailPages(page: Page, screens: string[]): Promise<string[]> {
  const out: string[] = [];
  const add = async (screen: string, selector: string) => {
    if (!screens.includes(screen)) return;
    const href = await firstLink(page, screen, selector);
    expect(href, `a detail link on ${screen}`).toBeTruthy();
    if (href) out.push(href);
  };
  await add('/admin/customers', 'a[href^="/admin/customers/"]');
  await add('/admin/orders', 'a[href^="/admin/orders/D"]');
  await add('/admin/help', 'a[href^="/admin/help/"]:not([href$="/new"])');
  if (screens.includes('/admin/help')) out.push('/admin/help/new');
  return out;
}

const ROLE_NAME: Record<OperatorRole, string> = {
  admin: '巡检管理员',
  finance: '巡检财务',
  support: '巡检客服',
  content: '巡检编辑',
  ops: '巡检运维',
};

for (const role of OPERATOR_ROLES) {
  test(`an operator of the ${role} role reads every screen of their console without an error, a raw code or an English word @server-state`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    // Letters and digits only: a login name on screen is an identifier, not a word.
    const username = `${role}${testInfo.project.name}${Date.now() % 1_000_000}`;
    createOperator(username, ROLE_NAME[role], role);
    await watchErrorToasts(page);
    await consoleLogin(page, username);
    // The screens the console's menu lists for this role (the server derives them from the registry's access).
    const screens = await page
      .getByRole('navigation', { name: '运营后台' })
      .getByRole('link')
      .evaluateAll((links) => links.map((l) => new URL((l as HTMLAnchorElement).href).pathname));
    expect(screens.length).toBeGreaterThan(role === 'admin' ? 10 : 1);
    const details = await detailPages(page, screens);
    expect(await walk(page, [...screens, ...details])).toEqual([]);
  });
}

test('the returning customer reads the personal centre and the buy pages without an error, a raw code or an English word', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await watchErrorToasts(page);
  // The demo returning customer (development seed): gift packages, orders, coupons, a verified account.
  await logIn(page, '13800138000');
  const centre = readyNav().flatMap((g) => g.items.map((i) => i.href));
  const more = [
    '/personalCenter/buy?type=10&tab=2',
    '/personalCenter/buy?type=30&tab=2',
    '/personalCenter/packageManager/30',
    '/buy?type=10',
    '/buy?type=30',
    '/',
  ];
  expect(await walk(page, [...centre, ...more])).toEqual([]);
});
