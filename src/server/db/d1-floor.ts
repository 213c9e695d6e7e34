// The local D1 floor the scale benchmark measures beside its routes (scripts/bench-scale.mjs, development only): the
// least a request that touches D1 can cost, as one read and as one single-row write.

/** One D1 round trip that reads no table. */
export async function floorRead(db: D1Database): Promise<void> {
  await db.prepare('SELECT 1 AS one').first();
}

/**
 * One D1 round trip that writes one row: the rate-counter upsert every extraction starts with, for user 0 (ids start
 * at 1, so no account has that counter).
 */
export async function floorWrite(db: D1Database, second: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO extract_rate (user_id, window_sec, count) VALUES (0, ?1, 1)
       ON CONFLICT(user_id) DO UPDATE SET count = count + 1, window_sec = excluded.window_sec`,
    )
    .bind(second)
    .run();
}
