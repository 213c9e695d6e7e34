// Queries of the delivery archive (docs/delivery.md, docs/decisions/219-221): which rows of D1's delivery history are
// past the hot window and may be copied to R2, their deletion once the copy is verified, the archive's manifest of
// customer batches and how far each kind has left D1, and the hot side of the exit-IP trace.
import { USAGE_OF_LEASE } from './records';
import { DAY_MS } from '../../lib/time';

export type ArchiveKind = 'extract' | 'lease' | 'usage' | 'refusal';
export const ARCHIVE_KINDS: readonly ArchiveKind[] = ['lease', 'extract', 'usage', 'refusal'];

/** The D1 table of each kind, the column that dates a row and the column naming its customer. */
export const ARCHIVE_SOURCE = {
  extract: { table: 'extract_logs', at: 'created_at', owner: 'user_id' },
  lease: { table: 'ip_assignments', at: 'assigned_at', owner: 'user_id' },
  usage: { table: 'node_usage', at: 'period_start', owner: 'user_id' },
  refusal: { table: 'node_refusals', at: 'at', owner: 'user_id' },
} as const satisfies Record<ArchiveKind, { table: string; at: string; owner: string }>;

export type SourceRow = Record<string, unknown> & { id: number };

/**
 * What may leave D1 before `cutoff`, oldest first (at most `limit` rows):
 * - extract: calls logged before the cutoff.
 * - lease: leases that ended before the cutoff, a customer's leases of one exit in the order they started (a lease
 *   waits while an earlier one of the same customer and exit still runs), each stamped with the bytes, connections and
 *   client addresses of the usage rows it owns (USAGE_OF_LEASE), read while all of them are still in D1.
 * - usage: rows a day older than the cutoff whose owning lease has left D1 (none of the customer's leases of that exit
 *   that started before the row's period ended is still in D1), so a lease is always stamped from all its rows; and,
 *   for the customers in `heldFrom` (user id, start of the oldest lease its records object still holds: decision 248),
 *   only rows whose period ended before that start.
 * - refusal: refusals before the cutoff.
 */
export async function rowsToArchive(
  db: D1Database,
  kind: ArchiveKind,
  cutoff: number,
  limit: number,
  heldFrom: [userId: number, from: number][] = [],
): Promise<SourceRow[]> {
  const sql = {
    extract: `SELECT * FROM extract_logs WHERE created_at < ?1 ORDER BY created_at, id LIMIT ?2 + 0`,
    lease: `SELECT a.*, (SELECT node_id FROM proxy_ips WHERE id = a.ip_id) AS node_id,
              (SELECT json_object('bytes', coalesce(sum(n.bytes_in + n.bytes_out), 0),
                                  'connections', coalesce(sum(n.connections), 0),
                                  'clients', json_group_array(DISTINCT n.client_ip))
                 FROM node_usage n WHERE ${USAGE_OF_LEASE}) AS owned
            FROM ip_assignments a
            WHERE a.expires_at < ?1 AND NOT EXISTS (SELECT 1 FROM ip_assignments e WHERE e.user_id = a.user_id
              AND e.ip_id = a.ip_id AND e.assigned_at < a.assigned_at AND e.expires_at >= ?1)
            ORDER BY a.assigned_at, a.id LIMIT ?2 + 0`,
    usage: `SELECT n.* FROM node_usage n WHERE n.period_start < ?1 - ${DAY_MS}
              AND NOT EXISTS (SELECT 1 FROM proxy_ips i JOIN ip_assignments a ON a.ip_id = i.id
                WHERE i.ip = n.ip AND i.port = n.port AND a.user_id = n.user_id AND +a.assigned_at <= n.period_end)
              AND n.period_end < coalesce((SELECT json_each.value ->> 1 FROM json_each(?3) WHERE json_each.value ->> 0 = n.user_id),
                                          ${Number.MAX_SAFE_INTEGER})
            ORDER BY n.period_start, n.id LIMIT ?2 + 0`,
    refusal: `SELECT * FROM node_refusals WHERE at < ?1 ORDER BY at, id LIMIT ?2 + 0`,
  }[kind];
  const stmt = db.prepare(sql);
  const { results } = await (kind === 'usage'
    ? stmt.bind(cutoff, limit, JSON.stringify(heldFrom))
    : stmt.bind(cutoff, limit)
  ).all<SourceRow>();
  return results;
}

