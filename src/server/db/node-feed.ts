// The node change feed (docs/decisions/044): statements that append node_changes rows, meant to run in the same
// batch (transaction) as the change they describe. Appending a row that turns out to be redundant is harmless: a
// node just receives the same lease or user entry again.

/** A user's node-visible state changed (white list, proxy account): every node re-reads the whole entry. */
export const userChangedStatement = (db: D1Database, userId: number, now: number) =>
  db.prepare("INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', ?, ?)").bind(userId, now);

/** Fixed allocations matching `where` (over fixed_allocations f), e.g. those a statement is about to change. */
export const allocationsStatement = (db: D1Database, where: string, binds: unknown[], now: number) =>
  db
    .prepare(
      `INSERT INTO node_changes (kind, ref, node_id, created_at)
       SELECT 'f', f.id, i.node_id, ${Math.trunc(now)} FROM fixed_allocations f JOIN proxy_ips i ON i.id = f.ip_id
       WHERE ${where}`,
    )
    .bind(...binds);
