// Queries for login sessions. Only the SHA-256 of a token is stored.
import { mapUser, type UserRecord, type UserRow, userColumns } from './users';

/** The two session tables, customers' and operators': the same token, time and expiry columns. */
export type SessionTable = 'sessions' | 'operator_sessions';

/** What both kinds of session share: the row and its creation, last-seen and absolute-expiry times. */
export interface SessionTimes {
  id: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export interface SessionTimesRow {
  id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export const sessionTimesOf = (r: SessionTimesRow): SessionTimes => ({
  id: r.id,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

/** The user agent as stored with a session (at most 256 characters). */
export const storedUserAgent = (userAgent: string) => userAgent.slice(0, 256);

export interface SessionRecord extends SessionTimes {
  userId: number;
}

interface SessionRow extends SessionTimesRow {
  user_id: number;
}

const mapSession = (r: SessionRow): SessionRecord => ({ ...sessionTimesOf(r), userId: r.user_id });

/** Insert a session row for a token hash. */
export async function insertSession(
  db: D1Database,
  s: { tokenHash: string; userId: number; now: number; expiresAt: number; ip: string; userAgent: string },
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(s.tokenHash, s.userId, s.now, s.now, s.expiresAt, s.ip, storedUserAgent(s.userAgent))
    .run();
}

/**
 * The session for a token hash with its account, in one statement (every signed-in request needs both): null when no
 * session has that hash; `user` null when the session's account row is gone.
 */
export async function findSessionWithUser(
  db: D1Database,
  tokenHash: string,
): Promise<{ session: SessionRecord; user: UserRecord | null } | null> {
  const row = await db
    .prepare(
      `SELECT ss.id AS session_id, ss.user_id AS session_user_id, ss.created_at AS session_created_at,
         ss.last_seen_at AS session_last_seen_at, ss.expires_at AS session_expires_at, ${userColumns('u')}
       FROM sessions ss LEFT JOIN users u ON u.id = ss.user_id
       WHERE ss.token_hash = ?`,
    )
    .bind(tokenHash)
    .first<UserRow & Record<`session_${'id' | 'user_id' | 'created_at' | 'last_seen_at' | 'expires_at'}`, number>>();
  if (!row) return null;
  const session = mapSession({
    id: row.session_id,
    user_id: row.session_user_id,
    created_at: row.session_created_at,
    last_seen_at: row.session_last_seen_at,
    expires_at: row.session_expires_at,
  });
  return { session, user: row.id === null ? null : mapUser(row) };
}

/** Move a session's last-seen time forward. */
export async function touchSession(db: D1Database, table: SessionTable, id: number, now: number): Promise<void> {
  await db.prepare(`UPDATE ${table} SET last_seen_at = ? WHERE id = ?`).bind(now, id).run();
}

/** Delete one session (logout or expiry). */
export async function deleteSession(db: D1Database, table: SessionTable, id: number): Promise<void> {
  await db.prepare(`DELETE FROM ${table} WHERE id = ?`).bind(id).run();
}

/** Delete every session of a user except, optionally, one to keep. Returns how many ended. */
export async function deleteUserSessions(db: D1Database, userId: number, keepId?: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM sessions WHERE user_id = ? AND id != ?')
    .bind(userId, keepId ?? -1)
    .run();
  return res.meta.changes;
}

/** Remove sessions past their absolute or idle expiry; returns how many went. */
export async function purgeExpiredSessions(
  db: D1Database,
  table: SessionTable,
  now: number,
  idleMs: number,
): Promise<number> {
  const res = await db
    .prepare(`DELETE FROM ${table} WHERE expires_at <= ? OR last_seen_at <= ?`)
    .bind(now, now - idleMs)
    .run();
  return res.meta.changes;
}
