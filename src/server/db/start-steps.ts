// What the personal centre's 开始使用 checklist reads: whether the user has ever paid an order, has an address on the
// whitelist, and has had IPs from an extraction. One statement, each an EXISTS over an index led by user_id.

export interface StartSteps {
  /** An order of theirs was paid (a refund later does not undo having bought). */
  bought: boolean;
  /** At least one address on their whitelist (enabled or not). */
  whitelisted: boolean;
  /** An extraction returned IPs: the hourly counters (kept 180 days) or the log. */
  extracted: boolean;
}

export async function readStartSteps(db: D1Database, userId: number): Promise<StartSteps> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM orders WHERE user_id = ?1 AND paid_at IS NOT NULL) AS bought,
              EXISTS (SELECT 1 FROM white_list WHERE user_id = ?1) AS whitelisted,
              (EXISTS (SELECT 1 FROM extract_hour_counts WHERE user_id = ?1 AND ips > 0)
               OR EXISTS (SELECT 1 FROM extract_logs WHERE user_id = ?1 AND returned > 0)) AS extracted`,
    )
    .bind(userId)
    .first<{ bought: number; whitelisted: number; extracted: number }>();
  return { bought: row?.bought === 1, whitelisted: row?.whitelisted === 1, extracted: row?.extracted === 1 };
}
