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

/** Log in with a password on /login (the demo accounts use demo1234) and land in the personal centre. */
export async function logIn(page: Page, phone: string, password = 'demo1234'): Promise<void> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByPlaceholder('请输入11位手机号').fill(phone);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/personalCenter$/);
}

/** Register a fresh phone by SMS code on /login?type=sms and land in the personal centre. */
export async function registerBySms(page: Page, phone: string): Promise<void> {
  await page.goto('/login?type=sms');
  await hydrated(page);
  await page.getByPlaceholder('请输入11位手机号').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送')).toBeVisible();
  await page.getByPlaceholder('6位短信验证码').fill(await codeFor(page, phone));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/personalCenter$/);
}

/** Closes the real-name prompt a new, unverified customer meets (稍后再说). */
export async function postponeGate(page: Page): Promise<void> {
  const prompt = page.getByRole('dialog', { name: '请完成实名认证' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: '稍后再说' }).click();
  await expect(prompt).toHaveCount(0);
}

/**
 * A client address of its own for each device. SMS codes are limited per client IP and hour (wrangler dev takes the
 * address from cf-connecting-ip), and every journey here registers people: from one address a whole suite would hit
 * 当前网络请求验证码过于频繁. Real users come from their own networks.
 */
export const networkOfItsOwn = () => ({
  'cf-connecting-ip': `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`,
});

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];

/** A valid, unused resident ID number (GB 11643): one identity may verify only one account, so each run needs its own. */
export function freshIdNumber(): string {
  const seconds = Math.floor(Date.now() / 1000);
  const birth = new Date(Date.UTC(1960, 0, 1) + (seconds % 15_000) * 86_400_000); // a day between 1960 and 2001
  const date = birth.toISOString().slice(0, 10).replace(/-/g, '');
  const serial = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
  const first17 = `110101${date}${serial}`;
  const sum = [...first17].reduce((s, ch, i) => s + Number(ch) * (ID_WEIGHTS[i] ?? 0), 0);
  return `${first17}${'10X98765432'[sum % 11]}`;
}

/** Call an /api action as the page's own code does (its session and cookies) and return the answer's P. */
export async function callAction<T>(page: Page, name: string, input: unknown = {}): Promise<T> {
  const body = await page.evaluate(
    async ([a, p]) => {
      const res = await fetch('/api', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'source-type': '1' },
        body: JSON.stringify({ A: a, P: p }),
      });
      return res.json();
    },
    [name, input] as const,
  );
  expect(body, `${name} answers`).toHaveProperty('P');
  return (body as { P: T }).P;
}

/**
 * On 发票管理: save a company title, then pick the paid order (until the form shows `picked`: the form can render again
 * once the saved title arrives) and submit the request; returns the list's newest request.
 */
export async function requestInvoice(page: Page, o: { company: string; orderNo: string; picked: string }) {
  await page.goto('/personalCenter/invoice');
  await hydrated(page);
  const titleForm = page.getByTestId('invoice-title-form');
  await titleForm.getByLabel('企业名称').fill(o.company);
  await titleForm.getByLabel('税号（统一社会信用代码）').fill('91350100M000100Y43');
  await titleForm.getByRole('button', { name: '保存抬头' }).click();
  await expect(page.getByTestId('invoice-titles')).toContainText('税号 91350100M000100Y43');
  await hydrated(page);
  const apply = page.getByTestId('invoice-apply-form');
  await apply.getByLabel('接收邮箱').fill('finance@example.com');
  await expect(async () => {
    if (!((await apply.textContent()) ?? '').includes('已选 1 笔')) {
      await apply.getByTestId('invoice-orders').getByText(o.orderNo).click();
    }
    await expect(apply).toContainText(o.picked, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await apply.getByRole('button', { name: '提交申请' }).click();
  return page.getByTestId('invoice-requests').locator('li').first();
}
