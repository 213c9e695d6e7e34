// Journey helpers: read SMS codes from the development outbox, unique phones per run, hydration waits.
import { expect, type Page } from '@playwright/test';

let counter = 0;
/** A fresh mobile number for this run. */
export function freshPhone(): string {
  counter += 1;
  const tail = `${Date.now() % 1_000_000}${counter}`.slice(-7).padStart(7, '0');
  return `137${String(counter % 10)}${tail}`;
}

/** The newest SMS code sent to a phone, as the development outbox holds it. */
export async function codeFor(page: Page, phone: string): Promise<string> {
  let code = '';
  await expect(async () => {
    const res = await page.request.get(`/dev/sms-outbox?phone=${phone}`);
    const body = (await res.json()) as { messages: { params: { code: string } }[] };
    code = body.messages[0]?.params.code ?? '';
    expect(code).toMatch(/^\d{6}$/);
  }).toPass();
  return code;
}

/** Wait until React has hydrated the page (clicks before hydration are lost). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForLoadState('networkidle');
}
