// API credentials: every user gets one extraction key plus the AES key/IV their proxy API password is encrypted
// with; resetting replaces all three.
import {
  type ApiCredentials,
  findCredentials,
  insertCredentialsIfMissing,
  replaceCredentials,
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

/** The user's credentials, created on first use. */
export async function ensureCredentials(db: D1Database, userId: number, now: number): Promise<ApiCredentials> {
  const existing = await findCredentials(db, userId);
  if (existing) return existing;
  await insertCredentialsIfMissing(db, { userId, now, ...fresh() });
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
