// API credentials: every user gets one extraction key plus the AES key/IV that AES extraction tokens are encrypted
// with (docs/decisions/045; resetting replaces all three), and a proxy account (username + password) that proxy
// nodes accept instead of the white list (rotating replaces the password). The key is stored as its keyed hash and
// shown once, when it is created or reset; the password is stored sealed and shown to its owner (decisions 199, 200).
import {
  type ApiCredentials,
  findCredentials,
  insertCredentialsIfMissing,
  replaceCredentials,
  replaceProxyPassword,
} from '../db/credentials';
import { hashExtractKey, openProxyPassword, proxyPasswordVerifier, sealProxyPassword } from './credential-secrets';
import { MINUTE_MS } from '../../lib/time';

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
export const PROXY_PASSWORD_MIN_INTERVAL_MS = MINUTE_MS;

/** What the customer's own pages see: the key in plain only right after it was created or reset. */
export interface CredentialsView {
  userId: number;
  /** The extraction key: only in the answer that created or reset it (it is stored as a hash), else null. */
  apiKey: string | null;
  aesKey: string;
  aesIv: string;
  rateLimit: number;
  proxyUsername: string;
  proxyPassword: string;
}

async function viewOf(keyHex: string, c: ApiCredentials, apiKey: string | null): Promise<CredentialsView> {
  // Sealed under another NODE_SECRET_KEY (the key was changed): the key pages keep working, the password shows empty
  // until the customer resets it (docs/decisions/199).
  const password = (await openProxyPassword(keyHex, c.proxyPassword)) ?? '';
  return {
    userId: c.userId,
    apiKey,
    aesKey: c.aesKey,
    aesIv: c.aesIv,
    rateLimit: c.rateLimit,
    proxyUsername: c.proxyUsername,
    proxyPassword: password,
  };
}

/** A proxy password as stored: sealed, with the verifier nodes receive. */
export async function storedPassword(
  keyHex: string,
  username: string,
  password: string,
): Promise<{ sealedPassword: string; verifier: string }> {
  return {
    sealedPassword: await sealProxyPassword(keyHex, password),
    verifier: await proxyPasswordVerifier(username, password),
  };
}

/**
 * The user's credentials, created on first use (`keyHex`: NODE_SECRET_KEY). The answer that creates them carries the
 * new extraction key in plain; every later one has `apiKey: null`.
 */
export async function ensureCredentials(
  db: D1Database,
  keyHex: string,
  userId: number,
  now: number,
): Promise<CredentialsView> {
  const existing = await findCredentials(db, userId);
  if (existing) return viewOf(keyHex, existing, null);
  const keys = fresh();
  const account = freshAccount();
  const apiKeyHash = await hashExtractKey(keyHex, keys.apiKey);
  await insertCredentialsIfMissing(db, {
    userId,
    now,
    apiKeyHash,
    aesKey: keys.aesKey,
    aesIv: keys.aesIv,
    proxyUsername: account.proxyUsername,
    ...(await storedPassword(keyHex, account.proxyUsername, account.proxyPassword)),
  });
  const created = await findCredentials(db, userId);
  if (!created) throw new Error('credentials vanished after insert');
  // A concurrent first call may have inserted its own row: then this key is not the stored one.
  return viewOf(keyHex, created, created.apiKeyHash === apiKeyHash ? keys.apiKey : null);
}

/** New key, AES key and IV for the user; the answer carries the new key in plain (the one time it is shown). */
export async function resetCredentials(
  db: D1Database,
  keyHex: string,
  userId: number,
  now: number,
): Promise<CredentialsView & { apiKey: string }> {
  await ensureCredentials(db, keyHex, userId, now);
  const keys = fresh();
  await replaceCredentials(db, {
    userId,
    now,
    apiKeyHash: await hashExtractKey(keyHex, keys.apiKey),
    aesKey: keys.aesKey,
    aesIv: keys.aesIv,
  });
  const updated = await findCredentials(db, userId);
  if (!updated) throw new Error('credentials vanished after reset');
  return { ...(await viewOf(keyHex, updated, keys.apiKey)), apiKey: keys.apiKey };
}

/** A new proxy password for the user; null when the last change is less than a minute old. */
export async function rotateProxyPassword(
  db: D1Database,
  keyHex: string,
  userId: number,
  now: number,
): Promise<CredentialsView | null> {
  const current = await ensureCredentials(db, keyHex, userId, now);
  const ok = await replaceProxyPassword(db, {
    userId,
    now,
    minIntervalMs: PROXY_PASSWORD_MIN_INTERVAL_MS,
    ...(await storedPassword(keyHex, current.proxyUsername, freshAccount().proxyPassword)),
  });
  if (!ok) return null;
  const updated = await findCredentials(db, userId);
  return updated ? viewOf(keyHex, updated, null) : null;
}
