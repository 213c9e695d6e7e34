// The node change feed (docs/decisions/044): statements that append node_changes rows, meant to run in the same
// batch (transaction) as the change they describe. Appending a row that turns out to be redundant is harmless: a
// node just receives the same lease or user entry again.

/** A user's node-visible state changed (white list, proxy account): every node re-reads the whole entry. */
export const userChangedStatement = (db: D1Database, userId: number, now: number) =>
  db.prepare("INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', ?, ?)").bind(userId, now);

/**
 * The leases of the user's latest extraction call (the assignments just inserted under that log row). `now` is the
 * call's instant, the log's created_at and the assignments' assigned_at: both are found by index seeks on the user and
 * that millisecond, not by walking the user's whole history. `guard` (an SQL
 * condition with parameters from ?3) makes the statement conditional, as the other writes of its batch.
 */
export const extractionLeasesStatement = (
  db: D1Database,
  userId: number,
  now: number,
  guard: { sql: string; binds: unknown[] } = { sql: '1', binds: [] },
) =>
  db
    .prepare(
      `INSERT INTO node_changes (kind, ref, node_id, created_at)
       SELECT 'a', a.id, i.node_id, ?2 FROM ip_assignments a JOIN proxy_ips i ON i.id = a.ip_id
       WHERE a.user_id = ?1 AND a.assigned_at = ?2 AND a.log_id = (SELECT max(id) FROM extract_logs INDEXED BY extract_logs_user_time
                         WHERE user_id = ?1 AND created_at = ?2)
         AND ${guard.sql}`,
    )
    .bind(userId, now, ...guard.binds);

/** Fixed allocations matching `where` (over fixed_allocations f), e.g. those a statement is about to change. */
export const allocationsStatement = (db: D1Database, where: string, binds: unknown[], now: number) =>
  db
    .prepare(
      `INSERT INTO node_changes (kind, ref, node_id, created_at)
       SELECT 'f', f.id, i.node_id, ${Math.trunc(now)} FROM fixed_allocations f JOIN proxy_ips i ON i.id = f.ip_id
       WHERE ${where}`,
    )
    .bind(...binds);
