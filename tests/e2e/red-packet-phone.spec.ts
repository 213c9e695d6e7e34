// On a 390 px phone the red packet never covers the page (issue 24): a floating disc once covered the start of the
// order bar's 应付 on /buy and the home page's section headings. Every heading and section subtitle is brought to the
// bottom of what the phone shows (just above the order bar where there is one), and the packet's box must not touch
// it, nor the order bar's amount; the packet is still there to tap.
import { expect, type Page, test } from '@playwright/test';
import { freshPhone, hydrated, networkOfItsOwn, postponeGate, registerBySms } from './helpers';

/** What the packet covers on this page: each heading, subtitle or order-bar amount its box intersects. */
async function covered(page: Page): Promise<string[]> {
  const badge = page.getByTestId('red-packet-button');
  await expect(badge).toBeVisible();
  return page.evaluate(() => {
    const packet = document.querySelector('[data-testid="red-packet-button"]');
    const bar = document.querySelector('[data-testid="order-bar"]');
    if (!packet) return ['no red packet'];
    const hit = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width > 0 && b.width > 0;
    const out: string[] = [];
    // The sticky order bar's price and its 应付 label, where they are.
    for (const el of bar ? Array.from(bar.querySelectorAll('a, [data-testid="order-bar-pay"]')) : []) {
      if (hit(packet.getBoundingClientRect(), el.getBoundingClientRect())) out.push(`order bar: ${el.textContent}`);
    }
    const targets = Array.from(
      document.querySelectorAll('main h1, main h2, main h3, main h4, main h2 + p, main h3 + p'),
    );
    for (const el of targets) {
      if (!el.checkVisibility() || (bar?.contains(el) ?? false)) continue;
      // At the bottom of what the phone shows, above the order bar: where a floating disc sat.
      el.scrollIntoView({ block: 'end' });
      if (bar) window.scrollBy(0, bar.getBoundingClientRect().height);
      if (hit(packet.getBoundingClientRect(), el.getBoundingClientRect())) out.push(`${el.tagName}: ${el.textContent}`);
    }
    return out;
  });
}

test('on a phone the red packet covers no heading, no section subtitle and not the order bar’s amount @phone', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const look = async (path: string) => {
    await page.goto(path);
    await hydrated(page);
    expect(await covered(page), path).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  };
  for (const path of ['/', '/buy?type=10', '/buy?type=30']) await look(path);

  // A customer who has not received it yet sees it in the personal centre's buy page too.
  await page.context().setExtraHTTPHeaders(networkOfItsOwn());
  await registerBySms(page, freshPhone());
  await postponeGate(page);
  await page.goto('/personalCenter/buy?type=10');
  await hydrated(page);
  expect(await covered(page), 'personal centre buy page').toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
