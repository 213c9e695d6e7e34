// Queries for visitor submissions: enterprise consultations and ad-conversion tracking points. Rate limits are part of
// the INSERT itself, so concurrent requests can never both slip through a window.
import { DAY_MS, HOUR_MS } from '../../lib/time';

/** What a visitor submits on the consultation form (stored as is, shown alike in the console). */
export interface ConsultFields {
  company: string;
  contactName: string;
  phone: string;
  email: string;
  scenario: string;
  monthlyVolume: string;
  message: string;
  userId: number | null;
}

export interface ConsultInput extends ConsultFields {
  ip: string;
  now: number;
}

export interface ConsultLimits {
  perIpHour: number;
  perIpDay: number;
  perPhoneDay: number;
}

/** Store a consultation unless a limit is reached; the new id, or null when refused. */
export async function insertConsultWithinLimits(
  db: D1Database,
  c: ConsultInput,
  limits: ConsultLimits,
): Promise<number | null> {
  const res = await db
    .prepare(
      `INSERT INTO consult_requests
         (company, contact_name, phone, email, scenario, monthly_volume, message, user_id, client_ip, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
       WHERE (SELECT count(*) FROM consult_requests WHERE client_ip = ?9 AND created_at > ?10 - ${HOUR_MS}) < ?11
         AND (SELECT count(*) FROM consult_requests WHERE client_ip = ?9 AND created_at > ?10 - ${DAY_MS}) < ?12
         AND (SELECT count(*) FROM consult_requests WHERE phone = ?3 AND created_at > ?10 - ${DAY_MS}) < ?13`,
    )
    .bind(
      c.company,
      c.contactName,
      c.phone,
      c.email,
      c.scenario,
      c.monthlyVolume,
      c.message,
      c.userId,
      c.ip,
      c.now,
      limits.perIpHour,
      limits.perIpDay,
      limits.perPhoneDay,
    )
    .run();
  return res.meta.changes === 1 ? Number(res.meta.last_row_id) : null;
}

export interface TrackingInput {
  channel: 'baidu' | '360';
  clickId: string;
  event: string;
  page: string;
  did: string;
  trafficFrom: string;
  fingerPrint: string;
  userId: number | null;
  ip: string;
  now: number;
}

export type TrackingOutcome = 'stored' | 'duplicate' | 'limited';

/** Store a tracking point once per (channel, click id, event), at most perIpHour per client IP per hour. */
export async function insertTrackingPoint(
  db: D1Database,
  t: TrackingInput,
  perIpHour: number,
): Promise<TrackingOutcome> {
  const res = await db
    .prepare(
      `INSERT OR IGNORE INTO tracking_points
         (channel, click_id, event, page, did, traffic_from, finger_print, user_id, client_ip, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
       WHERE (SELECT count(*) FROM tracking_points WHERE client_ip = ?9 AND created_at > ?10 - ${HOUR_MS}) < ?11`,
    )
    .bind(t.channel, t.clickId, t.event, t.page, t.did, t.trafficFrom, t.fingerPrint, t.userId, t.ip, t.now, perIpHour)
    .run();
  if (res.meta.changes === 1) return 'stored';
  const dup = await db
    .prepare('SELECT 1 AS x FROM tracking_points WHERE channel = ? AND click_id = ? AND event = ?')
    .bind(t.channel, t.clickId, t.event)
    .first();
  return dup ? 'duplicate' : 'limited';
}
