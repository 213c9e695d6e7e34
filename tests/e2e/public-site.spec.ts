// Public-site journeys: the seed's content on every public route, 404s for unknown slugs, a captured promotion link,
// the chat widget only where allowed, and code-sample zips that unpack into programs naming our extraction API.

import { expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { hydrated } from './helpers';

const PUBLIC_ROUTES: [string, RegExp][] = [
  ['/', /高匿名代理IP/],
  ['/businessScen/priceMonitoring', /价格监控代理IP解决方案/],
  ['/demo', /30秒看懂一次代理IP提取/],
  ['/firmsServer', /企业服务|1000\+企业/],
  ['/getProxy/10', /获取短效动态IP/],
  ['/getProxy/40', /获取长效静态IP/],
  ['/help', /帮助中心/],
  ['/help/api-extraction.html', /API提取教程/],
  ['/help/detail_105.html', /提取参数详解/],
  ['/help/search/白名单', /共找到/],
  ['/helpDetails/quick-start.html', /五分钟快速上手/],
  ['/region', /全国\d+个城市/],
  ['/region/data', /地区数据/],
  ['/privacyPolicy', /隐私政策/],
  ['/userAgreement', /用户协议/],
  ['/rebate', /推广返利|最高可得20%返佣/],
];

test('every public route renders its Chinese content without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e}`));
  for (const [path, heading] of PUBLIC_ROUTES) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await expect(page.locator('h1').first(), path).toHaveText(heading);
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
  }
  expect(errors).toEqual([]);
});

test('a page asks for its JavaScript only once its content is painted, then hydrates (docs/decisions/175)', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/');
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const js = performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/[^/]+\.js$/.test(new URL(e.name).pathname))
      .map((e) => e.startTime);
    return { fcp, firstJs: Math.min(...js), modules: js.length };
  });
  expect(timing.modules).toBeGreaterThan(5);
  expect(timing.firstJs).toBeGreaterThanOrEqual(timing.fcp);
  // React took over the server HTML (hydrated elements carry its fiber), and the preloads passed the CSP.
  await page.waitForFunction(() =>
    Object.keys(document.querySelector('main h1') ?? {}).some((k) => k.startsWith('__reactFiber')),
  );
  expect(errors).toEqual([]);
});

test('unknown scenario, product and article slugs are 404 pages', async ({ page }) => {
  for (const path of [
    '/businessScen/mining',
    '/getProxy/30',
    '/help/nothing-here.html',
    '/helpDetails/detail_9999.html',
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
});

test('the home page shows the notice, news, hot cities and nofollow friend links', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('home-notice')).toContainText('实名认证');
  await expect(page.getByTestId('hot-cities').locator('li')).toHaveCount(20);
  await expect(page.getByTestId('home-news').locator('li')).toHaveCount(6);
  await expect(page.getByTestId('friend-links').locator('a[rel~="nofollow"]').first()).toBeVisible();
  await page.goto('/help');
  await expect(page.getByTestId('friend-links')).toHaveCount(0);
});

test('a promotion link is captured into local storage and cookies; a malformed one is reported', async ({
  page,
  context,
}) => {
  await page.goto('/?did=u8842&from=seller&keyword=%E4%BB%A3%E7%90%86&bd_vid=bd-1');
  await hydrated(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('did'))).toBe('u8842');
  expect(await page.evaluate(() => localStorage.getItem('from'))).toBe('seller');
  expect(await page.evaluate(() => sessionStorage.getItem('bdVid'))).toBe('bd-1');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('fingerPrint'))).toMatch(/^[0-9a-f]{32}$/);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'did')?.value).toBe('u8842');
  await page.goto('/?did=%3Cbad%3E');
  await expect(page.getByText('推广链接有误，请联系客服')).toBeVisible();
});

test('the chat widget loads on desktop public pages only', async ({ page, isMobile }) => {
  await page.goto('/help');
  await hydrated(page);
  if (isMobile) {
    await page.waitForTimeout(1500);
    await expect(page.getByTestId('online-chat')).toHaveCount(0);
  } else {
    await expect(page.getByTestId('online-chat')).toBeVisible({ timeout: 5000 });
  }
});

/** The text files of a zip, read through its central directory (fflate's reader, independent of our writer). */
function unzipTexts(buf: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, data] of Object.entries(unzipSync(new Uint8Array(buf)))) {
    if (!name.endsWith('/')) files.set(name, strFromU8(data));
  }
  return files;
}

test('code-sample zips unpack into programs that call our extraction API', async ({ request }) => {
  for (const file of ['node', 'CSharp', 'python', 'java', 'kotlin', 'php', 'go', 'easy']) {
    const res = await request.get(`/code/${file}.zip`);
    expect(res.status(), file).toBe(200);
    const files = unzipTexts(await res.body());
    expect(
      [...files.keys()].some((n) => /README\.md$/.test(n)),
      file,
    ).toBe(true);
    expect(
      [...files.values()].some((t) => t.includes('/extract')),
      file,
    ).toBe(true);
  }
});
