// One customer's history past the hot window, copied to R2 and then deleted from the customer's object (decisions 248,
// 254, 256). It runs INSIDE the customer's object (CustomerRecords.archiveHistory, called by the hourly job): the
// object reads its own rows, stamps each lease with the usage it owns (D1's older rows, the node objects' rows), writes
// them through the one writer (./store.ts: merged by id into deterministic keys, verified by size and SHA-256), and
// only then deletes them. A crash in between leaves both copies; the next run reads the same rows again, rewrites the
// same keys (no duplicate) and deletes them. Running in the object gives each customer the object's own invocation
// (its D1 queries, subrequests and CPU), not a share of the job's: a customer at the documented cap needs ≈ 72 batches
// an hour, ≈ 150 D1 queries, where one Worker invocation may make 1,000 for every customer together.
import 'server-only';
import { usageOfLeases } from '../db/records';
import { type DueCall, type DueLease, EARLY_ARCHIVE_BYTES, earlyCutoff } from '../objects/customer-records-archive';
import { callNumber, leaseNumber } from '../objects/customer-records-read';
import {
  addLeaseUsage,
  type ClientUsage,
  type NodeLeasesNamespace,
  receiptLeaseId,
  usageOfClients,
  usageRowsInNodes,
} from '../objects/node-leases';
import { type ArchiveRecord, objectPart, writeArchive } from './store';

/**
 * Calls the object hands out per batch, with their leases: a call has up to 200 IPs (MAX_NUM), so a batch is at most
 * 100,000 leases, usually 5,000 (≈ 1.5 MB in memory). A customer at the documented cap makes 36,000 calls an hour:
 * CUSTOMER_MAX_BATCHES of these move 50,000 a run (decision 255).
 */
export const CUSTOMER_BATCH = 500;
/** Batches per customer and run: a heavy customer's backlog leaves over several hourly runs. */
export const CUSTOMER_MAX_BATCHES = 100;
/** Leases whose usage one D1 query reads (its bound JSON stays far under D1's statement limits). */
const USAGE_PAGE = 1_000;
/**
 * What one run may spend of its invocation's limits (Workers Paid: 1,000 D1 queries, 10,000 subrequests; docs/
 * delivery.md), with room for the rest of the object's work: past either, the run stops after its batch and says it
 * is not done (the next run goes on). A batch of 500 ten-IP calls costs ≈ 6 D1 queries and, on a pool of 200 nodes,
 * ≈ 220 subrequests (one call to each node that ran its leases, three R2 calls per archive object).
 */
const RUN_D1_QUERIES = 800;
const RUN_SUBREQUESTS = 6_000;

// Archive ids are the numbers the customer sees (decision 247: customer-records-read.ts callNumber, leaseNumber), never
// one of D1's (positive) ids, the same in every run and in the node objects' and the trace's numbering.

const leaseRecord = (owner: number, l: DueLease, u: { bytes: number; connections: number; clients: string[] }) =>
  ({
    kind: 'lease',
    id: leaseNumber(l.receiptId, l.k),
    part: objectPart(l.logId),
    owner,
    at: l.assignedAt,
    data: {
      id: leaseNumber(l.receiptId, l.k),
      userId: owner,
      nodeId: l.nodeId,
      ipId: l.ipId,
      ip: l.ip,
      port: l.port,
      protocol: l.protocol,
      region: l.region,
      carrier: l.carrier,
      productType: l.productType,
      packageId: l.packageId,
      assignedAt: l.assignedAt,
      expiresAt: l.expiresAt,
      remark: '',
      bytes: u.bytes,
      connections: u.connections,
      clients: u.clients,
    },
  }) satisfies ArchiveRecord;

/**
 * The usage a node's object kept for a lease (decision 249), as one `usage` record with the lease's number: the
 * customer, exit and lease, and per client address its bytes, connections and first and last period.
 */
const usageRecord = (owner: number, l: DueLease, rows: ClientUsage[]) =>
  ({
    kind: 'usage',
    id: leaseNumber(l.receiptId, l.k),
    part: objectPart(l.logId),
    owner,
    at: Math.min(...rows.map((r) => r.firstAt)),
    data: {
      id: leaseNumber(l.receiptId, l.k),
      leaseId: leaseNumber(l.receiptId, l.k),
      userId: owner,
      nodeId: l.nodeId,
      ip: l.ip,
      port: l.port,
      periodStart: Math.min(...rows.map((r) => r.firstAt)),
      periodEnd: Math.max(...rows.map((r) => r.lastAt)),
      bytesIn: rows.reduce((s, r) => s + r.bytesIn, 0),
      bytesOut: rows.reduce((s, r) => s + r.bytesOut, 0),
      connections: rows.reduce((s, r) => s + r.connections, 0),
      clients: rows,
    },
  }) satisfies ArchiveRecord;

const callRecord = (owner: number, c: DueCall) =>
  ({
    kind: 'extract',
    id: callNumber(c.receiptId, c.id),
    part: objectPart(c.id),
    owner,
    at: c.createdAt,
    data: {
      id: callNumber(c.receiptId, c.id),
      userId: owner,
      packageId: c.packageId,
      productType: c.productType,
      clientIp: c.clientIp,
      requested: c.requested,
      returned: c.returned,
      code: c.code,
      query: c.query,
      createdAt: c.createdAt,
    },
  }) satisfies ArchiveRecord;

