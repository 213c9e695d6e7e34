// The leases of one node's exits in the node's own SQLite Durable Object (issue 26 item 2, decisions 243 and 245).
// The customer's object forwards each call it keeps to the objects of the nodes whose exits the call handed out
// (`keep`, idempotent by lease id); the node's contract (domain/node-contract.ts) reads its extraction leases here: the
// live ones for a full snapshot, the ones kept after the cursor's object seq for a delta, and the live ones of packages
// that ended or of users that changed. The object keeps the leases of its hot window (HOT_DAYS after their end) for the
// exit trace (`holders`); its alarm trims older ones. Which packages are live is D1's to say (packages stay there):
// the object answers by lease, the contract filters by package.
import type { DurableObject } from 'cloudflare:workers';
import { DAY_MS } from '../../lib/time';
import { HOT_DAYS, hotCutoff } from '../archive/copy';
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
  /** Unexpired leases of the asked users and of the users of `leases` and `ofPackages` (their limits, liveness). */
  ofUsers: NodeLease[];
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
`;

const COLUMNS = `id, ip_id AS ipId, ip, port, user_id AS userId, package_id AS packageId, product_type AS productType,
  starts_at AS startsAt, expires_at AS expiresAt`;

const ids = (xs: number[]) => JSON.stringify([...new Set(xs)]);

/** The class, built on the runtime's DurableObject base by the Worker entry (the build never loads cloudflare:workers). */
export function nodeLeasesClass(Base: typeof DurableObject) {
  return class NodeLeases extends Base {
    constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
      super(ctx, env);
      ctx.storage.sql.exec(SCHEMA);
    }

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
     * A backstop (decision 248): drop leases ended a further hot window before the archive's cutoff (the hourly job
     * drops them once their customer's copy is in the archive; this catches deleted nodes and customers the job no
     * longer visits, without racing it); again in an hour while any lease is left.
     */
    override async alarm(): Promise<void> {
      const sql = this.ctx.storage.sql;
      sql.exec('DELETE FROM leases WHERE expires_at < ?', hotCutoff(Date.now()) - HOT_DAYS * DAY_MS);
      if (sql.exec('SELECT 1 FROM leases LIMIT 1').toArray().length > 0) {
        await this.ctx.storage.setAlarm(Date.now() + TRIM_EVERY_MS);
      }
    }

    // Archive (decision 248): the customer's object is the archive's source of a lease (same id: receiptLeaseNumber);
    // once the hourly job has copied every customer's leases ended before the cutoff, it deletes this copy of them.

    /**
     * Delete the leases that ended before `cutoff`, of these users only unless null (their archive copy is verified);
     * how many went.
     */
    dropEndedBefore(cutoff: number, userIds: number[] | null): number {
      const sql = this.ctx.storage.sql;
      if (userIds === null) sql.exec('DELETE FROM leases WHERE expires_at < ?', cutoff);
      else {
        sql.exec(
          'DELETE FROM leases WHERE expires_at < ?1 AND user_id IN (SELECT value FROM json_each(?2))',
          cutoff,
          JSON.stringify(userIds),
        );
      }
      return Number(sql.exec('SELECT changes() AS n').one().n);
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
        ? this.#rows(
            `SELECT ${COLUMNS} FROM leases WHERE user_id IN (SELECT value FROM json_each(?1)) AND expires_at > ?2`,
            ids(users),
            q.now,
          )
        : [];
      return { maxSeq, last, more, leases, ofPackages, ofUsers };
    }

    /** For each [userId, ip, port]: whether that user held a lease of that exit here at some time in [from, to]. */
    heldDuring(rows: [number, string, number][], from: number, to: number): boolean[] {
      const held = new Set(
        this.ctx.storage.sql
          .exec<{ k: number }>(
            `SELECT DISTINCT r.key AS k FROM json_each(?1) r JOIN leases l ON l.user_id = r.value ->> 0
               AND l.ip = r.value ->> 1 AND l.port = r.value ->> 2 AND l.starts_at <= ?3 AND l.expires_at > ?2`,
            JSON.stringify(rows),
            from,
            to,
          )
          .toArray()
          .map((r) => r.k),
      );
      return rows.map((_, k) => held.has(k));
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
