// On a 390 px phone no page is wider than the screen: every public page (the sitemap's list) and every page of the
// personal centre's menu (logged in as the demo user). The lists come from the code, so new routes are covered.
import { expect, type Page, test } from '@playwright/test';
import { readyNav } from '../../src/lib/personal-center-nav';
import { STATIC_PUBLIC_PATHS } from '../../src/lib/public-pages';
import { hydrated, logIn } from './helpers';

const PHONE_WIDTH = 390;

/** Each path with the document's scroll width, for the ones wider than the phone. */
async function tooWide(page: Page, paths: string[]): Promise<string[]> {
  const wide: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await hydrated(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE_WIDTH) wide.push(`${path}: ${width}px`);
  }
  return wide;
}

test('a visitor on a phone never has to scroll sideways on any public page', async ({ page }) => {
  test.setTimeout(180_000);
  expect(await tooWide(page, STATIC_PUBLIC_PATHS)).toEqual([]);
});

test('a customer on a phone never has to scroll sideways in the personal centre', async ({ page }) => {
  test.setTimeout(180_000);
  await logIn(page, '13800138000');
  const paths = readyNav().flatMap((g) => g.items.map((i) => i.href));
  expect(paths.length).toBeGreaterThan(10);
  expect(await tooWide(page, paths)).toEqual([]);
});
