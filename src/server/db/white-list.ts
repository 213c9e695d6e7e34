// Queries for the white list (personal centre). Nodes receive it in their contract (db/node-contract.ts).
import { userChangedStatement } from './node-feed';

export interface WhiteListEntry {
  id: number;
  ip: string;
  remark: string;
  enabled: boolean;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: number;
  ip: string;
  remark: string;
  enabled: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

const map = (r: Row): WhiteListEntry => ({
  id: r.id,
  ip: r.ip,
  remark: r.remark,
  enabled: r.enabled === 1,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The user's entries, newest first. */
export async function listWhiteList(db: D1Database, userId: number): Promise<WhiteListEntry[]> {
  const { results } = await db
    .prepare(
      'SELECT id, ip, remark, enabled, expires_at, created_at, updated_at FROM white_list WHERE user_id = ? ORDER BY id DESC',
    )
    .bind(userId)
    .all<Row>();
  return results.map(map);
}

/**
 * Add an entry unless the user already holds `cap` entries (one conditional statement, so concurrent adds cannot
 * pass the cap). Returns 'added', 'exists' or 'full'.
 */
export async function insertWhiteListEntry(
  db: D1Database,
  e: { userId: number; ip: string; remark: string; expiresAt: number; now: number; cap: number },
): Promise<'added' | 'exists' | 'full'> {
  const [res] = await db.batch([
    db
      .prepare(
        `INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at)
         SELECT ?1, ?2, ?3, 1, ?4, ?5, ?5 WHERE (SELECT count(*) FROM white_list WHERE user_id = ?1) < ?6
         ON CONFLICT(user_id, ip) DO NOTHING`,
      )
      .bind(e.userId, e.ip, e.remark, e.expiresAt, e.now, e.cap),
    userChangedStatement(db, e.userId, e.now),
  ]);
  if (res?.meta.changes === 1) return 'added';
  const exists = await db
    .prepare('SELECT 1 AS ok FROM white_list WHERE user_id = ? AND ip = ?')
    .bind(e.userId, e.ip)
    .first();
  return exists ? 'exists' : 'full';
}

/** Change an entry's address, remark and expiry. Returns 'ok', 'missing' or 'exists' (address taken). */
export async function updateWhiteListEntry(
  db: D1Database,
  e: { userId: number; id: number; ip: string; remark: string; expiresAt: number; now: number },
): Promise<'ok' | 'missing' | 'exists'> {
  try {
    const [res] = await db.batch([
      db
        .prepare(
          'UPDATE white_list SET ip = ?, remark = ?, expires_at = ?, updated_at = ? WHERE id = ? AND user_id = ?',
        )
        .bind(e.ip, e.remark, e.expiresAt, e.now, e.id, e.userId),
      userChangedStatement(db, e.userId, e.now),
    ]);
    return res?.meta.changes === 1 ? 'ok' : 'missing';
  } catch (err) {
    if (/UNIQUE/i.test(String(err))) return 'exists';
    throw err;
  }
}

/** Turn an entry on or off. */
export async function setWhiteListEnabled(db: D1Database, userId: number, id: number, enabled: boolean, now: number) {
  const [res] = await db.batch([
    db
      .prepare('UPDATE white_list SET enabled = ?, updated_at = ? WHERE id = ? AND user_id = ?')
      .bind(enabled ? 1 : 0, now, id, userId),
    userChangedStatement(db, userId, now),
  ]);
  return res?.meta.changes === 1;
}

/** Remove the user's entries among ids; returns how many. */
export async function deleteWhiteListEntries(
  db: D1Database,
  userId: number,
  ids: number[],
  now = Date.now(),
): Promise<number> {
  const [res] = await db.batch([
    db
      .prepare('DELETE FROM white_list WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))')
      .bind(userId, JSON.stringify(ids)),
    userChangedStatement(db, userId, now),
  ]);
  return res?.meta.changes ?? 0;
}

/** Switch off entries whose expiry has passed (the job); nodes see the change on their next pull. */
export async function disableExpiredWhiteList(db: D1Database, now: number): Promise<number> {
  const res = await db
    .prepare(
      'UPDATE white_list SET enabled = 0, updated_at = ?1 WHERE enabled = 1 AND expires_at != 0 AND expires_at <= ?1',
    )
    .bind(now)
    .run();
  return res.meta.changes;
}

/** How many of the user's entries are in force now. */
export async function countLiveWhiteList(db: D1Database, userId: number, now: number): Promise<number> {
  const row = await db
    .prepare(
      'SELECT count(*) AS n FROM white_list WHERE user_id = ? AND enabled = 1 AND (expires_at = 0 OR expires_at > ?)',
    )
    .bind(userId, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
