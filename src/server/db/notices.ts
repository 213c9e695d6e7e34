// Queries for notices as a user sees them: the published home_notices (owned by the public site, 0005) with this
// user's read state (notice_reads, 0006). A notice is published when enabled and starts_at <= now; it counts as
// unread until read while its window is open. A notice with a user_id is that user's alone (0012).

export interface UserNotice {
  id: number;
  title: string;
  contentHtml: string;
  publishedAt: number;
  endsAt: number;
  isRead: boolean;
}

/** The newest published notices with the user's read flag. */
export async function listUserNotices(
  db: D1Database,
  userId: number,
  now: number,
  limit: number,
): Promise<UserNotice[]> {
  const { results } = await db
    .prepare(
      `SELECT n.id, n.title, n.content_html, n.starts_at, n.ends_at, (r.user_id IS NOT NULL) AS is_read
       FROM home_notices n LEFT JOIN notice_reads r ON r.notice_id = n.id AND r.user_id = ?1
       WHERE n.enabled = 1 AND n.starts_at <= ?2 AND (n.user_id IS NULL OR n.user_id = ?1)
       ORDER BY n.starts_at DESC, n.id DESC LIMIT ?3 + 0`,
    )
    .bind(userId, now, limit)
    .all<{ id: number; title: string; content_html: string; starts_at: number; ends_at: number; is_read: number }>();
  return results.map((r) => ({
    id: r.id,
    title: r.title,
    contentHtml: r.content_html,
    publishedAt: r.starts_at,
    endsAt: r.ends_at,
    isRead: r.is_read === 1,
  }));
}

/** Unread notices whose window is open. */
export async function countUnreadNotices(db: D1Database, userId: number, now: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM home_notices n
       WHERE n.enabled = 1 AND n.starts_at <= ?1 AND n.ends_at > ?1 AND (n.user_id IS NULL OR n.user_id = ?2)
         AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = ?2)`,
    )
    .bind(now, userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Mark one published notice read (idempotent). False when no such published notice exists. */
export async function markNoticeRead(db: D1Database, userId: number, noticeId: number, now: number): Promise<boolean> {
  const exists = await db
    .prepare(
      'SELECT 1 AS x FROM home_notices WHERE id = ? AND enabled = 1 AND starts_at <= ? AND (user_id IS NULL OR user_id = ?)',
    )
    .bind(noticeId, now, userId)
    .first();
  if (!exists) return false;
  await db
    .prepare('INSERT INTO notice_reads (user_id, notice_id, read_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(userId, noticeId, now)
    .run();
  return true;
}

/** Mark every published notice read. */
export async function markAllNoticesRead(db: D1Database, userId: number, now: number): Promise<number> {
  const res = await db
    .prepare(
      `INSERT INTO notice_reads (user_id, notice_id, read_at)
       SELECT ?1, id, ?2 FROM home_notices WHERE enabled = 1 AND starts_at <= ?2 AND (user_id IS NULL OR user_id = ?1)
       ON CONFLICT DO NOTHING`,
    )
    .bind(userId, now)
    .run();
  return res.meta.changes;
}
