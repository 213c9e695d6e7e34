// Queries for proxy_api_credentials: each user's extraction key (stored as its keyed hash), proxy-API AES key/IV,
// extraction rate limit and proxy account (username, sealed password and the verifier nodes check; docs/decisions/199,
// 200). Values are stored as given: the domain (credential-secrets.ts) hashes and seals them.
import { userChangedStatement } from './node-feed';
import { ACCOUNT_STATUS } from '../../lib/console-states';

/** A row as stored: apiKeyHash and proxyPassword may still be plain values from before migration 0029. */
export interface ApiCredentials {
  userId: number;
  apiKeyHash: string;
  aesKey: string;
  aesIv: string;
  rateLimit: number;
  updatedAt: number;
  proxyUsername: string;
  proxyPassword: string;
  proxyPasswordVerifier: string;
}

interface CredentialRow {
  user_id: number;
  api_key: string;
  aes_key: string;
  aes_iv: string;
  rate_limit: number;
  updated_at: number;
  proxy_username: string;
  proxy_password: string;
  proxy_password_verifier: string;
}

const map = (r: CredentialRow): ApiCredentials => ({
  userId: r.user_id,
  apiKeyHash: r.api_key,
  aesKey: r.aes_key,
  aesIv: r.aes_iv,
  rateLimit: r.rate_limit,
  updatedAt: r.updated_at,
  proxyUsername: r.proxy_username,
  proxyPassword: r.proxy_password,
  proxyPasswordVerifier: r.proxy_password_verifier,
});
const COLUMNS =
  'user_id, api_key, aes_key, aes_iv, rate_limit, updated_at, proxy_username, proxy_password, proxy_password_verifier';

/** The credentials of a user, or null. */
export async function findCredentials(db: D1Database, userId: number): Promise<ApiCredentials | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM proxy_api_credentials WHERE user_id = ?`)
    .bind(userId)
    .first<CredentialRow>();
  return row ? map(row) : null;
}

/** The owner and rate limit of an extraction key's hash, or null (also when the owner's account is disabled). */
export async function findByApiKeyHash(
  db: D1Database,
  apiKeyHash: string,
): Promise<{ userId: number; rateLimit: number } | null> {
  const row = await db
    .prepare(
      `SELECT c.user_id, c.rate_limit FROM proxy_api_credentials c JOIN users u ON u.id = c.user_id
       AND u.status = ${ACCOUNT_STATUS.active} WHERE c.api_key = ?`,
    )
    .bind(apiKeyHash)
    .first<{ user_id: number; rate_limit: number }>();
  return row ? { userId: row.user_id, rateLimit: row.rate_limit } : null;
}

/** The credentials behind an AES extraction token (uid=), or null (also when the account is disabled). */
export async function findForToken(db: D1Database, userId: number): Promise<ApiCredentials | null> {
  const row = await db
    .prepare(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `c.${c}`)
        .join(', ')} FROM proxy_api_credentials c JOIN users u ON u.id = c.user_id
       AND u.status = ${ACCOUNT_STATUS.active} WHERE c.user_id = ?`,
    )
    .bind(userId)
    .first<CredentialRow>();
  return row ? map(row) : null;
}

/** Create the user's credentials unless they exist (race-safe) and open the proxy API for the user. */
export async function insertCredentialsIfMissing(
  db: D1Database,
  c: {
    userId: number;
    apiKeyHash: string;
    aesKey: string;
    aesIv: string;
    proxyUsername: string;
    sealedPassword: string;
    verifier: string;
    now: number;
  },
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, proxy_username, proxy_password,
                                            proxy_password_verifier, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO NOTHING`,
      )
      .bind(c.userId, c.apiKeyHash, c.aesKey, c.aesIv, c.proxyUsername, c.sealedPassword, c.verifier, c.now, c.now),
    db.prepare('UPDATE users SET proxy_api_opened = 1 WHERE id = ? AND proxy_api_opened = 0').bind(c.userId),
  ]);
}

/**
 * Replace the proxy password unless it (or the key) changed within `minIntervalMs` (conditional on updated_at, so
 * two quick calls cannot both pass). False when too soon. Nodes see the new password at their next pull.
 */
export async function replaceProxyPassword(
  db: D1Database,
  c: { userId: number; sealedPassword: string; verifier: string; now: number; minIntervalMs: number },
): Promise<boolean> {
  const [res] = await db.batch([
    db
      .prepare(
        `UPDATE proxy_api_credentials SET proxy_password = ?, proxy_password_verifier = ?, updated_at = ?
         WHERE user_id = ? AND updated_at <= ?`,
      )
      .bind(c.sealedPassword, c.verifier, c.now, c.userId, c.now - c.minIntervalMs),
    userChangedStatement(db, c.userId, c.now),
  ]);
  return res?.meta.changes === 1;
}

/** Replace the key (by its hash), AES key and IV (the old key stops working at once). */
export async function replaceCredentials(
  db: D1Database,
  c: { userId: number; apiKeyHash: string; aesKey: string; aesIv: string; now: number },
): Promise<boolean> {
  const res = await db
    .prepare('UPDATE proxy_api_credentials SET api_key = ?, aes_key = ?, aes_iv = ?, updated_at = ? WHERE user_id = ?')
    .bind(c.apiKeyHash, c.aesKey, c.aesIv, c.now, c.userId)
    .run();
  return res.meta.changes === 1;
}

/** Replace a plain extraction key left from before migration 0029 by its hash (only while the row still holds it). */
export async function hashPlainApiKey(db: D1Database, plain: string, hash: string): Promise<boolean> {
  const res = await db
    .prepare('UPDATE proxy_api_credentials SET api_key = ?2 WHERE api_key = ?1')
    .bind(plain, hash)
    .run();
  return res.meta.changes === 1;
}

/** Rows still holding a plain extraction key or proxy password (from before migration 0029 or the dev seed). */
export async function plainCredentials(
  db: D1Database,
  limit: number,
): Promise<{ userId: number; apiKey: string; username: string; password: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT user_id, api_key, proxy_username, proxy_password FROM proxy_api_credentials
       WHERE substr(api_key, 1, 3) != 'h1:' OR substr(proxy_password, 1, 5) != 'gcm1:' ORDER BY user_id LIMIT ? + 0`,
    )
    .bind(limit)
    .all<{ user_id: number; api_key: string; proxy_username: string; proxy_password: string }>();
  return results.map((r) => ({
    userId: r.user_id,
    apiKey: r.api_key,
    username: r.proxy_username,
    password: r.proxy_password,
  }));
}

/** Hash a plain key in place (conditional on the plain value read). */
export const hashApiKeyStatement = (db: D1Database, userId: number, plain: string, hash: string) =>
  db
    .prepare('UPDATE proxy_api_credentials SET api_key = ?3 WHERE user_id = ?1 AND api_key = ?2')
    .bind(userId, plain, hash);

/** Seal a plain proxy password and store its verifier (conditional on the plain value and username read). */
export const sealPasswordStatement = (
  db: D1Database,
  r: { userId: number; username: string; plain: string; sealed: string; verifier: string },
) =>
  db
    .prepare(
      `UPDATE proxy_api_credentials SET proxy_password = ?4, proxy_password_verifier = ?5
       WHERE user_id = ?1 AND proxy_username = ?2 AND proxy_password = ?3`,
    )
    .bind(r.userId, r.username, r.plain, r.sealed, r.verifier);
