// Queries for proxy_api_credentials: each user's extraction key, proxy-API AES key/IV and extraction rate limit.

export interface ApiCredentials {
  userId: number;
  apiKey: string;
  aesKey: string;
  aesIv: string;
  rateLimit: number;
  updatedAt: number;
}

interface CredentialRow {
  user_id: number;
  api_key: string;
  aes_key: string;
  aes_iv: string;
  rate_limit: number;
  updated_at: number;
}

const map = (r: CredentialRow): ApiCredentials => ({
  userId: r.user_id,
  apiKey: r.api_key,
  aesKey: r.aes_key,
  aesIv: r.aes_iv,
  rateLimit: r.rate_limit,
  updatedAt: r.updated_at,
});
const COLUMNS = 'user_id, api_key, aes_key, aes_iv, rate_limit, updated_at';

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

/** Create the user's credentials unless they exist (race-safe) and open the proxy API for the user. */
export async function insertCredentialsIfMissing(
  db: D1Database,
  c: { userId: number; apiKey: string; aesKey: string; aesIv: string; now: number },
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO NOTHING`,
      )
      .bind(c.userId, c.apiKey, c.aesKey, c.aesIv, c.now, c.now),
    db.prepare('UPDATE users SET proxy_api_opened = 1 WHERE id = ? AND proxy_api_opened = 0').bind(c.userId),
  ]);
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
