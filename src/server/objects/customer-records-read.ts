// The reads of the customer's records object (decision 246): its calls and leases as the records pages, the IP list
// and the CSV download show them. SQL over the object's own tables (customer-records.ts, `logs` and `leases`) lives
// here; the object's `// Reads` methods delegate to these functions with their SqlStorage.
import type { ExtractLogRow } from '../db/records';

/**
 * Indexes the reads use beyond the object's schema: a lease by address (the IP search), the live leases of one
 * product type (the long-lived IP list), an exit's leases by start (the next lease, for usage) and a call's leases (the
 * lease's index in its call, for its number). The object's
 * constructor runs this after its schema.
 */
export const READ_INDEXES = `
CREATE INDEX IF NOT EXISTS leases_log ON leases(log_id, id);
CREATE INDEX IF NOT EXISTS leases_ip_time ON leases(ip, assigned_at);
CREATE INDEX IF NOT EXISTS leases_exit_time ON leases(ip_id, assigned_at);
CREATE INDEX IF NOT EXISTS leases_type_live ON leases(product_type, expires_at);
`;

/** A call the object keeps (charged or refused), as the call records show it. */
export type KeptCall = ExtractLogRow;

/**
 * A lease the object keeps. `nextAt` is when the next lease of the same exit (IP id) began for this customer (null:
 * none yet): a usage row belongs to this lease when its period ends in [assignedAt, nextAt) (decision 222).
 */
export interface KeptLease {
  id: number;
  ipId: number;
  nodeId: number;
  ip: string;
  port: number;
  protocol: string;
  region: string;
  carrier: string;
  productType: number;
  packageId: number;
  assignedAt: number;
  expiresAt: number;
  nextAt: number | null;
}

/**
 * The numbers a customer sees for the object's rows (decision 247): negative, so they never meet D1's row ids (positive,
 * AUTOINCREMENT), and derived from the receipt, so a row keeps its number when it moves to the archive and the trace
 * gives the same lease the same number (node-leases.ts receiptLeaseNumber):
 * - a lease: −(receipt id × 1000 + k), k = the IP's index in its receipt (0…199, extract-params MAX_NUM);
 * - a charged call: −(receipt id × 1000);
 * - a refused call (no receipt): −(its row id in the object × 1000 + 999), a residue no charged call has.
 * Calls and leases are separate lists, so a call and its first lease may share a number.
 */
export const leaseNumber = (receiptId: number, k: number) => -(receiptId * 1000 + k);
export const callNumber = (receiptId: number | null, rowId: number) =>
  receiptId === null ? -(rowId * 1000 + 999) : -(receiptId * 1000);

/** callNumber in SQL, over a `logs` row. */
export const CALL_NUMBER_SQL = 'CASE WHEN receipt_id IS NULL THEN -(id * 1000 + 999) ELSE -(receipt_id * 1000) END';
/**
 * leaseNumber in SQL, over a `leases` row `a`: a call's leases are inserted in one statement in their receipt's order
 * (customer-records.ts `record`), so their row ids are consecutive and k is the distance from the call's first lease.
 */
export const LEASE_NUMBER_SQL = `-((SELECT g.receipt_id FROM logs g WHERE g.id = a.log_id) * 1000
  + a.id - (SELECT min(f.id) FROM leases f WHERE f.log_id = a.log_id))`;

const CALL_COLUMNS = `${CALL_NUMBER_SQL} AS id, package_id, product_type, client_ip, requested, returned, code, query,
  created_at`;

const keptCall = (x: Record<string, SqlStorageValue>): KeptCall => ({
  id: Number(x.id),
  packageId: x.package_id === null ? null : Number(x.package_id),
  productType: Number(x.product_type),
  clientIp: String(x.client_ip),
  requested: Number(x.requested),
  returned: Number(x.returned),
  code: Number(x.code),
  query: String(x.query),
  createdAt: Number(x.created_at),
});

