// Screenshots pages at desktop (1440 px) and mobile (390 px) widths in Debian's Chromium, for looking at what we built.
// Usage: node scripts/screenshot.mjs [base=http://127.0.0.1:8787] path [path ...]   (files in .tmp/shots/)
import { mkdirSync } from 'node:fs';
import { launchChromium } from './lib/chromium.mjs';

const args = process.argv.slice(2);
const base = args[0]?.startsWith('http') ? args.shift() : 'http://127.0.0.1:8787';
const cookie = process.env.SHOT_COOKIE;
mkdirSync('.tmp/shots', { recursive: true });
const browser = await launchChromium();
for (const [name, width, height] of [
  ['desktop', 1440, 900],
  ['mobile', 390, 844],
]) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, locale: 'zh-CN' });
  if (cookie) {
    await context.addCookies(
      cookie
        .split(';')
        .filter((c) => c.includes('='))
        .map((c) => {
          const [k, ...v] = c.trim().split('=');
          return { name: k, value: v.join('='), url: base };
        }),
    );
  }
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  for (const path of args) {
    await page.goto(base + path, { waitUntil: 'networkidle' });
    const file = `.tmp/shots/${name}${path.replace(/[^\w]+/g, '_') || '_root'}.png`;
    await page.screenshot({ path: file, fullPage: process.env.SHOT_FULL !== '0' });
    console.log(file, errors.length ? `errors: ${errors.join(' | ')}` : '');
    errors.length = 0;
  }
  await context.close();
}
await browser.close();
