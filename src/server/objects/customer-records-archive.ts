// The archive's reads and deletes in the customer's records object (decision 248): the calls and leases past the hot
// window that the hourly job copies to R2 (archive/copy.ts), and their deletion once the copy is verified. SQL over the
// object's own tables (customer-records.ts, `logs` and `leases`); the object's `// Archive` methods delegate here.

import { DAY_MS, shanghaiMidnight } from '../../lib/time';
import type { KeptCall, KeptLease } from './customer-records-read';

/**
 * Decision 254: past this size (the object's SQLite database, `databaseSize`) the archive job takes the customer's
 * history up to the early cutoff instead of the hot window's start. A customer at the documented cap (10 calls a
 * second of ten IPs) keeps ≈ 2 GB a day here, so its object reaches 4 GB after about two days; from then on it holds
 * today and yesterday (≈ 2–4 GB) and what the job has not drained yet, against the object's 10 GB: 6 GB of headroom,
 * three days at the cap before a stalled drain would fill it. An ordinary customer (100 calls a day, ≈ 0.2 MB) never
 * comes near it and keeps the whole 7-day window.
 */
export const EARLY_ARCHIVE_BYTES = 4 * 1024 ** 3;

/**
 * The early cutoff: 北京时间 midnight of yesterday. Today and yesterday stay in the object (a dedup=1 call reads today's
 * leases here, and the records pages read the last two days from here); never later than that.
 */
export const earlyCutoff = (now: number): number => shanghaiMidnight(now) - DAY_MS;

/** A call past the hot window: charged (with its receipt) or refused (no receipt). */
export type DueCall = KeptCall & { receiptId: number | null };

/**
 * A lease past the hot window, with its receipt, its index `k` in the receipt (so its archive id is the one the node's
 * object and the trace give it) and the start of the customer's next lease of the same exit (`nextAt`, null: none),
 * which bounds the usage it owns (decision 222), and its call's row id in the object (`logId`: the archive part).
 */
export type DueLease = KeptLease & { receiptId: number; k: number; logId: number };

/**
 * The leases of one call: its leases start when the call was made (record() dates them so), which the start index
 * (leases_time) finds without an index on log_id, an index each kept lease would pay for on the hot path.
 */
const OF_CALL = (lease: string, log: string) =>
  `${lease}.assigned_at = ${log}.created_at AND ${lease}.log_id = ${log}.id`;
/** Two leases of the same call. */
const SAME_CALL = (a: string, b: string) => `${a}.assigned_at = ${b}.assigned_at AND ${a}.log_id = ${b}.log_id`;

/**
 * The calls whose leases may leave before `cutoff`: every lease of the call ended before it (a call's leases leave
 * together, so each keeps its index in the receipt) and no earlier lease of the same exit belongs to a call that
 * stays (a customer's leases of one exit leave in the order they started, so each is stamped with its usage while the
 * next one is still here).
 */
const DUE_LEASE_CALLS = `
SELECT l.log_id FROM leases l WHERE l.assigned_at < ?1 GROUP BY l.log_id
HAVING max(l.expires_at) < ?1
   AND NOT max(EXISTS (SELECT 1 FROM leases e WHERE e.ip_id = l.ip_id AND e.assigned_at < l.assigned_at
     AND (e.expires_at >= ?1 OR EXISTS (SELECT 1 FROM leases f WHERE ${SAME_CALL('f', 'e')} AND f.expires_at >= ?1))))
ORDER BY min(l.assigned_at), l.log_id LIMIT ?2`;

/** At most `limit` calls' leases that may leave before `cutoff`, oldest first. */
export function dueLeases(sql: SqlStorage, cutoff: number, limit: number): DueLease[] {
  return sql
    .exec(
      `SELECT a.*, g.receipt_id,
         a.id - (SELECT min(s.id) FROM leases s WHERE ${SAME_CALL('s', 'a')}) AS k,
         (SELECT min(b.assigned_at) FROM leases b WHERE b.ip_id = a.ip_id AND b.assigned_at >= a.assigned_at
            AND (b.assigned_at > a.assigned_at OR b.id > a.id)) AS next_at
       FROM leases a JOIN logs g ON g.id = a.log_id
       WHERE a.assigned_at < ?1 AND a.log_id IN (${DUE_LEASE_CALLS})
       ORDER BY a.assigned_at, a.id`,
      cutoff,
      limit,
    )
    .toArray()
    .map((x) => ({
      id: Number(x.id),
      receiptId: Number(x.receipt_id),
      k: Number(x.k),
      logId: Number(x.log_id),
      ipId: Number(x.ip_id),
      nodeId: Number(x.node_id),
      ip: String(x.ip),
      port: Number(x.port),
      protocol: String(x.protocol),
      region: String(x.region),
      carrier: String(x.carrier),
      productType: Number(x.product_type),
      packageId: Number(x.package_id),
      assignedAt: Number(x.assigned_at),
      expiresAt: Number(x.expires_at),
      nextAt: x.next_at === null ? null : Number(x.next_at),
    }));
}

/** At most `limit` calls made before `cutoff` whose leases have all left, oldest first. */
export function dueCalls(sql: SqlStorage, cutoff: number, limit: number): DueCall[] {
  return sql
    .exec(
      `SELECT * FROM logs g WHERE g.created_at < ?1 AND NOT EXISTS (SELECT 1 FROM leases a WHERE ${OF_CALL('a', 'g')})
       ORDER BY g.created_at, g.id LIMIT ?2`,
      cutoff,
      limit,
    )
    .toArray()
    .map((x) => ({
      id: Number(x.id),
      receiptId: x.receipt_id === null ? null : Number(x.receipt_id),
      packageId: x.package_id === null ? null : Number(x.package_id),
      productType: Number(x.product_type),
      clientIp: String(x.client_ip),
      requested: Number(x.requested),
      returned: Number(x.returned),
      code: Number(x.code),
      query: String(x.query),
      createdAt: Number(x.created_at),
    }));
}

/** The start of the oldest lease held (null: none). */
export function oldestLeaseStart(sql: SqlStorage): number | null {
  const t = sql.exec('SELECT min(assigned_at) AS t FROM leases').one().t;
  return t === null ? null : Number(t);
}

/** Delete archived rows by the object's ids (a call only once none of its leases is left); how many went. */
export function dropArchived(
  sql: SqlStorage,
  r: { calls: number[]; leases: number[] },
): { calls: number; leases: number } {
  const changes = () => Number(sql.exec('SELECT changes() AS n').one().n);
  let leases = 0;
  let calls = 0;
  if (r.leases.length) {
    sql.exec('DELETE FROM leases WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(r.leases));
    leases = changes();
  }
  if (r.calls.length) {
    sql.exec(
      `DELETE FROM logs WHERE id IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM leases a WHERE ${OF_CALL('a', 'logs')})`,
      JSON.stringify(r.calls),
    );
    calls = changes();
  }
  return { calls, leases };
}
