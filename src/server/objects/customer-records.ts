// The customer's delivery records in the customer's own SQLite Durable Object.
// The extraction charges in D1 (one conditional transaction, as before) and writes one receipt row there instead of
// the log row and one lease row per IP; the receipt is handed to this object off the path, which keeps the log and
// the leases of its hot window, idempotently by receipt id, and the receipt is deleted from D1 once the object has it.
import type { DurableObject } from 'cloudflare:workers';
import {
  candidateWindowIds,
  deleteReceipts,
  type ExtractCallerRef,
  extractInOneBatch,
  type OneBatchCall,
  type AssignmentRow,
  type OneBatchOutcome,
  RND_SPACE,
  type Receipt,
} from '../db/extract';
import {
  READ_INDEXES,
  callsPage,
  countCalls,
  type KeptCall,
  type KeptLease,
  leasesBetween,
  leasesPage,
} from './customer-records-read';

export type { Receipt, ReceiptBody } from '../db/extract';
import {
  type DueCall,
  type DueLease,
  dropArchived,
  dueCalls,
  dueLeases,
  oldestLeaseStart,
} from './customer-records-archive';
import { FORWARD_RETRY_MS, FORWARD_SCHEMA, queueForwards, sendForwards } from './lease-forward';
import {
  archiveCustomerHistory,
  type CustomerArchiveOptions,
  type CustomerArchiveResult,
} from '../archive/customer-batches';
import type { NodeLeasesNamespace } from './node-leases';

/** Windows a dedup call draws at most before it answers with the IPs it found. */
const DEDUP_WINDOWS = 3;
/** Dedup calls of one customer queued or running at most (two seconds of calls at the documented cap of 10 a second). */
const DEDUP_QUEUE_MAX = 20;

