// The notice SMS outbox (migration 0046, docs/decisions/242): auto-renew notices bound for the customer's phone, one row
// per notice and period (`notice_key`), claimed by a conditional UPDATE before each try so two runs never send the same
// row, and dropped once the renewal period it speaks of no longer stands.
import { stillDueForRenewalSql } from './auto-renew';

/** The stored states of a notice SMS. */
export const NOTICE_SMS_STATE = {
  /** Waiting for its first or next try (`next_at`). */
  pending: 'pending',
  sent: 'sent',
  /** Not sent and not tried again: `reason` is 'permanent' or 'gave_up'. */
  failed: 'failed',
  /** The notice no longer applied when it was due: `reason` is 'no_longer_applies'. */
  dropped: 'dropped',
} as const;

export type NoticeSmsReason = 'permanent' | 'gave_up' | 'no_longer_applies';

export interface NoticeSmsQueued {
  /** One per notice and period, e.g. renew_notice:<package>:<expiry>:<notified|short>. */
  key: string;
  userId: number;
  packageId: number;
  periodExpiry: number;
  phone: string;
  template: 'renew_notice';
  params: Record<string, string>;
}

/**
 * The statement that queues a notice SMS, due at once, for a batch: it inserts only when the statement just before it
 * in the batch changed a row (the notice's claim, through its 站内通知 insert), and never a second row for one key.
 */
export function queueNoticeSmsAfterClaim(db: D1Database, m: NoticeSmsQueued, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO notice_sms (notice_key, user_id, package_id, period_expiry, phone, template, params, state, attempts,
                               next_at, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, '${NOTICE_SMS_STATE.pending}', 0, ?8, ?8, ?8 WHERE changes() = 1
       ON CONFLICT (notice_key) DO NOTHING`,
    )
    .bind(m.key, m.userId, m.packageId, m.periodExpiry, m.phone, m.template, JSON.stringify(m.params), now);
}

/** The condition, on a notice_sms row, that the renewal period it speaks of still stands at `nowSql`. */
const stillApplies = (nowSql: string) =>
  stillDueForRenewalSql('notice_sms.package_id', 'notice_sms.period_expiry', nowSql);

export interface NoticeSmsClaim {
  phone: string;
  template: 'renew_notice';
  params: Record<string, string>;
  /** Tries made, this one included. */
  attempts: number;
}

/**
 * Claim one pending notice SMS for a try at `now`: only when it is due, still applies, and no other run claimed it
 * (the claim counts the try and moves `next_at` to `now + leaseMs`, so a run that dies mid-send is retried after the
 * lease). Null when this caller may not send it.
 */
export async function claimNoticeSms(
  db: D1Database,
  key: string,
  now: number,
  leaseMs: number,
): Promise<NoticeSmsClaim | null> {
  const row = await db
    .prepare(
      `UPDATE notice_sms SET attempts = attempts + 1, next_at = ?2 + ?3, updated_at = ?2
       WHERE notice_key = ?1 AND state = '${NOTICE_SMS_STATE.pending}' AND next_at <= ?2 AND ${stillApplies('?2')}
       RETURNING phone, template, params, attempts`,
    )
    .bind(key, now, leaseMs)
    .first<{ phone: string; template: string; params: string; attempts: number }>();
  if (row?.template !== 'renew_notice') return null;
  return {
    phone: row.phone,
    template: row.template,
    params: JSON.parse(row.params) as Record<string, string>,
    attempts: row.attempts,
  };
}

/** Pending rows whose notice no longer applies at `now` become 'dropped' (never sent late); how many. */
export async function dropStaleNoticeSms(db: D1Database, now: number): Promise<number> {
  const res = await db
    .prepare(
      `UPDATE notice_sms SET state = '${NOTICE_SMS_STATE.dropped}', reason = 'no_longer_applies', updated_at = ?1
       WHERE state = '${NOTICE_SMS_STATE.pending}' AND NOT ${stillApplies('?1')}`,
    )
    .bind(now)
    .run();
  return res.meta.changes;
}

/** Keys of pending notice SMS due at `now`, the longest waiting first. */
export async function dueNoticeSmsKeys(db: D1Database, now: number, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT notice_key FROM notice_sms WHERE state = '${NOTICE_SMS_STATE.pending}' AND next_at <= ?1
       ORDER BY next_at LIMIT ?2 + 0`,
    )
    .bind(now, limit)
    .all<{ notice_key: string }>();
  return results.map((r) => r.notice_key);
}

/** The try `attempts` of the row went out. */
export async function markNoticeSmsSent(db: D1Database, key: string, attempts: number, now: number): Promise<void> {
  await db
    .prepare(
      `UPDATE notice_sms SET state = '${NOTICE_SMS_STATE.sent}', updated_at = ?3
       WHERE notice_key = ?1 AND attempts = ?2 AND state = '${NOTICE_SMS_STATE.pending}'`,
    )
    .bind(key, attempts, now)
    .run();
}

/** The try `attempts` failed with an error worth retrying: due again at `nextAt`. */
export async function retryNoticeSmsAt(
  db: D1Database,
  r: { key: string; attempts: number; nextAt: number; error: string },
  now: number,
): Promise<void> {
  await db
    .prepare(
      `UPDATE notice_sms SET next_at = ?3, last_error = ?4, updated_at = ?5
       WHERE notice_key = ?1 AND attempts = ?2 AND state = '${NOTICE_SMS_STATE.pending}'`,
    )
    .bind(r.key, r.attempts, r.nextAt, r.error, now)
    .run();
}

/** The try `attempts` failed and the row is not tried again, for `reason`. */
export async function failNoticeSms(
  db: D1Database,
  r: { key: string; attempts: number; reason: 'permanent' | 'gave_up'; error: string },
  now: number,
): Promise<void> {
  await db
    .prepare(
      `UPDATE notice_sms SET state = '${NOTICE_SMS_STATE.failed}', reason = ?3, last_error = ?4, updated_at = ?5
       WHERE notice_key = ?1 AND attempts = ?2 AND state = '${NOTICE_SMS_STATE.pending}'`,
    )
    .bind(r.key, r.attempts, r.reason, r.error, now)
    .run();
}

/** Delete rows about periods that ended before `before`; how many went. */
export async function purgeNoticeSms(db: D1Database, before: number): Promise<number> {
  const res = await db.prepare('DELETE FROM notice_sms WHERE period_expiry < ?').bind(before).run();
  return res.meta.changes;
}