/** Delete rows of a kind by id (after their copy was verified); returns how many went. */
export async function deleteArchivedRows(db: D1Database, kind: ArchiveKind, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .prepare(`DELETE FROM ${ARCHIVE_SOURCE[kind].table} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(ids))
    .run();
  return res.meta.changes;
}

/** The time of the oldest row of a kind still in D1 before `cutoff`, or null when none is left. */
export async function oldestLeftBefore(db: D1Database, kind: ArchiveKind, cutoff: number): Promise<number | null> {
  const s = ARCHIVE_SOURCE[kind];
  const row = await db
    .prepare(`SELECT min(${s.at}) AS t FROM ${s.table} WHERE ${s.at} < ?`)
    .bind(cutoff)
    .first<{ t: number | null }>();
  return row?.t ?? null;
}

/** Every row of the kind dated before this instant is in the archive and no longer in D1 (0: nothing archived yet). */
export async function archiveThrough(db: D1Database, kind: ArchiveKind): Promise<number> {
  const row = await db
    .prepare('SELECT through FROM archive_state WHERE kind = ?')
    .bind(kind)
    .first<{ through: number }>();
  return row?.through ?? 0;
}

/** Move a kind's mark forward (never back). */
export async function advanceArchiveThrough(
  db: D1Database,
  kind: ArchiveKind,
  through: number,
  now: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO archive_state (kind, through, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT(kind) DO UPDATE SET through = max(through, excluded.through), updated_at = excluded.updated_at`,
    )
    .bind(kind, through, now)
    .run();
}

export interface ArchiveObjectRow {
  key: string;
  kind: ArchiveKind;
  day: string;
  owner: number;
  part: number;
  rows: number;
  bytes: number;
  sha256: string;
}

/** Record (or replace) verified customer batches in the manifest, in one statement. */
export async function recordArchiveObjects(db: D1Database, objects: ArchiveObjectRow[], now: number): Promise<void> {
  if (objects.length === 0) return;
  await db
    .prepare(
      `INSERT INTO archive_objects (key, kind, day, owner, part, rows, bytes, sha256, written_at)
       SELECT j.value ->> 'key', j.value ->> 'kind', j.value ->> 'day', j.value ->> 'owner', j.value ->> 'part',
              j.value ->> 'rows', j.value ->> 'bytes', j.value ->> 'sha256', ?2
       FROM json_each(?1) j WHERE true
       ON CONFLICT(key) DO UPDATE SET rows = excluded.rows, bytes = excluded.bytes, sha256 = excluded.sha256,
         written_at = excluded.written_at`,
    )
    .bind(JSON.stringify(objects), now)
    .run();
}

/**
 * A customer's batches of a kind in a day range (inclusive), newest day first; within a day the objects' rows (negative
 * ids, decision 248: newer than any of D1's) first, newest id block first.
 */
export async function listArchiveObjects(
  db: D1Database,
  r: { owner: number; kind: ArchiveKind; fromDay: string; toDay: string },
): Promise<ArchiveObjectRow[]> {
  const { results } = await db
    .prepare(
      `SELECT key, kind, day, owner, part, rows, bytes, sha256 FROM archive_objects
       WHERE owner = ? AND kind = ? AND day >= ? AND day <= ? ORDER BY day DESC, part < 0 DESC, abs(part) DESC`,
    )
    .bind(r.owner, r.kind, r.fromDay, r.toDay)
    .all<ArchiveObjectRow>();
  return results;
}

/**
 * The customers with calls counted in [from, to) (the hour counters, which D1 keeps for every call): the records objects
 * the archive step asks for their history past the hot window (decision 248). At most `limit`, by user id.
 */
