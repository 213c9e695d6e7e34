// API credentials: every user gets one extraction key plus the AES key/IV that AES extraction tokens are encrypted
// with (docs/decisions/045; resetting replaces all three), and a proxy account (username + password) that proxy
// nodes accept instead of the white list (rotating replaces the password).
import {
  type ApiCredentials,
  findCredentials,
  insertCredentialsIfMissing,
  replaceCredentials,
  replaceProxyPassword,
} from '../db/credentials';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random string over [a-z0-9] (rejection sampling keeps it uniform). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 252 && out.length < length) out += ALPHABET[b % 36];
    }
  }
  return out;
}

const fresh = () => ({ apiKey: randomToken(32), aesKey: randomToken(16), aesIv: randomToken(16) });
/** Proxy account: `u` + 9 characters (about 46 bits, unique index), password 16 characters (about 82 bits). */
const freshAccount = () => ({ proxyUsername: `u${randomToken(9)}`, proxyPassword: randomToken(16) });
/** At most one password rotation (or key reset before it) per minute per account. */
export const PROXY_PASSWORD_MIN_INTERVAL_MS = 60_000;

/** The user's credentials, created on first use. */
export async function ensureCredentials(db: D1Database, userId: number, now: number): Promise<ApiCredentials> {
  const existing = await findCredentials(db, userId);
  if (existing) return existing;
  await insertCredentialsIfMissing(db, { userId, now, ...fresh(), ...freshAccount() });
  const created = await findCredentials(db, userId);
  if (!created) throw new Error('credentials vanished after insert');
  return created;
}

/** New key, AES key and IV for the user. */
export async function resetCredentials(db: D1Database, userId: number, now: number): Promise<ApiCredentials> {
  await ensureCredentials(db, userId, now);
  await replaceCredentials(db, { userId, now, ...fresh() });
  const updated = await findCredentials(db, userId);
  if (!updated) throw new Error('credentials vanished after reset');
  return updated;
}

/** A new proxy password for the user; null when the last change is less than a minute old. */
export async function rotateProxyPassword(db: D1Database, userId: number, now: number): Promise<ApiCredentials | null> {
  await ensureCredentials(db, userId, now);
  const ok = await replaceProxyPassword(db, {
    userId,
    password: freshAccount().proxyPassword,
    now,
    minIntervalMs: PROXY_PASSWORD_MIN_INTERVAL_MS,
  });
  return ok ? findCredentials(db, userId) : null;
}
