// The operator console in browser journeys: operators are created by the documented bootstrap command (no SQL by
// hand) and log in at /admin/login as a person does, binding the authenticator at the first login.
import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { hydrated } from './helpers';

/** The wrangler state the e2e server runs on (scripts/e2e-server.mjs), where admin:create writes. */
export const STATE =
  process.env.E2E_STATE_DIR ?? (process.env.E2E_BASE_URL ? '' : `.tmp/e2e-state-${process.env.E2E_PORT ?? 8788}`);
export const OPERATOR_PASSWORD = 'journey-password-1234';

const PERIOD_MS = 30_000;
/** The step each secret last logged in with: the console accepts a code once, so the next login waits for a new one. */
const usedStep = new Map<string, number>();

/** The authenticator app: the current 6-digit code of a bound secret. */
const totpCode = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

/** The code a person would read off the app for this login: a fresh one when the current was already used. */
async function freshCode(secret: string): Promise<string> {
  const step = Math.floor(Date.now() / PERIOD_MS);
  if (usedStep.get(secret) === step) await new Promise((r) => setTimeout(r, (step + 1) * PERIOD_MS - Date.now() + 50));
  usedStep.set(secret, Math.floor(Date.now() / PERIOD_MS));
  return totpCode(secret);
}

/** `npm run admin:create` for one operator; role defaults to admin as the command's does. */
export function createOperator(username: string, name: string, role?: string, password = OPERATOR_PASSWORD): void {
  const out = execFileSync(
    process.execPath,
    [
      'scripts/admin-create.mjs',
      `--username=${username}`,
      `--name=${name}`,
      ...(role ? [`--role=${role}`] : []),
      `--password=${password}`,
      `--persist-to=${STATE}`,
    ],
    { encoding: 'utf8' },
  );
  expect(out).toContain(`operator "${username}" (${role ?? 'admin'}) created.`);
}

async function passwordStep(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await hydrated(page);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '下一步' }).click();
}

/**
 * Types the code key by key into the code field, as a person does: the field must arrive empty (it once arrived
 * holding the password) and must take exactly the six digits.
 */
async function typeCode(page: Page, code: string): Promise<void> {
  const field = page.getByRole('textbox', { name: '动态验证码' });
  await expect(field).toHaveValue('');
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await field.pressSequentially(code);
  await expect(field).toHaveValue(code);
}

async function landed(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/admin$/);
  // The dashboard is a full page load: act on it once it has loaded and hydrated, not while its HTML still streams.
  await hydrated(page);
}

/** The first login: binds the authenticator (the secret the page shows) and returns the secret. */
export async function consoleLogin(page: Page, username: string, password = OPERATOR_PASSWORD): Promise<string> {
  await passwordStep(page, username, password);
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByRole('img', { name: '动态验证码绑定二维码' })).toBeVisible();
  await typeCode(page, await freshCode(secret));
  await page.getByRole('button', { name: '绑定并登录' }).click();
  await landed(page);
  return secret;
}

/** A later login of an operator whose authenticator is bound: password, then the code from the app. */
export async function consoleLoginAgain(
  page: Page,
  username: string,
  secret: string,
  password = OPERATOR_PASSWORD,
): Promise<void> {
  await passwordStep(page, username, password);
  await expect(page.getByTestId('totp-secret')).toHaveCount(0);
  await typeCode(page, await freshCode(secret));
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await landed(page);
}

/**
 * The audit table says everything in words: no action code (Admin.X), no English word, no JSON, no epoch ms. Order
 * and refund numbers are identifiers quoted as they are; IP is a word of the products' names; the operators' account
 * names are theirs.
 */
export async function readsInWords(table: Locator, ids: string[]): Promise<void> {
  const text = (await table.innerText()).replace(/\b[a-z]+_[a-z0-9]+\b/g, '');
  const words = ids
    .reduce((t, id) => t.replaceAll(id, ''), text.replaceAll('IP', ''))
    .replace(/\bR\d{14}[A-Z0-9]+/g, '');
  expect(words, text).not.toMatch(/[A-Za-z]{2,}/);
  expect(text).not.toMatch(/(?<!\d)1[6-9]\d{11}(?!\d)/);
  expect(text).not.toMatch(/[{}"]/);
}
