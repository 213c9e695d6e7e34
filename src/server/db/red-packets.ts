// Queries for red packets: launches with a budget, received packets and turning a packet into a proxy package.
import { runBatch } from './batch';
import { PACKAGE_STATE } from '../../lib/package-states';
import { DAY_MS } from '../../lib/time';
import { RED_RECORD_STATE } from '../../lib/trust-states';

export interface RedLaunch {
  id: number;
  title: string;
  description: string;
  productType: number;
  ipDurationMinutes: number;
  ipCount: number;
  validDays: number;
  budget: number;
  received: number;
  startsAt: number;
  endsAt: number;
}

/** A red_launches row as stored. */
export interface RedLaunchDbRow {
  id: number;
  title: string;
  description: string;
  product_type: number;
  ip_duration_minutes: number;
  ip_count: number;
  valid_days: number;
  budget: number;
  received: number;
  starts_at: number;
  ends_at: number;
}

export const mapRedLaunch = (r: RedLaunchDbRow): RedLaunch => ({
  id: r.id,
  title: r.title,
  description: r.description,
  productType: r.product_type,
  ipDurationMinutes: r.ip_duration_minutes,
  ipCount: r.ip_count,
  validDays: r.valid_days,
  budget: r.budget,
  received: r.received,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
});

/** The newest enabled launch whose window contains now. */
export async function findCurrentLaunch(db: D1Database, now: number): Promise<RedLaunch | null> {
  const row = await db
    .prepare(
      'SELECT * FROM red_launches WHERE enabled = 1 AND starts_at <= ?1 AND ends_at > ?1 ORDER BY starts_at DESC LIMIT 1',
    )
    .bind(now)
    .first<RedLaunchDbRow>();
  return row ? mapRedLaunch(row) : null;
}

/** A launch by id. */
export async function findLaunch(db: D1Database, id: number): Promise<RedLaunch | null> {
  const row = await db.prepare('SELECT * FROM red_launches WHERE id = ?').bind(id).first<RedLaunchDbRow>();
  return row ? mapRedLaunch(row) : null;
}

/**
 * Receive one packet of a launch in one transaction: the record is inserted only while the launch is open and under
 * budget (UNIQUE(launch_id, user_id) stops a second receipt), and the launch's counter moves with it; CHECK(received
 * <= budget) is the last guard. Returns the record id or null when nothing was received.
 */
export async function receivePacket(
  db: D1Database,
  r: { launchId: number; userId: number; now: number },
): Promise<number | null> {
  const ref = crypto.randomUUID();
  const insert = db
    .prepare(
      `INSERT INTO red_records (ref, launch_id, user_id, state, received_at, expires_at)
       SELECT ?1, id, ?2, 1, ?3, ?3 + valid_days * ${DAY_MS} FROM red_launches
       WHERE id = ?4 AND enabled = 1 AND starts_at <= ?3 AND ends_at > ?3 AND received < budget
       ON CONFLICT DO NOTHING`,
    )
    .bind(ref, r.userId, r.now, r.launchId);
  const received = db.prepare('SELECT id FROM red_records WHERE ref = ?').bind(ref);
  const batch = await runBatch(db, [
    insert,
    db
      .prepare(
        'UPDATE red_launches SET received = received + 1 WHERE id = ? AND EXISTS (SELECT 1 FROM red_records WHERE ref = ?)',
      )
      .bind(r.launchId, ref),
    received,
  ]);
  if (batch.changes(insert) !== 1) return null;
  return ((batch.of(received)?.results ?? []) as { id: number }[])[0]?.id ?? null;
}

/** True when the user holds a packet of the launch. */
export async function hasReceived(db: D1Database, launchId: number, userId: number): Promise<boolean> {
  return (
    (await db
      .prepare('SELECT 1 AS x FROM red_records WHERE launch_id = ? AND user_id = ?')
      .bind(launchId, userId)
      .first()) !== null
  );
}

export interface RedRecord {
  id: number;
  launchId: number;
  title: string;
  productType: number;
  ipCount: number;
  ipDurationMinutes: number;
  validDays: number;
  state: number;
  packageId: number | null;
  receivedAt: number;
  usedAt: number | null;
  expiresAt: number;
  seen: boolean;
}

const RECORD_SELECT = `SELECT r.id, r.launch_id, l.title, l.product_type, l.ip_count, l.ip_duration_minutes, l.valid_days,
  r.state, r.package_id, r.received_at, r.used_at, r.expires_at, r.seen_at
  FROM red_records r JOIN red_launches l ON l.id = r.launch_id`;