export async function customersWithCallsBetween(
  db: D1Database,
  from: number,
  to: number,
  limit: number,
): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT user_id FROM extract_hour_counts WHERE hour_start >= ? AND hour_start < ?
       ORDER BY user_id LIMIT ? + 0`,
    )
    .bind(from, to, limit)
    .all<{ user_id: number }>();
  return results.map((r) => r.user_id);
}

/** Every node's id (their objects hold copies of leases, decision 245). */
export async function nodeIds(db: D1Database): Promise<number[]> {
  const { results } = await db.prepare('SELECT id FROM proxy_nodes ORDER BY id').all<{ id: number }>();
  return results.map((r) => r.id);
}

/** Forget the batches of days before `day` (their objects were deleted). */
export async function dropArchiveObjectsBefore(db: D1Database, day: string): Promise<number> {
  const res = await db.prepare('DELETE FROM archive_objects WHERE day < ?').bind(day).run();
  return res.meta.changes;
}

/** The leases of an exit address (any port) that had begun by `at` and ended after `at - slackMs`, from D1. */
export async function hotLeasesOfExit(db: D1Database, ip: string, at: number, slackMs: number): Promise<SourceRow[]> {
  const { results } = await db
    .prepare(
      `SELECT a.*, i.node_id,
              (SELECT json_object('bytes', coalesce(sum(n.bytes_in + n.bytes_out), 0),
                                  'connections', coalesce(sum(n.connections), 0),
                                  'clients', json_group_array(DISTINCT n.client_ip))
                 FROM node_usage n WHERE ${USAGE_OF_LEASE}) AS owned
       FROM proxy_ips i JOIN ip_assignments a ON a.ip_id = i.id
       WHERE i.ip = ?1 AND a.expires_at > ?2 - ?3 AND a.assigned_at <= ?2
       ORDER BY a.assigned_at DESC, a.id DESC LIMIT 50`,
    )
    .bind(ip, at, slackMs)
    .all<SourceRow>();
  return results;
}

/** A lease held outside D1 and the stretch of its holder's usage rows it owns: periods ending in [from, until). */
export interface UsageWindow {
  userId: number;
  ip: string;
  port: number;
  from: number;
  until: number;
}

/**
 * The bytes, connections and client addresses of each window's usage rows (the user's rows on that exit whose period
 * ended in the window), as the `owned` JSON that hotLeasesOfExit gives D1's leases; in the windows' order.
 */
export async function usageOfWindows(db: D1Database, windows: UsageWindow[]): Promise<string[]> {
  if (windows.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT w.key AS k,
              (SELECT json_object('bytes', coalesce(sum(n.bytes_in + n.bytes_out), 0),
                                  'connections', coalesce(sum(n.connections), 0),
                                  'clients', json_group_array(DISTINCT n.client_ip))
                 FROM node_usage n WHERE n.user_id = w.value ->> 0 AND n.ip = w.value ->> 1 AND n.port = w.value ->> 2
                   AND n.period_end >= w.value ->> 3 AND n.period_end < w.value ->> 4
                   AND n.period_start < w.value ->> 4) AS owned
       FROM json_each(?1) w ORDER BY w.key`,
    )
    .bind(JSON.stringify(windows.map((w) => [w.userId, w.ip, w.port, w.from, w.until])))
    .all<{ k: number; owned: string }>();
  return results.map((r) => r.owned);
}

export interface HolderFacts {
  id: number;
  phone: string;
  identityAuth: number;
  companyAuthState: number;
}

/** The customers' phone and real-name state (D1 keeps accounts). */
export async function holderFacts(db: D1Database, userIds: number[]): Promise<Map<number, HolderFacts>> {
  if (userIds.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT id, phone, is_identity_auth AS identityAuth, company_auth_state AS companyAuthState FROM users
       WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .bind(JSON.stringify(userIds))
    .all<HolderFacts>();
  return new Map(results.map((r) => [r.id, r]));
}

/** The packages' names (D1 keeps packages). */
export async function packageNames(db: D1Database, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare('SELECT id, name FROM proxy_packages WHERE id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(ids))
    .all<{ id: number; name: string }>();
  return new Map(results.map((r) => [r.id, r.name]));
}

/** A customer id by phone (for the console's export of one customer's history). */
export async function userIdByPhone(db: D1Database, phone: string): Promise<number | null> {
  const row = await db.prepare('SELECT id FROM users WHERE phone = ?').bind(phone).first<{ id: number }>();
  return row?.id ?? null;
}
