// Queries for login sessions. Only the SHA-256 of a token is stored.

export interface SessionRecord {
  id: number;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

interface SessionRow {
  id: number;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

const mapSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  userId: r.user_id,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

/** Insert a session row for a token hash. */
export async function insertSession(
  db: D1Database,
  s: { tokenHash: string; userId: number; now: number; expiresAt: number; ip: string; userAgent: string },
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(s.tokenHash, s.userId, s.now, s.now, s.expiresAt, s.ip, s.userAgent.slice(0, 256))
    .run();
}

/** The session for a token hash, or null. */
export async function findSessionByTokenHash(db: D1Database, tokenHash: string): Promise<SessionRecord | null> {
  const row = await db
    .prepare('SELECT id, user_id, created_at, last_seen_at, expires_at FROM sessions WHERE token_hash = ?')
    .bind(tokenHash)
    .first<SessionRow>();
  return row ? mapSession(row) : null;
}

/** Move a session's last-seen time forward. */
export async function touchSession(db: D1Database, id: number, now: number): Promise<void> {
  await db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?').bind(now, id).run();
}

/** Delete one session (logout or expiry). */
export async function deleteSession(db: D1Database, id: number): Promise<void> {
  await db.prepare('DELETE FROM sessions WHERE id = ?').bind(id).run();
}

/** Delete every session of a user except, optionally, one to keep. Returns how many ended. */
export async function deleteUserSessions(db: D1Database, userId: number, keepId?: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM sessions WHERE user_id = ? AND id != ?')
    .bind(userId, keepId ?? -1)
    .run();
  return res.meta.changes;
}

/** Remove sessions past their absolute or idle expiry. */
export async function purgeExpiredSessions(db: D1Database, now: number, idleMs: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?')
    .bind(now, now - idleMs)
    .run();
  return res.meta.changes;
}