interface RecordRow {
  id: number;
  launch_id: number;
  title: string;
  product_type: number;
  ip_count: number;
  ip_duration_minutes: number;
  valid_days: number;
  state: number;
  package_id: number | null;
  received_at: number;
  used_at: number | null;
  expires_at: number;
  seen_at: number | null;
}

const mapRecord = (r: RecordRow): RedRecord => ({
  id: r.id,
  launchId: r.launch_id,
  title: r.title,
  productType: r.product_type,
  ipCount: r.ip_count,
  ipDurationMinutes: r.ip_duration_minutes,
  validDays: r.valid_days,
  state: r.state,
  packageId: r.package_id,
  receivedAt: r.received_at,
  usedAt: r.used_at,
  expiresAt: r.expires_at,
  seen: r.seen_at !== null,
});

/** A page of the user's packets, newest first, and the total. */
export async function listRecords(
  db: D1Database,
  userId: number,
  page: number,
  pageSize: number,
): Promise<{ list: RedRecord[]; total: number }> {
  const [rows, total] = await db.batch([
    db
      .prepare(`${RECORD_SELECT} WHERE r.user_id = ? ORDER BY r.received_at DESC, r.id DESC LIMIT ? + 0 OFFSET ?`)
      .bind(userId, pageSize, (page - 1) * pageSize),
    db.prepare('SELECT count(*) AS n FROM red_records WHERE user_id = ?').bind(userId),
  ]);
  return {
    list: ((rows?.results ?? []) as RecordRow[]).map(mapRecord),
    total: ((total?.results ?? []) as { n: number }[])[0]?.n ?? 0,
  };
}

/** Unseen packets of the user, then mark them seen (the "new red packet" popup shows each once). */
export async function takeNewRecords(db: D1Database, userId: number, now: number): Promise<RedRecord[]> {
  const [rows] = await db.batch([
    db.prepare(`${RECORD_SELECT} WHERE r.user_id = ? AND r.seen_at IS NULL ORDER BY r.id`).bind(userId),
    db.prepare('UPDATE red_records SET seen_at = ? WHERE user_id = ? AND seen_at IS NULL').bind(now, userId),
  ]);
  return ((rows?.results ?? []) as RecordRow[]).map(mapRecord);
}

/** One packet of the user. */
export async function findRecord(db: D1Database, userId: number, id: number): Promise<RedRecord | null> {
  const row = await db.prepare(`${RECORD_SELECT} WHERE r.id = ? AND r.user_id = ?`).bind(id, userId).first<RecordRow>();
  return row ? mapRecord(row) : null;
}

/**
 * Turn an unused, unexpired packet into a proxy package, once: the state flip is conditional and the package is
 * inserted only when this call flipped it (same transaction). Returns the package id or null.
 */
export async function redeemPacketRecord(
  db: D1Database,
  r: { userId: number; recordId: number; now: number },
): Promise<number | null> {
  const useRef = `RP${r.recordId}`;
  const [flip, pkg] = await db.batch([
    db
      .prepare(
        `UPDATE red_records SET state = ${RED_RECORD_STATE.used}, used_at = ?
         WHERE id = ? AND user_id = ? AND state = ${RED_RECORD_STATE.received} AND expires_at > ?`,
      )
      .bind(r.now, r.recordId, r.userId, r.now),
    db
      .prepare(
        `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
           remaining_count, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
         SELECT r.user_id, l.product_type, 1, '红包 · ' || l.title, l.ip_duration_minutes, l.ip_count, l.ip_count,
           ?1, ?1 + l.valid_days * ${DAY_MS}, ${PACKAGE_STATE.active}, 'red_packet', ?2, ?1, ?1
         FROM red_records r JOIN red_launches l ON l.id = r.launch_id
         WHERE r.id = ?3 AND r.state = ${RED_RECORD_STATE.used} AND r.used_at = ?1 AND r.package_id IS NULL
         RETURNING id`,
      )
      .bind(r.now, useRef, r.recordId),
    db
      .prepare(
        `UPDATE red_records SET package_id = (SELECT id FROM proxy_packages WHERE source = 'red_packet' AND source_ref = ?)
         WHERE id = ? AND package_id IS NULL`,
      )
      .bind(useRef, r.recordId),
  ]);
  if (flip?.meta.changes !== 1) return null;
  return ((pkg?.results ?? []) as { id: number }[])[0]?.id ?? null;
}
