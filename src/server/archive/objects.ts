// The objects' history past the hot window to R2 (decision 248), the same copy-then-delete as D1's (./copy.ts,
// decision 220): the hourly job asks the records object of each customer with calls in the archive's reach for its
// leases and calls older than the hot window, writes them through the one writer (./store.ts: merged by id into
// deterministic keys, verified by size and SHA-256), and only then asks the object to delete them. A crash in between
// leaves both copies; the next run reads the same rows again, rewrites the same keys (no duplicate) and deletes them.
// Each lease is stamped with the usage it owns (decision 222: D1's node_usage rows of that customer and exit whose
// period ended between its start and the customer's next lease of the exit) while those rows are still in D1.
// The nodes' objects hold copies of the same leases (same ids): once every customer's leases ended before the cutoff
// are in the archive, the job deletes the nodes' copies; the trace then finds them in the exit index.
import 'server-only';
import { usageOfLeases } from '../db/records';
import { customersWithCallsBetween, nodeIds } from '../db/archive-rows';
import { type CustomerRecordsNamespace, customerRecords } from '../objects/customer-records';
import type { DueCall, DueLease } from '../objects/customer-records-archive';
import { type NodeLeasesNamespace, nodeLeases, receiptLeaseId, receiptLeaseNumber } from '../objects/node-leases';
import { DAY_MS } from '../../lib/time';
import { hotCutoff } from './copy';
import { type ArchiveRecord, writeArchive } from './store';

/** Rows (leases, calls) one object hands out per batch. */
const BATCH = 1_000;
/** Batches per customer and run: a heavy customer's backlog leaves over several hourly runs. */
const MAX_BATCHES = 10;
/** Customers one run visits (each is one or more calls into its object); the rest wait for the next run. */
const MAX_CUSTOMERS = 1_000;
/** Objects one run may write (R2 calls count against the invocation's subrequests, see ./copy.ts). */
const MAX_OBJECTS = 2_500;
/**
 * How far back a customer's hour counters make the job visit its object: a lease leaves once it ended before the
 * cutoff, and the longest lease (a long-lived IP) runs up to 40 days after its call (the exit index's reach).
 */
const REACH_DAYS = 40;

/**
 * A call's archive id: the number the customer sees for it (decision 247: customer-records-read.ts callNumber), never
 * one of D1's (positive) ids, and the same in every run. A charged call −(receipt id × 1000), in the numbering of its
 * leases (−(receipt id × 1000 + k), k < 200); a refused call, which has no receipt, −(its id in the object × 1000 +
 * 999), a residue no charged call has.
 */
export const objectCallArchiveId = (c: { id: number; receiptId: number | null }): number =>
  c.receiptId !== null ? -(c.receiptId * 1000) : -(c.id * 1000 + 999);

/** A lease's archive id: the number the customer (decision 247), the node's object and the trace give it. */
export const objectLeaseArchiveId = (l: { receiptId: number; k: number }): number =>
  receiptLeaseNumber(receiptLeaseId(l.receiptId, l.k));

