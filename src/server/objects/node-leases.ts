// The leases of one node's exits in the node's own SQLite Durable Object (issue 26 item 2, decisions 243 and 245).
// The customer's object forwards each call it keeps to the objects of the nodes whose exits the call handed out
// (`keep`, idempotent by lease id); the node's contract (domain/node-contract.ts) reads its extraction leases here: the
// live ones for a full snapshot, the ones kept after the cursor's object seq for a delta, and the live ones of packages
// that ended or of users that changed. The object keeps the leases of its hot window (HOT_DAYS after their end) for the
// exit trace (`holders`); its alarm trims older ones. Which packages are live is D1's to say (packages stay there):
// the object answers by lease, the contract filters by package.
// It also keeps the node's usage reports on their leases (decision 249) and its refusal reports (decision 250).
import type { DurableObject } from 'cloudflare:workers';
import { DAY_MS, HOUR_MS, shanghaiMidnight } from '../../lib/time';
import { HOT_DAYS, hotCutoff } from '../archive/copy';
import { type ArchiveRecord, writeExitIndex } from '../archive/store';
import { insertUsageBatch, type UsageHour, type UsageRow } from '../db/node-contract';
import type { LeaseUsage } from '../db/records';
import { USAGE_BATCH_MEMORY_MS, USAGE_LEASE_GRACE_MS } from '../domain/node-usage';
import { leaseNumber } from './customer-records-read';

/** One extraction lease on an exit of the node. */
export interface NodeLease {
  /** `r${receiptId}.${k}`, k = the IP's index in the receipt (a free string ≤ 64 on the wire). */
  id: string;
  ipId: number;
  ip: string;
  port: number;
  userId: number;
  packageId: number;
  productType: number;
  startsAt: number;
  expiresAt: number;
}

/** A lease found by the exit trace, with the start of its holder's next lease of that exit (null: none). */
export type NodeLeaseHolder = NodeLease & { nextStartsAt: number | null };

/** The ids of a call's leases: the receipt id and the IP's index in it. */
export const receiptLeaseId = (receiptId: number, k: number) => `r${receiptId}.${k}`;

/** One client address's usage of a lease in the node object: bytes, connections, its first and last period. */
export interface ClientUsage {
  clientIp: string;
  bytesIn: number;
  bytesOut: number;
  connections: number;
  /** The start of the first period and the end of the last one with traffic from this address. */
  firstAt: number;
  lastAt: number;
}

/**
 * The usage of one fixed (dedicated) allocation on one 北京时间 day in the node object (decision 252), per client
 * address: the allocation's own key (its id and the day), beside the pool leases' `lease_usage`.
 */
export interface FixedDayUsage {
  allocationId: number;
  /** The day's 北京时间 midnight (epoch ms). */
  dayStart: number;
  userId: number;
  ip: string;
  port: number;
  clients: ClientUsage[];
}

/**
 * A fixed allocation's day of usage as one archive number (kind `usage`): −(8 × 10¹⁵ + allocation id × 10⁵ + day
 * index), negative like the objects' other numbers and far below the pool leases' −(receipt id × 1000 + k).
 */
export const fixedUsageNumber = (allocationId: number, dayStart: number) =>
  -(8_000_000_000_000_000 + allocationId * 100_000 + Math.floor(dayStart / DAY_MS));

/** A lease's usage from its rows per client address. */
export const usageOfClients = (rows: ClientUsage[]): LeaseUsage => ({
  bytes: rows.reduce((s, r) => s + r.bytesIn + r.bytesOut, 0),
  connections: rows.reduce((s, r) => s + r.connections, 0),
  clients: rows.map((r) => r.clientIp),
});

/** The node object's id of a lease the customer sees by its number (leaseNumber: −(receipt id × 1000 + k)). */
export const leaseIdOfNumber = (n: number) => receiptLeaseId(Math.floor(-n / 1000), -n % 1000);

/** A node's usage report after the portal's checks (routes/node-v2.ts): one period, rows per user, exit and client. */
export interface UsageBatch {
  batchId: string;
  periodStart: number;
  periodEnd: number;
  rows: UsageRow[];
}

/**
 * The object's part of a usage batch (decision 249): how many rows it attributed to its leases, their hourly totals
 * per customer (for D1's roll-up) and the rows it holds no lease for (D1's to check: fixed allocations, D1's older
 * leases). The same answer for every call with the same batch id; `fresh` only for the first.
 */
export interface KeptUsage {
  fresh: boolean;
  stored: number;
  hours: UsageHour[];
  rest: UsageRow[];
}

/**
 * A lease id as one number, for readers that number leases (the trace): -(receipt id × 1000 + k), negative so it never
 * meets the ids of D1's lease rows (a call hands out at most 200 IPs, extract-params MAX_NUM). 0 for a foreign id.
 */
export function receiptLeaseNumber(id: string): number {
  const m = /^r(\d{1,12})\.(\d{1,3})$/.exec(id);
  return m ? leaseNumber(Number(m[1]), Number(m[2])) : 0;
}