/** What the customer's history needs of its object: its due rows and their deletion (local calls in the object). */
export interface ArchiveSource {
  archiveDue(q: { cutoff: number; limit: number; early?: { cutoff: number; aboveBytes: number } }): {
    leases: DueLease[];
    calls: DueCall[];
    heldFrom: number | null;
    cutoff: number;
    size: number;
  };
  dropArchived(r: { calls: number[]; leases: number[] }): { calls: number; leases: number };
}

export interface CustomerArchiveOptions {
  batch?: number;
  maxBatches?: number;
  /** Archive objects this customer may write in this run (the job's budget left). */
  maxObjects?: number;
  /** The size past which the customer's history leaves up to yesterday's midnight (decision 254; tests set 1). */
  earlyAboveBytes?: number;
  /** Runs after a batch is copied and verified, before the object deletes it (tests put a crash here). */
  afterCopy?: (userId: number, ids: { calls: number[]; leases: number[] }) => Promise<void> | void;
}

/** What one customer's run did. */
export interface CustomerArchiveResult {
  /** Nothing is left before the cutoff that may leave now. */
  done: boolean;
  objects: number;
  leases: number;
  calls: number;
  /** The start of the oldest lease the object still holds, when `done` (null: none). */
  heldFrom: number | null;
}

/**
 * Copy one customer's history past `cutoff` (or yesterday's midnight for an object past the size bound: decision 254)
 * to the archive and delete it from its object, batch by batch, until nothing more may leave or a bound is reached.
 */
export async function archiveCustomerHistory(
  stores: { files: R2Bucket; db: D1Database; nodes: NodeLeasesNamespace },
  object: ArchiveSource,
  userId: number,
  cutoff: number,
  now: number,
  opts: CustomerArchiveOptions = {},
): Promise<CustomerArchiveResult> {
  const out: CustomerArchiveResult = { done: false, objects: 0, leases: 0, calls: 0, heldFrom: null };
  const batch = opts.batch ?? CUSTOMER_BATCH;
  // A customer's object past the size bound keeps only today and yesterday (decision 254): the object decides by its
  // own size in the same read of what is due, and once it answers the early cutoff the run keeps to it (the object
  // shrinks as batches leave; the days before yesterday still leave whole).
  const early = { cutoff: earlyCutoff(now), aboveBytes: opts.earlyAboveBytes ?? EARLY_ARCHIVE_BYTES };
  let upTo = cutoff;
  const spent = { d1: 0, subrequests: 0 };
  for (let i = 0; i < (opts.maxBatches ?? CUSTOMER_MAX_BATCHES); i++) {
    if (out.objects >= (opts.maxObjects ?? Number.POSITIVE_INFINITY)) return out;
    if (spent.d1 >= RUN_D1_QUERIES || spent.subrequests >= RUN_SUBREQUESTS) return out;
    const due = object.archiveDue({ cutoff: upTo, limit: batch, early });
    if (due.cutoff > upTo) {
      console.log(JSON.stringify({ level: 'info', where: 'archive-objects-early', userId, bytes: due.size }));
    }
    upTo = due.cutoff;
    if (due.leases.length === 0 && due.calls.length === 0) {
      out.done = true;
      out.heldFrom = due.heldFrom;
      return out;
    }
    const leasesOf = due.leases.map((l) => ({ ip: l.ip, port: l.port, from: l.assignedAt, until: l.nextAt }));
    const usage: Awaited<ReturnType<typeof usageOfLeases>> = [];
    for (let at = 0; at < leasesOf.length; at += USAGE_PAGE) {
      usage.push(...(await usageOfLeases(stores.db, userId, leasesOf.slice(at, at + USAGE_PAGE))));
    }
    const inNodes = await usageRowsInNodes(
      stores.nodes,
      due.leases.map((l) => ({ nodeId: l.nodeId, id: receiptLeaseId(l.receiptId, l.k) })),
    );
    // Each lease is stamped with the usage it owns: its node object's rows (decision 249) and D1's older ones; the
    // node object's rows leave with it as one `usage` record per lease (its client addresses, each with its bytes).
    const owned = (k: number) =>
      addLeaseUsage(usage[k] ?? { bytes: 0, connections: 0, clients: [] }, usageOfClients(inNodes[k] ?? []));
    const records: ArchiveRecord[] = [
      ...due.leases.map((l, k) => leaseRecord(userId, l, owned(k))),
      ...due.leases.flatMap((l, k) => {
        const rows = inNodes[k] ?? [];
        return rows.length > 0 ? [usageRecord(userId, l, rows)] : [];
      }),
      ...due.calls.map((c) => callRecord(userId, c)),
    ];
    // Not indexed by exit here: the node that ran each lease indexes it (decision 255).
    const written = await writeArchive(stores.files, stores.db, records, now, { exitIndex: false });
    out.objects += written.length;
    const usagePages = Math.ceil(leasesOf.length / USAGE_PAGE);
    spent.d1 += usagePages + 1;
    spent.subrequests += usagePages + 1 + new Set(due.leases.map((l) => l.nodeId)).size + written.length * 3;
    const ids = { calls: due.calls.map((c) => c.id), leases: due.leases.map((l) => l.id) };
    await opts.afterCopy?.(userId, ids);
    const gone = object.dropArchived(ids);
    out.leases += gone.leases;
    out.calls += gone.calls;
  }
  return out;
}