/** A refused call as the customer's object logs it. */
export interface RefusalLog {
  packageId: number | null;
  productType: number;
  clientIp: string;
  requested: number;
  code: number;
  query: string;
  now: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, receipt_id INTEGER UNIQUE, package_id INTEGER, product_type INTEGER NOT NULL, client_ip TEXT NOT NULL,
  requested INTEGER NOT NULL, returned INTEGER NOT NULL, code INTEGER NOT NULL, query TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS logs_time ON logs(created_at);
CREATE TABLE IF NOT EXISTS leases (
  id INTEGER PRIMARY KEY AUTOINCREMENT, log_id INTEGER NOT NULL, package_id INTEGER NOT NULL, ip_id INTEGER NOT NULL,
  product_type INTEGER NOT NULL, ip TEXT NOT NULL, port INTEGER NOT NULL, protocol TEXT NOT NULL, region TEXT NOT NULL,
  carrier TEXT NOT NULL, day TEXT NOT NULL, assigned_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  node_id INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS leases_ip_live ON leases(ip_id, expires_at);
CREATE INDEX IF NOT EXISTS leases_time ON leases(assigned_at);
CREATE INDEX IF NOT EXISTS leases_package ON leases(package_id, expires_at);
`;

/**
 * Decision 253: a dedup call's id (its receipt's `call`), so a call whose answer was lost can be found by it. Objects
 * made before it get the column here; plain calls leave it null (the partial index holds only dedup calls).
 */
function addCallIds(sql: SqlStorage): void {
  try {
    sql.exec('SELECT call_id FROM logs LIMIT 0');
  } catch {
    sql.exec('ALTER TABLE logs ADD COLUMN call_id TEXT');
  }
  sql.exec('CREATE INDEX IF NOT EXISTS logs_call ON logs(call_id) WHERE call_id IS NOT NULL');
}

/** The class, built on the runtime's DurableObject base by the Worker entry (the build never loads cloudflare:workers). */
export function customerRecordsClass(Base: typeof DurableObject) {
  return class CustomerRecords extends Base {
    #db: D1Database;
    #nodes: NodeLeasesNamespace;
    #files: R2Bucket;
    /** An archive run is under way in this object (archiveHistory). */
    #archiving = false;
    /** When the alarm is due (in memory: after a restart the next record or the stored alarm sets it again). */
    #alarmAt: number | null = null;
    /** Receipts kept and not yet deleted from D1, each with its place in the order they were kept. */
    #kept: { id: number; seq: number }[] = [];
    #keptSeq = 0;
    /**
     * While a dedup call runs (one at a time: #dedupQueue): how many receipts had been kept when it read the leases.
     * Its D1 batch re-checks the receipts still in D1, so the ones kept after that stay there until it is done; the
     * ones kept before are in the leases it read and may go (a queue of dedup calls never holds every receipt back).
     */
    #dedupFrom: number | null = null;
    /** Dedup calls queued or running. */
    #dedupWaiting = 0;
    #dedupQueue: Promise<unknown> = Promise.resolve();
    constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
      super(ctx, env);
      this.#db = env.DB;
      this.#nodes = env.NODE_LEASES;
      this.#files = env.FILES;
      ctx.storage.sql.exec(SCHEMA);
      addCallIds(ctx.storage.sql);
      ctx.storage.sql.exec(FORWARD_SCHEMA);
      ctx.storage.sql.exec(READ_INDEXES);
    }

    /** Delete the receipts kept since the last alarm from D1, in one statement. */
    override async alarm(): Promise<void> {
      this.#alarmAt = null;
      const sent = await sendForwards(this.ctx.storage.sql, this.#nodes);
      if (!sent) this.#schedule(FORWARD_RETRY_MS);
      // A dedup call in flight checks the receipts still in D1 that were kept after it read the leases.
      const upTo = this.#dedupFrom ?? this.#keptSeq;
      const due = this.#kept.filter((k) => k.seq <= upTo);
      this.#kept = this.#kept.filter((k) => k.seq > upTo);
      if (this.#kept.length) this.#schedule(100);
      if (due.length === 0) return;
      try {
        await deleteReceipts(
          this.#db,
          due.map((k) => k.id),
        );
      } catch (err) {
        // Kept in the object, still in D1: the next alarm deletes them (and the delivery job finds them harmless).
        this.#kept.push(...due);
        this.#schedule(FORWARD_RETRY_MS);
        console.error(JSON.stringify({ level: 'error', where: 'receipts-delete', error: String(err) }));
      }
    }

    /** Set the alarm `ms` from now unless it is due sooner already. */
    #schedule(ms: number): void {
      const at = Date.now() + ms;
      if (this.#alarmAt !== null && this.#alarmAt <= at) return;
      this.#alarmAt = at;
      this.ctx.storage.setAlarm(at);
    }

    /** Keep the receipts' calls (a receipt already kept is skipped); returns the ids kept now or before. */
    record(receipts: Receipt[]): number[] {
      const sql = this.ctx.storage.sql;
      this.ctx.storage.transactionSync(() => {
        for (const r of receipts) {
          const b = r.body;
          const fresh = sql
            .exec(
              `INSERT INTO logs (receipt_id, package_id, product_type, client_ip, requested, returned, code, query,
                                 created_at, call_id)
             VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT(receipt_id) DO NOTHING RETURNING id`,
              r.id,
              b.package,
              b.type,
              b.clientIp,
              b.requested,
              b.ips.length,
              b.query,
              r.createdAt,
              b.call ?? null,
            )
            .toArray();
          if (fresh.length === 0) continue;
          queueForwards(sql, r);
          sql.exec(
            `INSERT INTO leases (log_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day,
                                 assigned_at, expires_at, node_id)
             SELECT ?1, ?2, j.value ->> 0, ?3, j.value ->> 1, j.value ->> 2, ?4, j.value ->> 3, j.value ->> 4, ?5, ?6,
                    j.value ->> 5, j.value ->> 6
             FROM json_each(?7) j`,
            Number(fresh[0]?.id),
            b.package,
            b.type,
            b.protocol,
            b.day,
            r.createdAt,
            JSON.stringify(b.ips),
          );
        }
      });
      // The leases go to their nodes at once (the alarm sends them); the receipts leave D1 with the same alarm.
      this.#schedule(20);
      for (const r of receipts) this.#kept.push({ id: r.id, seq: ++this.#keptSeq });
      return receipts.map((r) => r.id);
    }

    /**
     * A dedup call (decision 243): the object chooses the IPs the customer may have from D1's candidate windows
     * against its own lease history, and D1's batch charges them (re-checking them against the customer's receipts
     * still in D1, the calls this object has not kept yet); a charged call is kept at once.
     */
    extractDedup(caller: ExtractCallerRef, r: OneBatchCall): Promise<OneBatchOutcome | 'busy'> {
      // A burst (or a leaked key used from anywhere) does not queue without end behind the customer's own calls: past
      // DEDUP_QUEUE_MAX waiting, the call is answered as too frequent (1005) without reading anything.
      if (this.#dedupWaiting >= DEDUP_QUEUE_MAX) return Promise.resolve('busy');
      this.#dedupWaiting++;
      // One at a time per customer: the next call chooses after the previous one's IPs are kept.
      const run = this.#dedupQueue.then(() => this.#dedup(caller, r)).finally(() => this.#dedupWaiting--);
      this.#dedupQueue = run.catch(() => undefined);
      return run;
    }

    async #dedup(caller: ExtractCallerRef, r: OneBatchCall): Promise<OneBatchOutcome> {
      this.#dedupFrom = this.#keptSeq;
      try {
        const f = r.filter;
        const sql = this.ctx.storage.sql;
        const picks: number[] = [];
        for (let w = 0; w < DEDUP_WINDOWS && picks.length < f.limit; w++) {
          const start = w === 0 && r.start !== undefined ? r.start : Math.floor(Math.random() * RND_SPACE);
          const window = (await candidateWindowIds(this.#db, f, start)).filter((id) => !picks.includes(id));
          if (window.length === 0) break;
          const held = new Set(
            sql
              .exec(
                `SELECT DISTINCT ip_id FROM leases WHERE ip_id IN (SELECT value FROM json_each(?1))
                   AND ${f.excludeDay !== null ? 'day = ?2' : 'expires_at > ?2'}`,
                JSON.stringify(window),
                f.excludeDay ?? f.excludeInUseAt ?? r.now,
              )
              .toArray()
              .map((row) => Number(row.ip_id)),
          );
          // Every IP the customer may have, in the window's random order: D1 takes the first that are not in a
          // receipt it still holds (a call this object has not kept yet).
          picks.push(...window.filter((id) => !held.has(id)));
        }
        const out = await extractInOneBatch(this.#db, caller, { ...r, picks });
        if (out.charged) this.record([out.charged.receipt]);
        return out;
      } finally {
        this.#dedupFrom = null;
      }
    }

    /**
     * The IPs of a dedup call this object kept, by the id its caller gave it (decision 253: the Worker asks when the
     * call's answer was lost and D1 no longer holds its receipt); null when no such call was kept.
     */
    keptCall(callId: string): AssignmentRow[] | null {
      const rows = this.ctx.storage.sql
        .exec(
          `SELECT l.ip_id, l.ip, l.port, l.region, l.carrier, l.expires_at FROM logs g JOIN leases l ON l.log_id = g.id
           WHERE g.call_id = ?1 ORDER BY l.id`,
          callId,
        )
        .toArray();
      if (rows.length === 0) return null;
      return rows.map((r) => ({
        ipId: Number(r.ip_id),
        ip: String(r.ip),
        port: Number(r.port),
        region: String(r.region),
        carrier: String(r.carrier),
        expiresAt: Number(r.expires_at),
      }));
    }

    /** Log a refused call of this customer (nothing was charged, so there is no receipt). */
    logRefusal(e: RefusalLog): void {
      this.ctx.storage.sql.exec(
        `INSERT INTO logs (package_id, product_type, client_ip, requested, returned, code, query, created_at)
         VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
        e.packageId,
        e.productType,
        e.clientIp,
        e.requested,
        e.code,
        e.query,
        e.now,
      );
    }

    // Archive (decision 248): the hourly job (archive/copy.ts) reads the calls and leases past the hot window, copies
    // them to R2, verifies, and only then asks for their deletion here; the SQL is in customer-records-archive.ts.

    /**
     * At most `limit` calls' leases and `limit` calls that may leave, oldest first, and the start of the oldest lease
     * held here (null: none), before which the customer's usage rows in D1 own no lease here. They leave before
     * `cutoff`, or, when `early` is given and this object's database is larger than `early.aboveBytes`, before the
     * later of the two cutoffs (decision 254: a heavy customer's object keeps only today and yesterday); the answer says
     * which cutoff it used and the database's size.
     */
    archiveDue(q: { cutoff: number; limit: number; early?: { cutoff: number; aboveBytes: number } }): {
      leases: DueLease[];
      calls: DueCall[];
      heldFrom: number | null;
      cutoff: number;
      size: number;
    } {
      const sql = this.ctx.storage.sql;
      const size = sql.databaseSize;
      const cutoff = q.early && size > q.early.aboveBytes ? Math.max(q.cutoff, q.early.cutoff) : q.cutoff;
      return {
        leases: dueLeases(sql, cutoff, q.limit),
        calls: dueCalls(sql, cutoff, q.limit),
        heldFrom: oldestLeaseStart(sql),
        cutoff,
        size,
      };
    }

    /**
     * Copy this customer's history past `cutoff` to the archive and delete it here (decision 256: the hourly job asks,
     * the work runs in this object's own invocation; archive/customer-batches.ts). One run at a time: a second ask
     * while one runs answers "not done" at once (two runs would merge the same batches side by side).
     */
    async archiveHistory(q: {
      userId: number;
      cutoff: number;
      now: number;
      opts?: CustomerArchiveOptions;
    }): Promise<CustomerArchiveResult> {
      if (this.#archiving) return { done: false, objects: 0, leases: 0, calls: 0, heldFrom: null };
      this.#archiving = true;
      try {
        return await archiveCustomerHistory(
          { files: this.#files, db: this.#db, nodes: this.#nodes },
          this,
          q.userId,
          q.cutoff,
          q.now,
          q.opts,
        );
      } finally {
        this.#archiving = false;
      }
    }

    /** Delete rows whose archive copy was verified (by the object's ids); how many went. */
    dropArchived(r: { calls: number[]; leases: number[] }): { calls: number; leases: number } {
      const sql = this.ctx.storage.sql;
      return this.ctx.storage.transactionSync(() => dropArchived(sql, r));
    }

    /** Rows held (the tests read them). */
    counts(): { logs: number; leases: number } {
      const one = (t: string) => Number(this.ctx.storage.sql.exec(`SELECT count(*) AS n FROM ${t}`).one().n);
      return { logs: one('logs'), leases: one('leases') };
    }

    // Reads (decision 246): the records pages, the IP list and the CSV download read the calls and leases kept here;
    // the SQL lives in customer-records-read.ts.

    /** A page of the calls made in [from, to), newest first. */
    callsPage(r: { from: number; to: number; offset: number; limit: number }): KeptCall[] {
      return callsPage(this.ctx.storage.sql, r);
    }

    /** How many calls were made in each window [from, to). */
    countCalls(windows: { from: number; to: number }[]): number[] {
      return countCalls(this.ctx.storage.sql, windows);
    }

    /** A page of the leases (product type, live at, address), newest first, with a count up to countCap + 1. */
    leasesPage(r: Parameters<typeof leasesPage>[1]): { counted: number; list: KeptLease[] } {
      return leasesPage(this.ctx.storage.sql, r);
    }

    /** The leases handed out in [from, to), newest first, at most `limit`. */
    leasesBetween(r: { from: number; to: number; limit: number }): KeptLease[] {
      return leasesBetween(this.ctx.storage.sql, r);
    }
  };
}

export type CustomerRecords = InstanceType<ReturnType<typeof customerRecordsClass>>;
export type CustomerRecordsNamespace = DurableObjectNamespace<CustomerRecords>;

/** The object of one customer (one per user id, for ever: user ids are never reused). */
export const customerRecords = (ns: CustomerRecordsNamespace, userId: number) =>
  ns.get(ns.idFromName(`user:${userId}`));
