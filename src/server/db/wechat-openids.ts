// The payer's openid under the official account's appid (JSAPI payment, docs/decisions/237), and the development
// web-authorisation stand-in's one-time codes.

/** The openid WeChat gave for this customer under `appid`, or null before their first payment inside WeChat. */
export async function findOpenid(db: D1Database, userId: number, appid: string): Promise<string | null> {
  const row = await db
    .prepare('SELECT openid FROM wechat_openids WHERE user_id = ? AND appid = ?')
    .bind(userId, appid)
    .first<{ openid: string }>();
  return row?.openid ?? null;
}

/** Keep (or replace: the customer paid from another WeChat account) the customer's openid under `appid`. */
export async function saveOpenid(db: D1Database, userId: number, appid: string, openid: string, now: number) {
  await db
    .prepare(
      `INSERT INTO wechat_openids (user_id, appid, openid, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(user_id, appid) DO UPDATE SET openid = excluded.openid, updated_at = excluded.updated_at`,
    )
    .bind(userId, appid, openid, now, now)
    .run();
}

/** Stand-in: issue a one-time code for `openid`. */
export async function insertOAuthCode(db: D1Database, code: string, openid: string, now: number): Promise<void> {
  await db
    .prepare('INSERT INTO wechat_oauth_simulator_codes (code, openid, created_at) VALUES (?, ?, ?)')
    .bind(code, openid, now)
    .run();
}

/** Stand-in: use a code once, within `maxAgeMs`; null when unknown, used or too old. */
export async function takeOAuthCode(db: D1Database, code: string, now: number, maxAgeMs: number) {
  const row = await db
    .prepare(
      `UPDATE wechat_oauth_simulator_codes SET used_at = ?1
       WHERE code = ?2 AND used_at IS NULL AND created_at > ?3 RETURNING openid`,
    )
    .bind(now, code, now - maxAgeMs)
    .first<{ openid: string }>();
  return row?.openid ?? null;
}
