// Test fixtures for accounts: SMS codes, sessions, login bookkeeping and account status, read and forced in D1 by
// name (the integration tests hold no SQL; a read here answers one question, a write forces one state).
import { env } from 'cloudflare:test';
import { ACCOUNT_STATUS, type AccountStatus } from '../../src/lib/console-states';
import { MINUTE_MS } from '../../src/lib/time';
import { hashPassword } from '../../src/server/crypto';

// --- SMS codes ---

export interface StoredSmsCode {
  codeHash: string;
  /** expires_at - created_at: how long the code was issued for, in ms. */
  ttlMs: number;
}

/** The stored code of a phone (the only one, or the first): its hash and lifetime. */
export async function smsCodeOf(phone: string): Promise<StoredSmsCode | null> {
  const row = await env.DB.prepare('SELECT code_hash, expires_at - created_at AS ttl FROM sms_codes WHERE phone = ?')
    .bind(phone)
    .first<{ code_hash: string; ttl: number }>();
  return row ? { codeHash: row.code_hash, ttlMs: row.ttl } : null;
}

/** How many codes were issued to a phone (or to anyone, without a phone). */
export async function smsCodeCount(phone?: string): Promise<number> {
  const row =
    phone === undefined
      ? await env.DB.prepare('SELECT count(*) AS n FROM sms_codes').first<{ n: number }>()
      : await env.DB.prepare('SELECT count(*) AS n FROM sms_codes WHERE phone = ?').bind(phone).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Move every issued code (or a phone's) back in time by `ms`: the per-minute resend wait has passed (2 minutes by default). */
export async function ageSmsCodes(ms = 2 * MINUTE_MS, phone?: string): Promise<void> {
  if (phone === undefined) await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - ?').bind(ms).run();
  else await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - ? WHERE phone = ?').bind(ms, phone).run();
}

/** Record login codes as sent to a phone at the given times (to reach the hourly and daily sending limits). */
export async function codesSentAt(phone: string, times: number[], ip = '203.0.113.1'): Promise<void> {
  const now = Date.now();
  await env.DB.batch(
    times.map((at) =>
      env.DB.prepare(
        "INSERT INTO sms_codes (phone, purpose, code_hash, client_ip, created_at, expires_at) VALUES (?, 'login', 'x', ?, ?, ?)",
      ).bind(phone, ip, at, now),
    ),
  );
}

/** Let a phone's codes expire (1 ms ago). */
export async function expireSmsCodes(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE sms_codes SET expires_at = ? WHERE phone = ?')
    .bind(Date.now() - 1, phone)
    .run();
}

// --- sessions ---

/** The stored token hash of every customer session. */
export async function sessionTokenHashes(): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT token_hash FROM sessions').all<{ token_hash: string }>();
  return results.map((r) => r.token_hash);
}

/** How many customer sessions are stored. */
export async function sessionCount(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
  return row?.n ?? 0;
}

/** End every customer session (as if each had logged out). */
export async function deleteAllSessions(): Promise<void> {
  await env.DB.prepare('DELETE FROM sessions').run();
}

/** Every customer session was last seen at `at` (to pass the idle limit). */
export async function setSessionsLastSeen(at: number): Promise<void> {
  await env.DB.prepare('UPDATE sessions SET last_seen_at = ?').bind(at).run();
}

/** Every customer session expires at `at` (to pass the absolute limit). */
export async function setSessionsExpiry(at: number): Promise<void> {
  await env.DB.prepare('UPDATE sessions SET expires_at = ?').bind(at).run();
}

// --- users ---

/** How many users hold a phone (0 or 1), optionally only those registered from a source type. */
export async function usersWithPhone(phone: string, sourceType?: number): Promise<number> {
  const row =
    sourceType === undefined
      ? await env.DB.prepare('SELECT count(*) AS n FROM users WHERE phone = ?').bind(phone).first<{ n: number }>()
      : await env.DB.prepare('SELECT count(*) AS n FROM users WHERE phone = ? AND source_type = ?')
          .bind(phone, sourceType)
          .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Set a phone's account status (or every account's, without a phone). */
export async function setAccountStatus(status: AccountStatus, phone?: string): Promise<void> {
  if (phone === undefined) await env.DB.prepare('UPDATE users SET status = ?').bind(status).run();
  else await env.DB.prepare('UPDATE users SET status = ? WHERE phone = ?').bind(status, phone).run();
}

/** Disable a phone's account (or every account, without a phone) as an operator would. */
export const disableAccount = (phone?: string) => setAccountStatus(ACCOUNT_STATUS.disabled, phone);

/** Give a phone's account a login password (cheap hash iterations for speed). */
export async function setUserPassword(phone: string, password: string, iterations = 1000): Promise<void> {
  await env.DB.prepare('UPDATE users SET password_hash = ? WHERE phone = ?')
    .bind(await hashPassword(password, iterations), phone)
    .run();
}

/** Let a phone's temporary login lock lapse (it ended 1 ms ago). */
export async function lapseLoginLock(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE users SET locked_until = ? WHERE phone = ?')
    .bind(Date.now() - 1, phone)
    .run();
}

/** How many password attempts from a client IP are on record. */
export async function loginAttemptsFrom(ip: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM login_attempts WHERE client_ip = ?')
    .bind(ip)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Set a customer's old users.role column (which grants nothing any more: operators are their own accounts). */
export async function setLegacyUserRole(phone: string, role: 'user' | 'operator'): Promise<void> {
  await env.DB.prepare('UPDATE users SET role = ? WHERE phone = ?').bind(role, phone).run();
}

// --- API credentials ---

/** Put a plain extraction key in a user's credentials, as rows from before keys were stored hashed (migration 0029). */
export async function setLegacyPlainApiKey(userId: number, plain: string): Promise<void> {
  await env.DB.prepare('UPDATE proxy_api_credentials SET api_key = ? WHERE user_id = ?').bind(plain, userId).run();
}

/** Put a plain proxy password (without its verifier) in a user's credentials, as rows from before sealing. */
export async function setLegacyPlainProxyPassword(userId: number, plain: string): Promise<void> {
  await env.DB.prepare(
    "UPDATE proxy_api_credentials SET proxy_password = ?, proxy_password_verifier = '' WHERE user_id = ?",
  )
    .bind(plain, userId)
    .run();
}

/** How many stored proxy passwords are not sealed (gcm1:...). */
export async function unsealedProxyPasswordCount(): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM proxy_api_credentials WHERE proxy_password NOT LIKE 'gcm1:%'",
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

/** How many customer accounts exist. */
export async function userCount(): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM users').first<{ n: number }>())?.n ?? 0;
}

/** How many coupons customers hold (in any state). */
export async function userCouponCount(): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM user_coupons').first<{ n: number }>())?.n ?? 0;
}
