// Queries for proxy_api_credentials: each user's extraction key, proxy-API AES key/IV, extraction rate limit and
// proxy account (username/password nodes check, docs/node-api.md).
import { userChangedStatement } from './node-feed';

export interface ApiCredentials {
  userId: number;
  apiKey: string;
  aesKey: string;
  aesIv: string;
  rateLimit: number;
  updatedAt: number;
  proxyUsername: string;
  proxyPassword: string;
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
}

const map = (r: CredentialRow): ApiCredentials => ({
  userId: r.user_id,
  apiKey: r.api_key,
  aesKey: r.aes_key,
  aesIv: r.aes_iv,
  rateLimit: r.rate_limit,
  updatedAt: r.updated_at,
  proxyUsername: r.proxy_username,
  proxyPassword: r.proxy_password,
});
const COLUMNS = 'user_id, api_key, aes_key, aes_iv, rate_limit, updated_at, proxy_username, proxy_password';

/** The credentials of a user, or null. */
export async function findCredentials(db: D1Database, userId: number): Promise<ApiCredentials | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM proxy_api_credentials WHERE user_id = ?`)
    .bind(userId)
    .first<CredentialRow>();
  return row ? map(row) : null;
}

/** The owner and rate limit of an extraction key, or null (also when the owner's account is disabled). */
export async function findByApiKey(
  db: D1Database,
  apiKey: string,
): Promise<{ userId: number; rateLimit: number } | null> {
  const row = await db
    .prepare(
      `SELECT c.user_id, c.rate_limit FROM proxy_api_credentials c JOIN users u ON u.id = c.user_id AND u.status = 1
       WHERE c.api_key = ?`,
    )
    .bind(apiKey)
    .first<{ user_id: number; rate_limit: number }>();
  return row ? { userId: row.user_id, rateLimit: row.rate_limit } : null;
}

/** The credentials behind an AES extraction token (uid=), or null (also when the account is disabled). */
export async function findForToken(db: D1Database, userId: number): Promise<ApiCredentials | null> {
  const row = await db
    .prepare(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `c.${c}`)
        .join(', ')} FROM proxy_api_credentials c JOIN users u ON u.id = c.user_id AND u.status = 1
       WHERE c.user_id = ?`,
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
    apiKey: string;
    aesKey: string;
    aesIv: string;
    proxyUsername: string;
    proxyPassword: string;
    now: number;
  },
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, proxy_username, proxy_password,
                                            created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO NOTHING`,
      )
      .bind(c.userId, c.apiKey, c.aesKey, c.aesIv, c.proxyUsername, c.proxyPassword, c.now, c.now),
    db.prepare('UPDATE users SET proxy_api_opened = 1 WHERE id = ? AND proxy_api_opened = 0').bind(c.userId),
  ]);
}

/**
 * Replace the proxy password unless it (or the key) changed within `minIntervalMs` (conditional on updated_at, so
 * two quick calls cannot both pass). False when too soon. Nodes see the new password at their next pull.
 */
export async function replaceProxyPassword(
  db: D1Database,
  c: { userId: number; password: string; now: number; minIntervalMs: number },
): Promise<boolean> {
  const [res] = await db.batch([
    db
      .prepare(
        'UPDATE proxy_api_credentials SET proxy_password = ?, updated_at = ? WHERE user_id = ? AND updated_at <= ?',
      )
      .bind(c.password, c.now, c.userId, c.now - c.minIntervalMs),
    userChangedStatement(db, c.userId, c.now),
  ]);
  return res?.meta.changes === 1;
}

/** Replace the key, AES key and IV (the old key stops working at once). */
export async function replaceCredentials(
  db: D1Database,
  c: { userId: number; apiKey: string; aesKey: string; aesIv: string; now: number },
): Promise<boolean> {
  const res = await db
    .prepare('UPDATE proxy_api_credentials SET api_key = ?, aes_key = ?, aes_iv = ?, updated_at = ? WHERE user_id = ?')
    .bind(c.apiKey, c.aesKey, c.aesIv, c.now, c.userId)
    .run();
  return res.meta.changes === 1;
}
