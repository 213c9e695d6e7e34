// Queries for SMS verification codes and the development outbox. Limits are enforced inside the INSERT itself so two
// concurrent requests can never both pass a window.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/time';

export interface SmsLimits {
  perPhoneMinute: number;
  perPhoneHour: number;
  perPhoneDay: number;
  perIpHour: number;
  perIpDay: number;
}

/** Insert a code only if no limit is exceeded; true when inserted. */
export async function insertCodeWithinLimits(
  db: D1Database,
  c: { phone: string; purpose: string; codeHash: string; ip: string; now: number; expiresAt: number },
  limits: SmsLimits,
): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO sms_codes (phone, purpose, code_hash, client_ip, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?5 - ${MINUTE_MS}) < ?7
         AND (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?5 - ${HOUR_MS}) < ?8
         AND (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?5 - ${DAY_MS}) < ?9
         AND (SELECT count(*) FROM sms_codes WHERE client_ip = ?4 AND created_at > ?5 - ${HOUR_MS}) < ?10
         AND (SELECT count(*) FROM sms_codes WHERE client_ip = ?4 AND created_at > ?5 - ${DAY_MS}) < ?11`,
    )
    .bind(
      c.phone,
      c.purpose,
      c.codeHash,
      c.ip,
      c.now,
      c.expiresAt,
      limits.perPhoneMinute,
      limits.perPhoneHour,
      limits.perPhoneDay,
      limits.perIpHour,
      limits.perIpDay,
    )
    .run();
  return res.meta.changes === 1;
}

export interface SendCounts {
  phoneMinute: number;
  phoneHour: number;
  phoneDay: number;
  ipHour: number;
  ipDay: number;
}

/** How many codes a phone and an IP were sent in each window (to explain a refusal). */
export async function countRecentCodes(db: D1Database, phone: string, ip: string, now: number): Promise<SendCounts> {
  const row = await db
    .prepare(
      `SELECT
         (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?3 - ${MINUTE_MS}) AS phoneMinute,
         (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?3 - ${HOUR_MS}) AS phoneHour,
         (SELECT count(*) FROM sms_codes WHERE phone = ?1 AND created_at > ?3 - ${DAY_MS}) AS phoneDay,
         (SELECT count(*) FROM sms_codes WHERE client_ip = ?2 AND created_at > ?3 - ${HOUR_MS}) AS ipHour,
         (SELECT count(*) FROM sms_codes WHERE client_ip = ?2 AND created_at > ?3 - ${DAY_MS}) AS ipDay`,
    )
    .bind(phone, ip, now)
    .first<SendCounts>();
  return row ?? { phoneMinute: 0, phoneHour: 0, phoneDay: 0, ipHour: 0, ipDay: 0 };
}

/**
 * Try the newest live code for (phone, purpose) in one atomic statement: counts the attempt and consumes the code when
 * the hash matches. Returns true only when this call consumed it.
 */
export async function consumeCode(
  db: D1Database,
  c: { phone: string; purpose: string; codeHash: string; now: number; maxAttempts: number },
): Promise<boolean> {
  const row = await db
    .prepare(
      `UPDATE sms_codes
         SET attempts = attempts + 1,
             consumed_at = CASE WHEN code_hash = ?3 THEN ?4 ELSE NULL END
       WHERE id = (SELECT id FROM sms_codes WHERE phone = ?1 AND purpose = ?2 ORDER BY id DESC LIMIT 1)
         AND consumed_at IS NULL AND expires_at > ?4 AND attempts < ?5
       RETURNING consumed_at`,
    )
    .bind(c.phone, c.purpose, c.codeHash, c.now, c.maxAttempts)
    .first<{ consumed_at: number | null }>();
  return row?.consumed_at != null;
}

/** Write a message to the development outbox. */
export async function insertOutboxMessage(
  db: D1Database,
  m: { phone: string; template: string; params: Record<string, string>; now: number },
): Promise<void> {
  await db
    .prepare('INSERT INTO sms_outbox (phone, template, params, created_at) VALUES (?, ?, ?, ?)')
    .bind(m.phone, m.template, JSON.stringify(m.params), m.now)
    .run();
}

export interface OutboxMessage {
  id: number;
  phone: string;
  template: string;
  params: Record<string, string>;
  createdAt: number;
}

/** The newest outbox messages, optionally for one phone. */
export async function listOutbox(db: D1Database, phone: string | null, limit: number): Promise<OutboxMessage[]> {
  const stmt = phone
    ? db.prepare('SELECT * FROM sms_outbox WHERE phone = ? ORDER BY id DESC LIMIT ? + 0').bind(phone, limit)
    : db.prepare('SELECT * FROM sms_outbox ORDER BY id DESC LIMIT ? + 0').bind(limit);
  const { results } = await stmt.all<{
    id: number;
    phone: string;
    template: string;
    params: string;
    created_at: number;
  }>();
  return results.map((r) => ({
    id: r.id,
    phone: r.phone,
    template: r.template,
    params: JSON.parse(r.params) as Record<string, string>,
    createdAt: r.created_at,
  }));
}

/** Delete codes (and outbox messages) created before a time; returns how many codes went. */
export async function purgeOldCodes(db: D1Database, before: number): Promise<number> {
  const [codes] = await db.batch([
    db.prepare('DELETE FROM sms_codes WHERE created_at < ?').bind(before),
    db.prepare('DELETE FROM sms_outbox WHERE created_at < ?').bind(before),
  ]);
  return codes?.meta.changes ?? 0;
}
