// The retention purge's queries (docs/decisions/102): rows older than the cutoff go in small batches (one short
// statement each, so D1 is never held for long), and each run is recorded for the dashboard.

/**
 * Tables the purge trims, with the time column that dates a row, the extra condition a row must meet and the key that
 * names a row (`id`, or the primary key of a table without rowid).
 */
export const RETENTION_TABLES = [
  { table: 'extract_logs', column: 'created_at', extra: '', key: 'id' },
  // The hourly counters of the log (0026): an hour before the cutoff is outside every window a customer can query.
  { table: 'extract_hour_counts', column: 'hour_start', extra: '', key: 'user_id, hour_start' },
  // The hourly bandwidth roll-up (decision 257): the charts read hours only within the retention, longer ranges read
  // usage_daily, which stays.
  { table: 'usage_hourly', column: 'hour_start', extra: '', key: 'user_id, hour_start' },
  // An assignment is history only once its lease has ended too.
  { table: 'ip_assignments', column: 'assigned_at', extra: ' AND expires_at < ?1', key: 'id' },
  { table: 'node_usage_reports', column: 'period_start', extra: '', key: 'id' },
  { table: 'sms_codes', column: 'created_at', extra: '', key: 'id' },
  { table: 'sms_outbox', column: 'created_at', extra: '', key: 'id' },
  { table: 'login_attempts', column: 'created_at', extra: '', key: 'id' },
] as const;

export type RetentionTable = (typeof RETENTION_TABLES)[number]['table'];

/** Delete up to `limit` of the oldest rows of a table dated before the cutoff; returns how many went. */
export async function purgeBatch(
  db: D1Database,
  t: (typeof RETENTION_TABLES)[number],
  cutoff: number,
  limit: number,
): Promise<number> {
  const res = await db
    .prepare(
      `DELETE FROM ${t.table} WHERE (${t.key}) IN (SELECT ${t.key} FROM ${t.table} WHERE ${t.column} < ?1${t.extra} ORDER BY ${t.column} LIMIT ?2 + 0)`,
    )
    .bind(cutoff, limit)
    .run();
  return res.meta.changes;
}

/** Record the start of a run; returns its id. */
export async function startRetentionRun(db: D1Database, now: number, retentionDays: number): Promise<number> {
  const row = await db
    .prepare('INSERT INTO retention_runs (started_at, retention_days) VALUES (?, ?) RETURNING id')
    .bind(now, retentionDays)
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/** Record the end of a run with the rows removed per table. */
export async function finishRetentionRun(
  db: D1Database,
  id: number,
  finishedAt: number,
  removed: Record<string, number>,
): Promise<void> {
  const total = Object.values(removed).reduce((a, b) => a + b, 0);
  await db
    .prepare('UPDATE retention_runs SET finished_at = ?, rows_removed = ?, detail = ? WHERE id = ?')
    .bind(finishedAt, total, JSON.stringify(removed), id)
    .run();
}

/**
 * Drop the batch markers of nodes received before `before`: they only make a retried batch a no-op, so a few weeks
 * are enough, while the usage rows and refusals they stand for are kept at least 180 days (docs/decisions/220).
 */
export async function purgeNodeBatchMarkers(db: D1Database, before: number): Promise<number> {
  const res = await db.prepare('DELETE FROM node_batches WHERE received_at < ?').bind(before).run();
  return res.meta.changes;
}
