// Test fixtures for accounts: SMS codes, sessions, users (ids, status, passwords, locks, sellers), login bookkeeping and
// API credentials, read and forced in D1 by name (the integration tests hold no SQL; a read here answers one question,
// a write forces one state).
import { env } from 'cloudflare:test';
import { ACCOUNT_STATUS, type AccountStatus } from '../../src/lib/console-states';
import { MINUTE_MS } from '../../src/lib/time';
import { hashPassword } from '../../src/server/crypto';
import { hashExtractKey } from '../../src/server/domain/credential-secrets';
import { DEV_NODE_SECRET_KEY } from '../../src/server/env';
import { userChangedStatement } from '../../src/server/db/node-feed';
import { findUserByPhone, setPasswordHash, type UserRecord } from '../../src/server/db/users';
import { count, when } from './rows';

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
export const smsCodeCount = (phone?: string) => count('sms_codes', [when('phone = ?', phone)]);

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

/** How many customer sessions are stored, optionally of one user. */
export const sessionCount = (userId?: number) => count('sessions', [when('user_id = ?', userId)]);

/** End every customer session (as if each had logged out). */
export async function deleteAllSessions(): Promise<void> {
  await env.DB.prepare('DELETE FROM sessions').run();
}

/** Every customer session was last seen at `at` (to pass the idle limit). */
export async function setSessionsLastSeen(at: number): Promise<void> {
  await env.DB.prepare('UPDATE sessions SET last_seen_at = ?').bind(at).run();
}

/** Every customer session (or one user's) expires at `at` (to pass the absolute limit; at 1 the daily purge removes it). */
export async function setSessionsExpiry(at: number, userId?: number): Promise<void> {
  if (userId === undefined) await env.DB.prepare('UPDATE sessions SET expires_at = ?').bind(at).run();
  else await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?').bind(at, userId).run();
}

// --- users ---

/** The id of the user holding a phone (throws when there is none). */
export async function userIdOf(phone: string): Promise<number> {
  return (await accountOf(phone)).id;
}

/** The stored account of a phone (password hash, failed logins, lock, states); throws when there is none. */
export async function accountOf(phone: string): Promise<UserRecord> {
  const user = await findUserByPhone(env.DB, phone);
  if (!user) throw new Error(`no user ${phone}`);
  return user;
}

/** How many customer accounts exist. */
export const userCount = () => count('users');

/** How many users hold a phone (0 or 1), optionally only those registered from a source type. */
export const usersWithPhone = (phone: string, sourceType?: number) =>
  count('users', [when('phone = ?', phone), when('source_type = ?', sourceType)]);

/** A customer row with a chosen id and phone (nothing else), e.g. to search by id and phone tail. */
export async function customerWithId(id: number, phone: string): Promise<void> {
  const now = Date.now();
  await env.DB.prepare('INSERT INTO users (id, phone, created_at, updated_at) VALUES (?, ?, ?, ?)')
    .bind(id, phone, now, now)
    .run();
}

/** How many customers are assigned to a seller. */
export const sellerCustomerCount = (sellerId: number) => count('users', [when('seller_id = ?', sellerId)]);

/** How SQLite would run the customer search by phone tail (the EXPLAIN QUERY PLAN details, joined). */
export async function phoneTailSearchPlan(tail: string): Promise<string> {
  const plan = await env.DB.prepare('EXPLAIN QUERY PLAN SELECT id FROM users u WHERE substr(u.phone, -4) = ?')
    .bind(tail)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail).join(' ');
}

/** A statement that fails (it empties a customer's NOT NULL phone), to show a batch that fails as a whole. */
export const failingCustomerChange = (userId: number): D1PreparedStatement =>
  env.DB.prepare('UPDATE users SET phone = NULL WHERE id = ?').bind(userId);

/**
 * Set an account's status: of a phone (text), of a user id (number), or of every account (neither). With `announce`
 * the nodes hear of it in the same batch, as the console's suspension writes it.
 */