const leaseRecord = (owner: number, l: DueLease, u: { bytes: number; connections: number; clients: string[] }) =>
  ({
    kind: 'lease',
    id: objectLeaseArchiveId(l),
    owner,
    at: l.assignedAt,
    data: {
      id: objectLeaseArchiveId(l),
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

const callRecord = (owner: number, c: DueCall) =>
  ({
    kind: 'extract',
    id: objectCallArchiveId(c),
    owner,
    at: c.createdAt,
    data: {
      id: objectCallArchiveId(c),
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

export interface ObjectArchiveOptions {
  hotDays?: number;
  batch?: number;
  maxBatches?: number;
  maxCustomers?: number;
  maxObjects?: number;
  /** Runs after a batch is copied and verified, before the object deletes it (tests put a crash here). */
  afterCopy?: (userId: number, ids: { calls: number[]; leases: number[] }) => Promise<void> | void;
}

export interface ObjectArchiveResult {
  customers: number;
  leases: number;
  calls: number;
  /** Lease copies deleted from the nodes' objects (null: not this run, some customer's history is not all copied). */
  nodeLeases: number | null;
  /** Every customer's history older than the cutoff is in the archive (what D1's usage rows wait for). */
  complete: boolean;
  /**
   * The customers whose object still holds a lease that started before the cutoff (one that still runs, or waits for
   * an earlier one), with that lease's start: D1's usage rows of the customer from then on stay (a lease is stamped
   * from all its usage; its hot records read them).
   */
  usageHeldFrom: [userId: number, from: number][];
}

/** Copy one customer's history past `cutoff` to the archive and delete it from its object; false if some is left. */
async function archiveCustomer(
  stores: { files: R2Bucket; db: D1Database; records: CustomerRecordsNamespace },
  userId: number,
  cutoff: number,
  now: number,
  opts: ObjectArchiveOptions,
  budget: { objects: number; leases: number; calls: number; held: [number, number][] },
): Promise<boolean> {
  const object = customerRecords(stores.records, userId);
  const batch = opts.batch ?? BATCH;
  for (let i = 0; i < (opts.maxBatches ?? MAX_BATCHES); i++) {
    if (budget.objects >= (opts.maxObjects ?? MAX_OBJECTS)) return false;
    const due = await object.archiveDue({ cutoff, limit: batch });
    if (due.leases.length === 0 && due.calls.length === 0) {
      if (due.heldFrom !== null && due.heldFrom < cutoff) budget.held.push([userId, due.heldFrom]);
      return true;
    }
    const usage = await usageOfLeases(
      stores.db,
      userId,
      due.leases.map((l) => ({ ip: l.ip, port: l.port, from: l.assignedAt, until: l.nextAt })),
    );
    const records: ArchiveRecord[] = [
      ...due.leases.map((l, k) => leaseRecord(userId, l, usage[k] ?? { bytes: 0, connections: 0, clients: [] })),
      ...due.calls.map((c) => callRecord(userId, c)),
    ];
    const written = await writeArchive(stores.files, stores.db, records, now);
    budget.objects += written.length;
    const ids = { calls: due.calls.map((c) => c.id), leases: due.leases.map((l) => l.id) };
    await opts.afterCopy?.(userId, ids);
    const gone = await object.dropArchived(ids);
    budget.leases += gone.leases;
    budget.calls += gone.calls;
  }
  return false;
}

/**
 * Move the customers' and nodes' objects' history older than the hot window to the archive (see the top). A customer
 * that fails is logged and left for the next run (its rows stay in its object); the nodes' copies are deleted only
 * when every customer's history before the cutoff was copied in this run.
 */
export async function archiveObjectHistory(
  stores: { files: R2Bucket; db: D1Database; records: CustomerRecordsNamespace; nodes: NodeLeasesNamespace },
  now: number,
  opts: ObjectArchiveOptions = {},
): Promise<ObjectArchiveResult> {
  const cutoff = hotCutoff(now, opts.hotDays);
  const maxCustomers = opts.maxCustomers ?? MAX_CUSTOMERS;
  const customers = await customersWithCallsBetween(stores.db, cutoff - REACH_DAYS * DAY_MS, cutoff, maxCustomers + 1);
  const budget = { objects: 0, leases: 0, calls: 0, held: [] as [number, number][] };
  let complete = customers.length <= maxCustomers;
  for (const userId of customers.slice(0, maxCustomers)) {
    try {
      if (!(await archiveCustomer(stores, userId, cutoff, now, opts, budget))) complete = false;
    } catch (err) {
      complete = false;
      // One customer failing never stops the others; its rows stay in its object for the next run.
      console.error(JSON.stringify({ level: 'error', where: 'archive-objects', userId, error: String(err) }));
    }
  }
  let dropped: number | null = null;
  if (complete) {
    dropped = 0;
    for (const nodeId of await nodeIds(stores.db)) {
      dropped += await nodeLeases(stores.nodes, nodeId).dropEndedBefore(cutoff);
    }
  }
  return {
    customers: Math.min(customers.length, maxCustomers),
    leases: budget.leases,
    calls: budget.calls,
    nodeLeases: dropped,
    complete,
    usageHeldFrom: budget.held,
  };
}