/** The start of the next lease of the same exit (by start, then id), for the usage rule of decision 222. */
const NEXT_AT = `(SELECT min(b.assigned_at) FROM leases b WHERE b.ip_id = a.ip_id AND b.assigned_at >= a.assigned_at
  AND (b.assigned_at > a.assigned_at OR b.id > a.id)) AS next_at`;

const LEASE_COLUMNS = `${LEASE_NUMBER_SQL} AS id, a.ip_id, a.node_id, a.ip, a.port, a.protocol, a.region, a.carrier, a.product_type,
  a.package_id, a.assigned_at, a.expires_at, ${NEXT_AT}`;

const keptLease = (x: Record<string, SqlStorageValue>): KeptLease => ({
  id: Number(x.id),
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
});

/** A page of the calls made in [from, to), newest first. */
export function callsPage(sql: SqlStorage, r: { from: number; to: number; offset: number; limit: number }): KeptCall[] {
  return sql
    .exec(
      `SELECT ${CALL_COLUMNS} FROM logs WHERE created_at >= ?1 AND created_at < ?2
       ORDER BY created_at DESC, logs.id DESC LIMIT ?3 OFFSET ?4`,
      r.from,
      r.to,
      r.limit,
      r.offset,
    )
    .toArray()
    .map(keptCall);
}

/** How many calls were made in each of the windows [from, to) (an empty window counts 0). */
export function countCalls(sql: SqlStorage, windows: { from: number; to: number }[]): number[] {
  return windows.map((w) =>
    w.to <= w.from
      ? 0
      : Number(
          sql.exec('SELECT count(*) AS n FROM logs WHERE created_at >= ?1 AND created_at < ?2', w.from, w.to).one().n,
        ),
  );
}

/**
 * A page of the leases (optionally one product type, only those live at `liveAt`, one address, none of some packages),
 * newest first, and
 * how many match, counted up to `countCap` + 1 (past the cap the caller says "cap+").
 */
export function leasesPage(
  sql: SqlStorage,
  r: {
    productType: number | null;
    liveAt: number | null;
    ip: string | null;
    /** Packages whose leases are left out (those that ended early, for a list of live leases). */
    endedPackages?: number[];
    offset: number;
    limit: number;
    countCap: number;
  },
): { counted: number; list: KeptLease[] } {
  const terms: [string, SqlStorageValue][] = [];
  if (r.productType) terms.push(['a.product_type = ?', r.productType]);
  if (r.liveAt) terms.push(['a.expires_at > ?', r.liveAt]);
  if (r.ip) terms.push(['a.ip = ?', r.ip]);
  if (r.endedPackages?.length) {
    terms.push(['a.package_id NOT IN (SELECT value FROM json_each(?))', JSON.stringify(r.endedPackages)]);
  }
  const where = terms.length ? `WHERE ${terms.map(([t], i) => t.replace('?', `?${i + 1}`)).join(' AND ')}` : '';
  const binds = terms.map(([, v]) => v);
  const n = binds.length;
  const counted = Number(
    sql
      .exec(`SELECT count(*) AS n FROM (SELECT 1 FROM leases a ${where} LIMIT ?${n + 1})`, ...binds, r.countCap + 1)
      .one().n,
  );
  const list = sql
    .exec(
      `SELECT ${LEASE_COLUMNS} FROM leases a ${where} ORDER BY a.assigned_at DESC, a.id DESC LIMIT ?${n + 1} OFFSET ?${n + 2}`,
      ...binds,
      r.limit,
      r.offset,
    )
    .toArray()
    .map(keptLease);
  return { counted, list };
}

/** The leases handed out in [from, to), newest first, at most `limit` (for downloads). */
export function leasesBetween(sql: SqlStorage, r: { from: number; to: number; limit: number }): KeptLease[] {
  return sql
    .exec(
      `SELECT ${LEASE_COLUMNS} FROM leases a WHERE a.assigned_at >= ?1 AND a.assigned_at < ?2
       ORDER BY a.assigned_at DESC, a.id DESC LIMIT ?3`,
      r.from,
      r.to,
      r.limit,
    )
    .toArray()
    .map(keptLease);
}