export async function setAccountStatus(
  status: AccountStatus,
  who?: string | number,
  o: { announce?: boolean } = {},
): Promise<void> {
  const now = Date.now();
  const change = 'UPDATE users SET status = ?, updated_at = ?';
  const update =
    who === undefined
      ? env.DB.prepare(change).bind(status, now)
      : env.DB.prepare(`${change} WHERE ${typeof who === 'number' ? 'id' : 'phone'} = ?`).bind(status, now, who);
  const userId = typeof who === 'number' ? who : undefined;
  await env.DB.batch([
    update,
    ...(o.announce && userId !== undefined ? [userChangedStatement(env.DB, userId, now)] : []),
  ]);
}

/** Disable a phone's account (or every account, without a phone) as an operator would. */
export const disableAccount = (phone?: string) => setAccountStatus(ACCOUNT_STATUS.disabled, phone);

/** Give a phone's account a login password (cheap hash iterations for speed), clearing failures and lock as a password
 * set does. */
export async function setUserPassword(phone: string, password: string, iterations = 1000): Promise<void> {
  await setPasswordHash(env.DB, await userIdOf(phone), await hashPassword(password, iterations), Date.now());
}

/** Lock a customer's password login until `until` after five failures. */
export async function lockCustomer(userId: number, until: number): Promise<void> {
  await env.DB.prepare('UPDATE users SET failed_logins = 5, locked_until = ? WHERE id = ?').bind(until, userId).run();
}

/** Let a phone's temporary login lock lapse (it ended 1 ms ago). */
export async function lapseLoginLock(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE users SET locked_until = ? WHERE phone = ?')
    .bind(Date.now() - 1, phone)
    .run();
}

/** How many password attempts are on record (from one client IP, or from anywhere). */
export const loginAttemptsFrom = (ip?: string) => count('login_attempts', [when('client_ip = ?', ip)]);

/** Password attempts from one address (192.0.2.1) at the given times. */
export async function loginAttemptsAt(...ats: number[]): Promise<void> {
  await env.DB.batch(
    ats.map((at) =>
      env.DB.prepare("INSERT INTO login_attempts (client_ip, created_at) VALUES ('192.0.2.1', ?)").bind(at),
    ),
  );
}

/** Set a customer's old users.role column (which grants nothing any more: operators are their own accounts). */
export async function setLegacyUserRole(phone: string, role: 'user' | 'operator'): Promise<void> {
  await env.DB.prepare('UPDATE users SET role = ? WHERE phone = ?').bind(role, phone).run();
}

// --- API credentials ---

/** The stored form of an extraction key under the tests' NODE_SECRET_KEY (vitest.config.ts, the development value). */
export const storedKey = (key: string) => hashExtractKey(DEV_NODE_SECRET_KEY, key);

/** How a key is stored: as its hash (as the Worker stores keys), or `plain` as rows from before keys were hashed (0029). */
export interface KeyStorage {
  plain?: boolean;
}

const keyColumn = async (key: string, o: KeyStorage) => (o.plain ? key : await storedKey(key));

/** Give a user API credentials with extraction key `key` (rate limit 100 a second unless told). */
export async function giveExtractionKey(
  userId: number,
  key: string,
  o: KeyStorage & { rateLimit?: number } = {},
): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, rate_limit, created_at, updated_at)
     VALUES (?, ?, 'aeskey0000000001', 'aesiv00000000001', ?, ?, ?)`,
  )
    .bind(userId, await keyColumn(key, o), o.rateLimit ?? 100, now, now)
    .run();
}

/** Install `key` as the user's extraction key (as a key reset leaves it; `plain`: as rows from before hashing). */
export async function setExtractKey(userId: number, key: string, o: KeyStorage = {}): Promise<void> {
  await env.DB.prepare('UPDATE proxy_api_credentials SET api_key = ? WHERE user_id = ?')
    .bind(await keyColumn(key, o), userId)
    .run();
}

/** Age the proxy credentials (of one user, or everyone's) by a minute and a second: a password reset is allowed again. */
export async function ageProxyCredentials(userId?: number): Promise<void> {
  const aged = 'UPDATE proxy_api_credentials SET updated_at = updated_at - 61000';
  await (userId === undefined ? env.DB.prepare(aged) : env.DB.prepare(`${aged} WHERE user_id = ?`).bind(userId)).run();
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
export const unsealedProxyPasswordCount = () =>
  count('proxy_api_credentials', [["proxy_password NOT LIKE 'gcm1:%'", []]]);