/** What a delta reads from the object (after the cursor's seq, and the live leases of ended packages and users). */
export interface NodeLeaseChanges {
  /** The newest seq the object has given (0 when it never kept a lease). */
  maxSeq: number;
  /** The seq the answer reaches (maxSeq unless cut short by the page). */
  last: number;
  more: boolean;
  /** Unexpired leases kept after the asked seq, in seq order. */
  leases: NodeLease[];
  /** Unexpired leases of the asked packages (the contract ends them). */
  ofPackages: NodeLease[];
  /**
   * What the asked users and the users of `leases` and `ofPackages` hold unexpired here, one row per user, product
   * type and package (their limits, liveness): never every lease, so a user holding 500 leases costs a few rows
   * (decision 253).
   */
  ofUsers: UserHolding[];
}

/** A user's unexpired leases here of one product type and package, as one row. */
export interface UserHolding {
  userId: number;
  productType: number;
  packageId: number;
}

/** How long a lease stays in the object after its end: the hot window (the archive takes older history). */
export const NODE_LEASE_KEEP_MS = HOT_DAYS * DAY_MS;
/** The alarm's period: it trims leases past the hot window. */
const TRIM_EVERY_MS = 3_600_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS leases (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, ip_id INTEGER NOT NULL, ip TEXT NOT NULL,
  port INTEGER NOT NULL, user_id INTEGER NOT NULL, package_id INTEGER NOT NULL, product_type INTEGER NOT NULL,
  starts_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS leases_end ON leases(expires_at);
CREATE INDEX IF NOT EXISTS leases_exit ON leases(ip, starts_at);
CREATE INDEX IF NOT EXISTS leases_package ON leases(package_id, expires_at);
CREATE INDEX IF NOT EXISTS leases_user ON leases(user_id, expires_at);
CREATE INDEX IF NOT EXISTS leases_holder ON leases(user_id, ip, port, starts_at);
CREATE TABLE IF NOT EXISTS lease_usage (
  lease_id TEXT NOT NULL, client_ip TEXT NOT NULL, bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL,
  connections INTEGER NOT NULL, first_at INTEGER NOT NULL, last_at INTEGER NOT NULL,
  PRIMARY KEY (lease_id, client_ip)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fixed_usage (
  allocation_id INTEGER NOT NULL, day_start INTEGER NOT NULL, client_ip TEXT NOT NULL, user_id INTEGER NOT NULL,
  ip TEXT NOT NULL, port INTEGER NOT NULL, bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL,
  connections INTEGER NOT NULL, first_at INTEGER NOT NULL, last_at INTEGER NOT NULL,
  PRIMARY KEY (allocation_id, day_start, client_ip)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS fixed_usage_day ON fixed_usage(day_start);
CREATE TABLE IF NOT EXISTS usage_batches (
  batch_id TEXT PRIMARY KEY, node_id INTEGER NOT NULL, received_at INTEGER NOT NULL, period_start INTEGER NOT NULL,
  period_end INTEGER NOT NULL, stored INTEGER NOT NULL, hours TEXT NOT NULL, rest TEXT NOT NULL,
  rolled INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_batches_open ON usage_batches(rolled, received_at);
CREATE TABLE IF NOT EXISTS refusals (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, client_ip TEXT NOT NULL, ip TEXT NOT NULL,
  port INTEGER NOT NULL, user_id INTEGER NOT NULL, attributed INTEGER NOT NULL, code TEXT NOT NULL,
  batch_id TEXT NOT NULL, received_at INTEGER NOT NULL, count INTEGER NOT NULL DEFAULT 1, last_at INTEGER);
CREATE INDEX IF NOT EXISTS refusals_user ON refusals(user_id, at);
CREATE INDEX IF NOT EXISTS refusals_at ON refusals(at);
CREATE TABLE IF NOT EXISTS refusal_batches (
  batch_id TEXT PRIMARY KEY, received_at INTEGER NOT NULL, stored INTEGER NOT NULL) WITHOUT ROWID;
`;

/**
 * Refused connections as the node object keeps them (decision 250): attributed to one customer (0: nobody); one row
 * counts the refusals of one client address, exit, customer and code in one report batch (decision 251).
 */
export interface KeptRefusal {
  /** The first refusal the row counts. */
  at: number;
  /** The last one (`at` when the row counts one). */
  lastAt: number;
  /** How many refused connections the row counts (≥ 1). */
  count: number;
  clientIp: string;
  ip: string;
  port: number;
  userId: number;
  /** 1 when the node named nobody and the portal attributed it to a holder of the exit at that instant. */
  attributed: number;
  code: string;
}

/** A refusal read from the object, with its row number there (seq). */
export type StoredRefusal = KeptRefusal & { seq: number; receivedAt: number };

/**
 * A node object's refusal as one number for the customer's list and the archive: −(node id × 10⁹ + seq), negative so
 * it never meets D1's row ids, unique across the nodes (a node's object numbers its refusals from 1).
 */
export const refusalNumber = (nodeId: number, seq: number) => -(nodeId * 1_000_000_000 + seq);

const REFUSAL_COLUMNS = `seq, at, coalesce(last_at, at) AS lastAt, count, client_ip AS clientIp, ip, port,
  user_id AS userId, attributed, code, received_at AS receivedAt`;

/** Rows of one batch with the same customer, client, exit and code are one row per this much of their first time. */
const REFUSAL_COLLAPSE_MS = 60_000;

/**
 * Objects created before decision 251 have a refusals table without its count and last time: added once (their rows
 * count one each, their last time is their time).
 */
export function addRefusalCounts(sql: SqlStorage): void {
  const has = sql.exec(`SELECT 1 FROM pragma_table_info('refusals') WHERE name = 'count'`).toArray().length > 0;
  if (has) return;
  sql.exec('ALTER TABLE refusals ADD COLUMN count INTEGER NOT NULL DEFAULT 1');
  sql.exec('ALTER TABLE refusals ADD COLUMN last_at INTEGER');
}

/** A batch whose D1 step has not been confirmed this long is repaired by the alarm (the route may have died). */
const USAGE_REPAIR_AFTER_MS = 60_000;
/** Where the leases past `?1` (an end) are, for deleting their usage with them. */
const USAGE_OF_ENDED = 'DELETE FROM lease_usage WHERE lease_id IN (SELECT id FROM leases WHERE expires_at < ?1';

const COLUMNS = `id, ip_id AS ipId, ip, port, user_id AS userId, package_id AS packageId, product_type AS productType,
  starts_at AS startsAt, expires_at AS expiresAt`;

const ids = (xs: number[]) => JSON.stringify([...new Set(xs)]);

/** Leases one index batch reads (decision 255), with their usage. */
const INDEX_BATCH = 5_000;
/** Batches per index run. */
const INDEX_MAX_BATCHES = 100;
/** Subrequests one index run may spend on R2 (its invocation allows 10,000: room for the rest). */
const INDEX_RUN_SUBREQUESTS = 6_000;

/** A lease this node ran, as the exit index keeps it: the customer's lease number, with the usage it owns here. */
const exitRecord = (nodeId: number, l: NodeLease, rows: ClientUsage[]): ArchiveRecord => {
  const u = usageOfClients(rows);
  const id = receiptLeaseNumber(l.id);
  return {
    kind: 'lease',
    id,
    owner: l.userId,
    at: l.startsAt,
    data: {
      id,
      userId: l.userId,
      nodeId,
      ipId: l.ipId,
      ip: l.ip,
      port: l.port,
      productType: l.productType,
      packageId: l.packageId,
      assignedAt: l.startsAt,
      expiresAt: l.expiresAt,
      bytes: u.bytes,
      connections: u.connections,
      clients: u.clients,
    },
  };
};

/** The class, built on the runtime's DurableObject base by the Worker entry (the build never loads cloudflare:workers). */
export function nodeLeasesClass(Base: typeof DurableObject) {
  return class NodeLeases extends Base {
    constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
      super(ctx, env);
      ctx.storage.sql.exec(SCHEMA);
      addRefusalCounts(ctx.storage.sql);
    }

    /** An index run is under way in this object (indexHistory). */
    #indexing = false;

    #rows(query: string, ...binds: unknown[]): NodeLease[] {
      return this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(query, ...binds)
        .toArray() as unknown as NodeLease[];
    }

    /** The newest seq ever given (AUTOINCREMENT's mark: it does not go back when the alarm trims the newest lease). */
    #maxSeq(): number {
      return Number(
        this.ctx.storage.sql
          .exec(
            `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'leases'), 0),
                        coalesce((SELECT max(seq) FROM leases), 0)) AS n`,
          )
          .one().n,
      );
    }

    /** Keep leases (a lease kept before is skipped); returns how many were new. */
    async keep(leases: NodeLease[]): Promise<number> {
      if (leases.length === 0) return 0;
      const sql = this.ctx.storage.sql;
      const fresh = sql
        .exec(
          `INSERT INTO leases (id, ip_id, ip, port, user_id, package_id, product_type, starts_at, expires_at)
           SELECT j.value ->> 'id', j.value ->> 'ipId', j.value ->> 'ip', j.value ->> 'port', j.value ->> 'userId',
                  j.value ->> 'packageId', j.value ->> 'productType', j.value ->> 'startsAt', j.value ->> 'expiresAt'
           FROM json_each(?1) j WHERE true
           ON CONFLICT(id) DO NOTHING RETURNING seq`,
          JSON.stringify(leases),
        )
        .toArray().length;
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + TRIM_EVERY_MS);
      return fresh;
    }

    /**
     * A backstop (decision 248): drop refusals and fixed usage a further hot window before the archive's cutoff, and
     * leases two further windows before it (the hourly job indexes and drops them once their customer's copy is in
     * the archive, and any lease a window past the cutoff: decision 255; this catches deleted nodes, which the job no
     * longer visits, without racing it); again in an hour while anything is left.
     */
    override async alarm(): Promise<void> {
      const sql = this.ctx.storage.sql;
      const now = Date.now();
      const trimBefore = hotCutoff(now) - HOT_DAYS * DAY_MS;
      const leasesBefore = trimBefore - HOT_DAYS * DAY_MS;
      sql.exec(`${USAGE_OF_ENDED})`, leasesBefore);
      sql.exec('DELETE FROM leases WHERE expires_at < ?', leasesBefore);
      const trimmed = Number(sql.exec('SELECT changes() AS n').one().n);
      if (trimmed > 0) {
        // Never expected while the job visits this node (it indexes them a window earlier): these are not in the trace.
        console.error(JSON.stringify({ level: 'error', where: 'node-leases-trim', leases: trimmed }));
      }
      sql.exec('DELETE FROM refusals WHERE at < ?', trimBefore);
      sql.exec('DELETE FROM fixed_usage WHERE day_start < ?', trimBefore);
      sql.exec('DELETE FROM refusal_batches WHERE received_at < ?', now - NODE_LEASE_KEEP_MS);
      await this.repairUsage(now);
      sql.exec('DELETE FROM usage_batches WHERE rolled = 1 AND received_at < ?', now - USAGE_BATCH_MEMORY_MS);
      const left = `SELECT 1 FROM leases UNION ALL SELECT 1 FROM usage_batches UNION ALL SELECT 1 FROM refusals
        UNION ALL SELECT 1 FROM refusal_batches UNION ALL SELECT 1 FROM fixed_usage LIMIT 1`;
      if (sql.exec(left).toArray().length > 0) {
        await this.ctx.storage.setAlarm(now + TRIM_EVERY_MS);
      }
    }

    // Usage (decision 249): the node's reports of the leases held here are kept here, per lease and client address;
    // D1 takes their hourly totals once per batch (its node_batches marker) and the rows of no lease here.

    /**
     * Keep a usage batch once (by batch id): each row goes to the one lease of that customer and exit here that started
     * last at or before the end of the period (decision 222), when that lease ended no earlier than `graceMs` before
     * the period; the batch's answer is stored with it and given again for the same id.
     */
    async ingestUsage(
      nodeId: number,
      b: UsageBatch,
      graceMs: number,
      now: number,
      fixed: (number | null)[] = [],
    ): Promise<KeptUsage> {
      const sql = this.ctx.storage.sql;
      const seen = sql
        .exec<{ stored: number; hours: string; rest: string }>(
          'SELECT stored, hours, rest FROM usage_batches WHERE batch_id = ?',
          b.batchId,
        )
        .toArray()[0];
      if (seen) {
        return { fresh: false, stored: seen.stored, hours: JSON.parse(seen.hours), rest: JSON.parse(seen.rest) };
      }
      // Accepted when the user held a lease of that exit in the period (or the grace before it), as D1 accepts; owned
      // by the one that started last at or before the period's end (decision 222), even if that one ended already.
      const owners = new Map(
        sql
          .exec<{ k: number; id: string }>(
            `SELECT o.k, l.id FROM (
               SELECT r.key AS k, (SELECT l.seq FROM leases l WHERE l.user_id = r.value ->> 0 AND l.ip = r.value ->> 1
                 AND l.port = r.value ->> 2 AND l.starts_at <= ?2 ORDER BY l.starts_at DESC, l.seq DESC LIMIT 1) AS seq
               FROM json_each(?1) r
               WHERE EXISTS (SELECT 1 FROM leases h WHERE h.user_id = r.value ->> 0 AND h.ip = r.value ->> 1
                 AND h.port = r.value ->> 2 AND h.starts_at <= ?2 AND h.expires_at > ?3)) o
             JOIN leases l ON l.seq = o.seq`,
            JSON.stringify(b.rows.map((r) => [r.userId, r.ip, r.port])),
            b.periodEnd,
            b.periodStart - graceMs,
          )
          .toArray()
          .map((o) => [o.k, o.id]),
      );
      const kept: [string, string, number, number, number][] = [];
      const keptFixed: [number, string, number, string, number, number, number, number][] = [];
      const rest: UsageRow[] = [];
      const hours = new Map<number, UsageHour>();
      const hour = Math.floor(b.periodStart / HOUR_MS) * HOUR_MS;
      const fixedDayOpen = shanghaiMidnight(b.periodStart) + DAY_MS > hotCutoff(now);
      b.rows.forEach((r, k) => {
        const id = owners.get(k);
        // A fixed row of a day the archive may already have taken (a node's spool replayed late) is left to D1, which
        // archives it under its own id, so the archive's record of that allocation day is never overwritten.
        const allocation = fixedDayOpen ? (fixed[k] ?? null) : null;
        if (id !== undefined) kept.push([id, r.clientIp, r.bytesIn, r.bytesOut, r.connections]);
        else if (allocation !== null) {
          // A fixed allocation's row (decision 252): kept under the allocation and the day, not in D1.
          keptFixed.push([allocation, r.clientIp, r.userId, r.ip, r.port, r.bytesIn, r.bytesOut, r.connections]);
        } else {
          rest.push(r);
          return;
        }
        const h = hours.get(r.userId) ?? [r.userId, hour, 0, 0, 0];
        h[2] += r.bytesIn;
        h[3] += r.bytesOut;
        h[4] += r.connections;
        hours.set(r.userId, h);
      });
      const stored = kept.length + keptFixed.length;
      const answer: KeptUsage = { fresh: true, stored, hours: [...hours.values()], rest };
      this.ctx.storage.transactionSync(() => {
        if (kept.length > 0) {
          sql.exec(
            `INSERT INTO lease_usage (lease_id, client_ip, bytes_in, bytes_out, connections, first_at, last_at)
             SELECT j.value ->> 0, j.value ->> 1, sum(j.value ->> 2), sum(j.value ->> 3), sum(j.value ->> 4), ?2, ?3
             FROM json_each(?1) j GROUP BY j.value ->> 0, j.value ->> 1
             ON CONFLICT (lease_id, client_ip) DO UPDATE SET bytes_in = bytes_in + excluded.bytes_in,
               bytes_out = bytes_out + excluded.bytes_out, connections = connections + excluded.connections,
               first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at)`,
            JSON.stringify(kept),
            b.periodStart,
            b.periodEnd,
          );
        }
        if (keptFixed.length > 0) {
          sql.exec(
            `INSERT INTO fixed_usage (allocation_id, day_start, client_ip, user_id, ip, port, bytes_in, bytes_out,
                                      connections, first_at, last_at)
             SELECT j.value ->> 0, ?4, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, sum(j.value ->> 5),
                    sum(j.value ->> 6), sum(j.value ->> 7), ?2, ?3
             FROM json_each(?1) j GROUP BY j.value ->> 0, j.value ->> 1
             ON CONFLICT (allocation_id, day_start, client_ip) DO UPDATE SET bytes_in = bytes_in + excluded.bytes_in,
               bytes_out = bytes_out + excluded.bytes_out, connections = connections + excluded.connections,
               first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at)`,
            JSON.stringify(keptFixed),
            b.periodStart,
            b.periodEnd,
            shanghaiMidnight(b.periodStart),
          );
        }
        sql.exec(
          `INSERT INTO usage_batches (batch_id, node_id, received_at, period_start, period_end, stored, hours, rest)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          b.batchId,
          nodeId,
          now,
          b.periodStart,
          b.periodEnd,
          answer.stored,
          JSON.stringify(answer.hours),
          JSON.stringify(rest),
        );
      });
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + TRIM_EVERY_MS);
      return answer;
    }

    /**
     * The batch's D1 step is done (its marker is in D1): the alarm need not repeat it, and the batch's hours and left
     * rows are no longer needed (D1's marker makes a later step with the same id a no-op); only the id stays.
     */
    usageRolled(batchId: string): void {
      this.ctx.storage.sql.exec(
        `UPDATE usage_batches SET rolled = 1, hours = '[]', rest = '[]' WHERE batch_id = ?`,
        batchId,
      );
    }

    /**
     * Run the D1 step of the batches kept more than a minute ago whose step was never confirmed (the route died between
     * the two stores, and the node did not send the batch again): D1's marker makes the step count once whoever runs
     * it first. Returns how many were repaired.
     */
    async repairUsage(now: number): Promise<number> {
      const sql = this.ctx.storage.sql;
      const open = sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT batch_id, node_id, period_start, period_end, stored, hours, rest FROM usage_batches
           WHERE rolled = 0 AND received_at < ? LIMIT 100`,
          now - USAGE_REPAIR_AFTER_MS,
        )
        .toArray();
      for (const b of open) {
        const batchId = String(b.batch_id);
        await insertUsageBatch(
          this.env.DB,
          Number(b.node_id),
          {
            batchId,
            periodStart: Number(b.period_start),
            periodEnd: Number(b.period_end),
            rows: JSON.parse(String(b.rest)),
          },
          now,
          USAGE_LEASE_GRACE_MS,
          { stored: Number(b.stored), hours: JSON.parse(String(b.hours)) },
        );
        this.usageRolled(batchId);
      }
      return open.length;
    }

    // Refusals (decision 250): the connections the node refused, each kept once per customer it concerns (0: nobody),
    // idempotent by batch id; the hot window here, then the archive (archive/objects.ts). D1 keeps none of them.

    /**
     * Keep a refusal batch once (by batch id): the rows as attributed by the portal (domain/node-contract.ts), rows of
     * the same customer, client address, exit and code as one row with their count and first and last time (a node
     * collapses them itself, decision 251; this also collapses, per minute, what a node from before it sends one by
     * one: a batch is one report period, the minute keeps a batch that spans more from dating one row wide). The same
     * id again changes nothing and is answered as a duplicate. The batch id is remembered for the hot window.
     * `stored` counts the refused connections kept (the rows' counts), as it did when each row was one.
     */
    async ingestRefusals(
      batchId: string,
      rows: KeptRefusal[],
      now: number,
    ): Promise<{ stored: number; duplicate: boolean }> {
      const sql = this.ctx.storage.sql;
      if (sql.exec('SELECT 1 FROM refusal_batches WHERE batch_id = ?', batchId).toArray().length > 0) {
        return { stored: 0, duplicate: true };
      }
      const stored = rows.reduce((n, r) => n + r.count, 0);
      this.ctx.storage.transactionSync(() => {
        if (rows.length > 0) {
          sql.exec(
            `INSERT INTO refusals (at, last_at, count, client_ip, ip, port, user_id, attributed, code, batch_id,
                                   received_at)
             SELECT min(j.value ->> 'at'), max(j.value ->> 'lastAt'), sum(j.value ->> 'count'), j.value ->> 'clientIp',
                    j.value ->> 'ip', j.value ->> 'port', j.value ->> 'userId', j.value ->> 'attributed',
                    j.value ->> 'code', ?2, ?3
             FROM json_each(?1) j
             GROUP BY j.value ->> 'userId', j.value ->> 'attributed', j.value ->> 'clientIp', j.value ->> 'ip',
                      j.value ->> 'port', j.value ->> 'code', CAST((j.value ->> 'at') / ?4 AS INTEGER)
             ORDER BY min(j.value ->> 'at'), min(j.key)`,
            JSON.stringify(rows),
            batchId,
            now,
            REFUSAL_COLLAPSE_MS,
          );
        }
        sql.exec('INSERT INTO refusal_batches (batch_id, received_at, stored) VALUES (?, ?, ?)', batchId, now, stored);
      });
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + TRIM_EVERY_MS);
      return { stored, duplicate: false };
    }

    /** A customer's refusals here since `since`: how many, and the newest `limit` (newest first). */
    refusalsOf(userId: number, since: number, limit: number): { total: number; rows: StoredRefusal[] } {
      const sql = this.ctx.storage.sql;
      const total = Number(
        sql.exec('SELECT count(*) AS n FROM refusals WHERE user_id = ? AND at >= ?', userId, since).one().n,
      );
      const rows = sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT ${REFUSAL_COLUMNS} FROM refusals WHERE user_id = ? AND at >= ? ORDER BY at DESC, seq DESC LIMIT ?`,
          userId,
          since,
          limit,
        )
        .toArray() as unknown as StoredRefusal[];
      return { total, rows };
    }

    /** The oldest refusals dated before `cutoff` (the archive's batch), oldest first. */
    refusalsDue(cutoff: number, limit: number): StoredRefusal[] {
      return this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT ${REFUSAL_COLUMNS} FROM refusals WHERE at < ? ORDER BY at, seq LIMIT ?`,
          cutoff,
          limit,
        )
        .toArray() as unknown as StoredRefusal[];
    }

    /** Delete these refusals (their archive copy is verified); how many went. */
    dropRefusals(seqs: number[]): number {
      if (seqs.length === 0) return 0;
      const sql = this.ctx.storage.sql;
      sql.exec('DELETE FROM refusals WHERE seq IN (SELECT value FROM json_each(?))', JSON.stringify(seqs));
      return Number(sql.exec('SELECT changes() AS n').one().n);
    }

    /**
     * The fixed allocations' days of usage that ended by `cutoff` (the archive's batch, decision 252): at most `limit`
     * allocation days, oldest first, each whole (every client address of it), so an archive record is never split.
     */
    fixedUsageDue(cutoff: number, limit: number): FixedDayUsage[] {
      const rows = this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT allocation_id AS allocationId, day_start AS dayStart, user_id AS userId, ip, port,
                  client_ip AS clientIp, bytes_in AS bytesIn, bytes_out AS bytesOut, connections, first_at AS firstAt,
                  last_at AS lastAt
           FROM fixed_usage WHERE (allocation_id, day_start) IN (SELECT allocation_id, day_start FROM fixed_usage
             WHERE day_start + ${DAY_MS} <= ?1 GROUP BY allocation_id, day_start ORDER BY day_start, allocation_id
             LIMIT ?2)
           ORDER BY day_start, allocation_id, client_ip`,
          cutoff,
          limit,
        )
        .toArray() as unknown as (Omit<FixedDayUsage, 'clients'> & ClientUsage)[];
      const days = new Map<string, FixedDayUsage>();
      for (const r of rows) {
        const key = `${r.allocationId}|${r.dayStart}`;
        const day = days.get(key) ?? {
          allocationId: r.allocationId,
          dayStart: r.dayStart,
          userId: r.userId,
          ip: r.ip,
          port: r.port,
          clients: [],
        };
        day.clients.push({
          clientIp: r.clientIp,
          bytesIn: r.bytesIn,
          bytesOut: r.bytesOut,
          connections: r.connections,
          firstAt: r.firstAt,
          lastAt: r.lastAt,
        });
        days.set(key, day);
      }
      return [...days.values()];
    }

    /** Delete these allocation days of usage (their archive copy is verified); how many rows went. */
    dropFixedUsage(days: [allocationId: number, dayStart: number][]): number {
      if (days.length === 0) return 0;
      const sql = this.ctx.storage.sql;
      sql.exec(
        `DELETE FROM fixed_usage WHERE (allocation_id, day_start) IN
           (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
        JSON.stringify(days),
      );
      return Number(sql.exec('SELECT changes() AS n').one().n);
    }

    /** The usage these leases own here, per client address (the archive's `usage` records): in the leases' order. */
    usageRowsOf(leaseIds: string[]): ClientUsage[][] {
      const out = leaseIds.map((): ClientUsage[] => []);
      if (leaseIds.length === 0) return out;
      const rows = this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT j.key AS k, u.client_ip, u.bytes_in, u.bytes_out, u.connections, u.first_at, u.last_at
           FROM json_each(?1) j JOIN lease_usage u ON u.lease_id = j.value ORDER BY j.key, u.client_ip`,
          JSON.stringify(leaseIds),
        )
        .toArray();
      for (const r of rows) {
        out[Number(r.k)]?.push({
          clientIp: String(r.client_ip),
          bytesIn: Number(r.bytes_in),
          bytesOut: Number(r.bytes_out),
          connections: Number(r.connections),
          firstAt: Number(r.first_at),
          lastAt: Number(r.last_at),
        });
      }
      return out;
    }

    /** The usage each of these leases owns here: bytes both ways, connections, client addresses (null: none). */
    usageOf(leaseIds: string[]): (LeaseUsage | null)[] {
      if (leaseIds.length === 0) return [];
      return this.usageRowsOf(leaseIds).map((rows) => (rows.length === 0 ? null : usageOfClients(rows)));
    }

    // Archive (decisions 248 and 255): the customer's object is the archive's source of a customer's leases; this
    // object is the source of the exit index (the trace's, by day, /24 and node). Once a lease's customer has its copy
    // in the archive, the hourly job reads the lease here with its usage, merges it into the exit index, verifies,
    // and only then deletes it here (`indexDue`, then `dropLeases`).

    /**
     * At most `limit` leases that ended before `before` and started before their user's bound in `bounds` ([user id,
     * bound]: the customer's own copies before it are in the archive, so the usage kept here was read) or, for a user
     * not listed, before `others` (null: not due), and any that ended before `anyBefore` (the backstop for a customer
     * the job could not finish), oldest first, each with the usage it owns here per client address.
     */
    indexDue(q: {
      before: number;
      bounds: [userId: number, bound: number][];
      others: number | null;
      anyBefore: number;
      limit: number;
    }): { lease: NodeLease; usage: ClientUsage[] }[] {
      const leases = this.#rows(
        `SELECT ${COLUMNS} FROM leases WHERE expires_at < ?1
           AND (expires_at < ?2 OR starts_at < coalesce(
             (SELECT b.value ->> 1 FROM json_each(?3) b WHERE b.value ->> 0 = leases.user_id), ?4))
         ORDER BY expires_at, seq LIMIT ?5`,
        q.before,
        q.anyBefore,
        JSON.stringify(q.bounds),
        q.others,
        q.limit,
      );
      const usage = this.usageRowsOf(leases.map((l) => l.id));
      return leases.map((lease, k) => ({ lease, usage: usage[k] ?? [] }));
    }

    /**
     * Move the leases `due` names into the exit index (decision 255), a batch at a time, in this object's own
     * invocation (decision 256: its subrequests, not the hourly job's): read with their usage, merged into the node's
     * index objects and verified (archive/store.ts writeExitIndex), and only then deleted here. A crash in between
     * leaves both; the next run merges the same records again (by id) and deletes them. One run at a time: a second
     * ask while one runs answers at once with nothing moved.
     */
    async indexHistory(q: {
      nodeId: number;
      due: { before: number; bounds: [number, number][]; others: number | null; anyBefore: number };
      maxBatches?: number;
      batch?: number;
      afterIndexCopy?: (nodeId: number, leaseIds: string[]) => Promise<void> | void;
    }): Promise<{ leases: number; objects: number }> {
      const out = { leases: 0, objects: 0 };
      if (this.#indexing) return out;
      this.#indexing = true;
      try {
        for (let i = 0; i < (q.maxBatches ?? INDEX_MAX_BATCHES); i++) {
          // Three R2 calls an object: past this, the next run goes on (the invocation allows 10,000 subrequests).
          if (out.objects * 3 >= INDEX_RUN_SUBREQUESTS) break;
          const batch = this.indexDue({ ...q.due, limit: q.batch ?? INDEX_BATCH });
          if (batch.length === 0) break;
          const records = batch.flatMap(({ lease, usage }) =>
            receiptLeaseNumber(lease.id) === 0 ? [] : [exitRecord(q.nodeId, lease, usage)],
          );
          out.objects += (await writeExitIndex(this.env.FILES, q.nodeId, records)).length;
          const leaseIds = batch.map(({ lease }) => lease.id);
          await q.afterIndexCopy?.(q.nodeId, leaseIds);
          out.leases += this.dropLeases(leaseIds);
        }
        return out;
      } finally {
        this.#indexing = false;
      }
    }

    /** Delete these leases and their usage (their exit index copy is verified); how many leases went. */
    dropLeases(leaseIds: string[]): number {
      if (leaseIds.length === 0) return 0;
      const sql = this.ctx.storage.sql;
      const list = JSON.stringify(leaseIds);
      return this.ctx.storage.transactionSync(() => {
        sql.exec('DELETE FROM lease_usage WHERE lease_id IN (SELECT value FROM json_each(?))', list);
        sql.exec('DELETE FROM leases WHERE id IN (SELECT value FROM json_each(?))', list);
        return Number(sql.exec('SELECT changes() AS n').one().n);
      });
    }

    /** The full snapshot's part: every unexpired lease, and the seq it reaches. */
    live(now: number): { maxSeq: number; leases: NodeLease[] } {
      return {
        maxSeq: this.#maxSeq(),
        leases: this.#rows(`SELECT ${COLUMNS} FROM leases WHERE expires_at > ? ORDER BY seq`, now),
      };
    }

    /**
     * A delta's part: unexpired leases kept after `after` (at most `limit`), the unexpired leases of `packageIds`,
     * and those of `userIds` and of the users of the leases returned. Null when `after` is beyond this object's seq
     * (a cursor of another object or of lost storage: the node needs a full snapshot).
     */
    changes(q: {
      after: number;
      now: number;
      limit: number;
      packageIds: number[];
      userIds: number[];
    }): NodeLeaseChanges | null {
      const maxSeq = this.#maxSeq();
      if (q.after > maxSeq) return null;
      const page = this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT seq, ${COLUMNS} FROM leases WHERE seq > ?1 ORDER BY seq LIMIT ?2`,
          q.after,
          q.limit,
        )
        .toArray() as unknown as (NodeLease & { seq: number })[];
      const more = page.length === q.limit;
      const last = more ? (page.at(-1)?.seq ?? q.after) : maxSeq;
      const leases = page.filter((l) => l.expiresAt > q.now).map(({ seq: _, ...l }) => l);
      const ofPackages = q.packageIds.length
        ? this.#rows(
            `SELECT ${COLUMNS} FROM leases WHERE package_id IN (SELECT value FROM json_each(?1)) AND expires_at > ?2`,
            ids(q.packageIds),
            q.now,
          )
        : [];
      const users = [...q.userIds, ...leases.map((l) => l.userId), ...ofPackages.map((l) => l.userId)];
      const ofUsers = users.length
        ? (this.ctx.storage.sql
            .exec(
              `SELECT DISTINCT user_id AS userId, product_type AS productType, package_id AS packageId FROM leases
               WHERE user_id IN (SELECT value FROM json_each(?1)) AND expires_at > ?2`,
              ids(users),
              q.now,
            )
            .toArray() as unknown as UserHolding[])
        : [];
      return { maxSeq, last, more, leases, ofPackages, ofUsers };
    }

    /** For each [at, ip, port]: the users holding a lease of that exit here at that instant. */
    usersHolding(points: [number, string, number][]): number[][] {
      const out = points.map((): number[] => []);
      const found = this.ctx.storage.sql
        .exec<{ k: number; u: number }>(
          `SELECT DISTINCT p.key AS k, l.user_id AS u FROM json_each(?1) p JOIN leases l ON l.ip = p.value ->> 1
             AND l.port = p.value ->> 2 AND l.starts_at <= p.value ->> 0 AND l.expires_at > p.value ->> 0`,
          JSON.stringify(points),
        )
        .toArray();
      for (const r of found) out[r.k]?.push(r.u);
      return out;
    }

    /**
     * The leases of exit address `ip` (any port) that had begun by `at` and ended after `at - slackMs`, newest first,
     * each with the start of the same user's next lease of that exit here (its usage ends there; null: none yet).
     */
    holders(ip: string, at: number, slackMs: number): NodeLeaseHolder[] {
      return this.ctx.storage.sql
        .exec<Record<string, SqlStorageValue>>(
          `SELECT ${COLUMNS},
             (SELECT min(b.starts_at) FROM leases b WHERE b.user_id = leases.user_id AND b.ip = leases.ip
                AND b.port = leases.port AND (b.starts_at > leases.starts_at
                  OR (b.starts_at = leases.starts_at AND b.seq > leases.seq))) AS nextStartsAt
           FROM leases WHERE ip = ?1 AND starts_at <= ?2 AND expires_at > ?2 - ?3
           ORDER BY starts_at DESC, seq DESC LIMIT 50`,
          ip,
          at,
          slackMs,
        )
        .toArray() as unknown as NodeLeaseHolder[];
    }
  };
}

export type NodeLeases = InstanceType<ReturnType<typeof nodeLeasesClass>>;
export type NodeLeasesNamespace = DurableObjectNamespace<NodeLeases>;

/** The object of one node (one per node id). */
export const nodeLeases = (ns: NodeLeasesNamespace, nodeId: number) => ns.get(ns.idFromName(`node:${nodeId}`));

/**
 * A kept call's leases by node: what the customer's object forwards (`nodeLeases(ns, nodeId).keep(leases)`).
 * `ips` is the receipt's [ipId, ip, port, region, carrier, expiresAt, nodeId] per IP.
 */
export function leasesByNode(r: {
  id: number;
  userId: number;
  createdAt: number;
  body: { package: number; type: number; ips: [number, string, number, string, string, number, number][] };
}): Map<number, NodeLease[]> {
  const out = new Map<number, NodeLease[]>();
  r.body.ips.forEach(([ipId, ip, port, , , expiresAt, nodeId], k) => {
    const lease: NodeLease = {
      id: receiptLeaseId(r.id, k),
      ipId,
      ip,
      port,
      userId: r.userId,
      packageId: r.body.package,
      productType: r.body.type,
      startsAt: r.createdAt,
      expiresAt,
    };
    out.set(nodeId, [...(out.get(nodeId) ?? []), lease]);
  });
  return out;
}

/** Two parts of one lease's usage as one (the node object's rows and D1's from before decision 249). */
export function addLeaseUsage(a: LeaseUsage, b: LeaseUsage | null): LeaseUsage {
  if (b === null) return a;
  return {
    bytes: a.bytes + b.bytes,
    connections: a.connections + b.connections,
    clients: [...new Set([...a.clients, ...b.clients])],
  };
}

/**
 * The usage that the nodes' objects keep for each of these leases (decision 249), per client address, one call per
 * node, in their order (empty: that object holds none for it). `id` is the lease's id in the node object
 * (`r<receipt>.<k>`).
 */
export async function usageRowsInNodes(
  ns: NodeLeasesNamespace,
  leases: { nodeId: number; id: string }[],
): Promise<ClientUsage[][]> {
  const byNode = new Map<number, number[]>();
  leases.forEach((l, k) => {
    const ks = byNode.get(l.nodeId);
    if (ks) ks.push(k);
    else byNode.set(l.nodeId, [k]);
  });
  const out = leases.map((): ClientUsage[] => []);
  await Promise.all(
    [...byNode].map(async ([nodeId, ks]) => {
      const found = await nodeLeases(ns, nodeId).usageRowsOf(ks.map((k) => leases[k]?.id ?? ''));
      ks.forEach((k, j) => {
        out[k] = found[j] ?? [];
      });
    }),
  );
  return out;
}

/** The same as totals per lease (null: none kept for it), for the records pages and the trace. */
export async function leaseUsageInNodes(
  ns: NodeLeasesNamespace,
  leases: { nodeId: number; id: string }[],
): Promise<(LeaseUsage | null)[]> {
  return (await usageRowsInNodes(ns, leases)).map((rows) => (rows.length === 0 ? null : usageOfClients(rows)));
}
