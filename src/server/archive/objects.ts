// The objects' history past the hot window to R2 (decision 248), the same copy-then-delete as D1's (./copy.ts,
// decision 220): the hourly job asks the records object of each customer with calls in the archive's reach to move its
// leases and calls older than the hot window (decision 256: the object does the work in its own invocation,
// ./customer-batches.ts, and answers what it moved and whether anything is left).
// The nodes' objects hold copies of the same leases (same ids): once a customer's leases ended before the cutoff are in
// the archive (their usage read from those copies), the job moves the nodes' copies into the exit index, one object
// per node, /24, day and hour (decision 255), the same copy-verify-then-delete; the trace then finds them there.
import 'server-only';
import { customersWithCallsBetween, nodeIds } from '../db/archive-rows';
import { type CustomerRecordsNamespace, customerRecords } from '../objects/customer-records';
import { earlyCutoff } from '../objects/customer-records-archive';
import {
  type FixedDayUsage,
  fixedUsageNumber,
  type NodeLeasesNamespace,
  nodeLeases,
  refusalNumber,
  type StoredRefusal,
} from '../objects/node-leases';
import { DAY_MS, HOUR_MS } from '../../lib/time';
import { HOT_DAYS, hotCutoff, MAX_OBJECTS } from './copy';
import { type ArchiveRecord, writeArchive } from './store';

/** Refusals one node object hands out per batch (small rows: a few hundred KB across the boundary). */
const REFUSAL_BATCH = 2_000;
/** Batches per node object and run (the customers' own: customer-batches.ts). */
const MAX_BATCHES = 100;
/** Customers one run visits (each is one or more calls into its object); the others are visited by the next runs. */
const MAX_CUSTOMERS = 1_000;
/**
 * Customers with calls in the reach the job knows of: the design's bound on customers active within 47 days while the
 * visits have no per-customer mark (beyond it, the customers of highest ids are not visited: a mark table is next).
 */
const MAX_REACHED = 20_000;
/**
 * How far back a customer's hour counters make the job visit its object: a lease leaves once it ended before the
 * cutoff, and the longest lease (a long-lived IP) runs up to 40 days after its call (the exit index's reach).
 */
const REACH_DAYS = 40;

/** A refusal kept in a node's object (decision 250), archived under its customer (0: nobody) and day. */
const refusalRecord = (nodeId: number, r: StoredRefusal) =>
  ({
    kind: 'refusal',
    id: refusalNumber(nodeId, r.seq),
    owner: r.userId,
    at: r.at,
    data: {
      id: refusalNumber(nodeId, r.seq),
      nodeId,
      at: r.at,
      lastAt: r.lastAt,
      count: r.count,
      clientIp: r.clientIp,
      ip: r.ip,
      port: r.port,
      userId: r.userId === 0 ? null : r.userId,
      attributed: r.attributed,
      code: r.code,
      receivedAt: r.receivedAt,
    },
  }) satisfies ArchiveRecord;

/**
 * A fixed allocation's day of usage kept in its node's object (decision 252), as one `usage` record like a pool
 * lease's: the customer, exit and allocation, and per client address its bytes, connections, first and last period.
 */
const fixedUsageRecord = (nodeId: number, d: FixedDayUsage) =>
  ({
    kind: 'usage',
    id: fixedUsageNumber(d.allocationId, d.dayStart),
    owner: d.userId,
    at: Math.min(...d.clients.map((r) => r.firstAt)),
    data: {
      id: fixedUsageNumber(d.allocationId, d.dayStart),
      allocationId: d.allocationId,
      userId: d.userId,
      nodeId,
      ip: d.ip,
      port: d.port,
      periodStart: Math.min(...d.clients.map((r) => r.firstAt)),
      periodEnd: Math.max(...d.clients.map((r) => r.lastAt)),
      bytesIn: d.clients.reduce((s, r) => s + r.bytesIn, 0),
      bytesOut: d.clients.reduce((s, r) => s + r.bytesOut, 0),
      connections: d.clients.reduce((s, r) => s + r.connections, 0),
      clients: d.clients,
    },
  }) satisfies ArchiveRecord;

export interface ObjectArchiveOptions {
  hotDays?: number;
  batch?: number;
  maxBatches?: number;
  maxCustomers?: number;
  maxObjects?: number;
  /**
   * The size (bytes of the object's database) past which a customer's history leaves up to yesterday's midnight
   * instead of the hot window's start (decision 254; EARLY_ARCHIVE_BYTES unless told: tests set 1).
   */
  earlyAboveBytes?: number;
  /** Runs after a batch is copied and verified, before the object deletes it (tests put a crash here). */
  afterCopy?: (userId: number, ids: { calls: number[]; leases: number[] }) => Promise<void> | void;
  /** Runs after a node's batch of refusals is copied and verified, before its object deletes them (tests crash here). */
  afterRefusalCopy?: (nodeId: number, seqs: number[]) => Promise<void> | void;
  /** The same for a node's batch of fixed allocations' usage (decision 252). */
  afterFixedUsageCopy?: (nodeId: number) => Promise<void> | void;
  /** Leases a node object hands out per exit-index batch (decision 255). */
  indexBatch?: number;
  /** Runs after a node's batch of leases is in the exit index and verified, before its object deletes them. */
  afterIndexCopy?: (nodeId: number, leaseIds: string[]) => Promise<void> | void;
}

export interface ObjectArchiveResult {
  /** Customers with calls in the archive's reach, and how many of them this run visited. */
  customers: number;
  visited: number;
  leases: number;
  calls: number;
  /** Archive objects the job wrote for the nodes' refusals and fixed usage (MAX_OBJECTS, shared with D1's step). */
  objects: number;
  /** Archive objects the customers' objects wrote in their own runs (decision 256). */
  customerObjects: number;
  /** Lease copies moved from the nodes' objects to the exit index (decision 255). */
  nodeLeases: number;
  /** Refusals moved from the nodes' objects to the archive (decision 250). */
  refusals: number;
  /** Rows (allocation, day, client) of fixed allocations' usage moved from the nodes' objects (decision 252). */
  fixedUsage: number;
  /** Every customer's history older than the cutoff is in the archive. */
  complete: boolean;
  /**
   * Per customer, from when D1's usage rows must stay (a lease is stamped from all its usage, and its hot records read
   * them there): 0 for a customer not visited or not finished in this run (its object may still hold leases of any
   * age before the cutoff); the start of the oldest lease its object still holds when that is before the cutoff (a
   * lease that still runs, or waits for an earlier one). Customers not listed hold no lease before the cutoff.
   */
  usageHeldFrom: [userId: number, from: number][];
}

/**
 * Have one customer's object copy its history past `cutoff` to the archive and delete it (decision 256: the work runs
 * in the object, ./customer-batches.ts); false if some is left (a bound reached, or the object busy with another run).
 */
async function archiveCustomer(
  stores: { records: CustomerRecordsNamespace },
  userId: number,
  cutoff: number,
  now: number,
  opts: ObjectArchiveOptions,
  budget: { objects: number; leases: number; calls: number; held: [number, number][] },
): Promise<boolean> {
  const r = await customerRecords(stores.records, userId).archiveHistory({
    userId,
    cutoff,
    now,
    opts: {
      ...(opts.maxObjects !== undefined && { maxObjects: opts.maxObjects }),
      ...(opts.batch !== undefined && { batch: opts.batch }),
      ...(opts.maxBatches !== undefined && { maxBatches: opts.maxBatches }),
      ...(opts.earlyAboveBytes !== undefined && { earlyAboveBytes: opts.earlyAboveBytes }),
      ...(opts.afterCopy && { afterCopy: opts.afterCopy }),
    },
  });
  budget.objects += r.objects;
  budget.leases += r.leases;
  budget.calls += r.calls;
  // D1's usage step keeps rows by the hot window's cutoff: a lease still held from before it keeps its rows there
  // (leases that left early were stamped from theirs already).
  if (r.done && r.heldFrom !== null && r.heldFrom < cutoff) budget.held.push([userId, r.heldFrom]);
  return r.done;
}
/**
 * Have a node's object move its leases (those `due` names) into the exit index (decision 255), in its own invocation
 * (decision 256: NodeLeases.indexHistory). Leases moved.
 */
async function indexNodeLeases(
  stores: { nodes: NodeLeasesNamespace },
  nodeId: number,
  due: { before: number; bounds: [number, number][]; others: number | null; anyBefore: number },
  opts: ObjectArchiveOptions,
): Promise<number> {
  const r = await nodeLeases(stores.nodes, nodeId).indexHistory({
    nodeId,
    due,
    ...(opts.maxBatches !== undefined && { maxBatches: opts.maxBatches }),
    ...(opts.indexBatch !== undefined && { batch: opts.indexBatch }),
    ...(opts.afterIndexCopy && { afterIndexCopy: opts.afterIndexCopy }),
  });
  return r.leases;
}

/**
 * Copy a node object's refusals dated before `cutoff` (then its fixed allocations' days of usage that ended by then,
 * decision 252) to the archive and only then delete them from the object
 * (decision 250): a crash in between leaves both, and the next run writes the same keys again (merged by id).
 */
async function archiveNodeRefusals(
  stores: { files: R2Bucket; db: D1Database; nodes: NodeLeasesNamespace },
  nodeId: number,
  cutoff: number,
  now: number,
  opts: ObjectArchiveOptions,
  budget: { objects: number; refusals: number; fixedUsage: number },
): Promise<void> {
  const object = nodeLeases(stores.nodes, nodeId);
  for (let i = 0; i < (opts.maxBatches ?? MAX_BATCHES); i++) {
    if (budget.objects >= (opts.maxObjects ?? MAX_OBJECTS)) return;
    const due = await object.refusalsDue(cutoff, REFUSAL_BATCH);
    if (due.length === 0) break;
    const written = await writeArchive(
      stores.files,
      stores.db,
      due.map((r) => refusalRecord(nodeId, r)),
      now,
    );
    budget.objects += written.length;
    const seqs = due.map((r) => r.seq);
    await opts.afterRefusalCopy?.(nodeId, seqs);
    budget.refusals += await object.dropRefusals(seqs);
  }
  // The fixed allocations' usage the object keeps (decision 252), by allocation and day, the same way.
  for (let i = 0; i < (opts.maxBatches ?? MAX_BATCHES); i++) {
    if (budget.objects >= (opts.maxObjects ?? MAX_OBJECTS)) return;
    const due = await object.fixedUsageDue(cutoff, REFUSAL_BATCH);
    if (due.length === 0) return;
    const written = await writeArchive(
      stores.files,
      stores.db,
      due.map((d) => fixedUsageRecord(nodeId, d)),
      now,
    );
    budget.objects += written.length;
    await opts.afterFixedUsageCopy?.(nodeId);
    budget.fixedUsage += await object.dropFixedUsage(due.map((d): [number, number] => [d.allocationId, d.dayStart]));
  }
}

/**
 * Move the customers' and nodes' objects' history older than the hot window to the archive (see the top). The
 * customers with calls in the reach are visited in pages of `maxCustomers`, one page per hourly run in turn (the
 * cutoff moves once a day, so each page is visited several times a day). A customer that fails is logged and left for
 * a later run (its rows stay in its object); the nodes' copies of a customer's leases are deleted once that customer's
 * history before the cutoff was copied (all of them when every customer's was).
 */
export async function archiveObjectHistory(
  stores: { files: R2Bucket; db: D1Database; records: CustomerRecordsNamespace; nodes: NodeLeasesNamespace },
  now: number,
  opts: ObjectArchiveOptions = {},
): Promise<ObjectArchiveResult> {
  const cutoff = hotCutoff(now, opts.hotDays);
  const maxCustomers = opts.maxCustomers ?? MAX_CUSTOMERS;
  // Up to yesterday's midnight (decision 254): a customer whose object outgrew the size bound within its first week
  // has no call before the hot window's start yet, and must be visited all the same.
  const reachTo = Math.max(cutoff, earlyCutoff(now));
  const customers = await customersWithCallsBetween(stores.db, cutoff - REACH_DAYS * DAY_MS, reachTo, MAX_REACHED);
  const pages = Math.max(1, Math.ceil(customers.length / maxCustomers));
  const page = Math.floor(now / HOUR_MS) % pages;
  const visit = customers.slice(page * maxCustomers, (page + 1) * maxCustomers);
  const budget = { objects: 0, leases: 0, calls: 0, held: [] as [number, number][] };
  const cleared: number[] = [];
  for (const userId of visit) {
    try {
      if (await archiveCustomer(stores, userId, cutoff, now, opts, budget)) cleared.push(userId);
    } catch (err) {
      // One customer failing never stops the others; its rows stay in its object for the next run.
      console.error(JSON.stringify({ level: 'error', where: 'archive-objects', userId, error: String(err) }));
    }
  }
  // Complete only when the list was whole: beyond MAX_REACHED the customers of highest ids were not even listed.
  const complete = cleared.length === customers.length && customers.length < MAX_REACHED;
  const done = new Set(cleared);
  const usageHeldFrom: [number, number][] = [
    ...customers.filter((u) => !done.has(u)).map((u): [number, number] => [u, 0]),
    ...budget.held,
  ];
  let dropped = 0;
  const nodes = await nodeIds(stores.db);
  // The nodes' copies go to the exit index once their customer's copy is in the archive (its usage was read from
  // them): of a finished customer that still holds a lease from before the cutoff (a call with a lease that still
  // runs), only the copies that started before that lease; and any a further window past the cutoff (a customer the
  // job could not finish for a week: decision 255). Each node's object writes its index in its own invocation, as each
  // customer's object wrote its batches (decision 256): the job's budget of archive objects is the nodes' refusals and
  // fixed usage, and D1's step's.
  const heldFrom = new Map(budget.held);
  const due = {
    before: cutoff,
    bounds: complete ? budget.held : cleared.map((u): [number, number] => [u, heldFrom.get(u) ?? cutoff]),
    others: complete ? cutoff : null,
    anyBefore: cutoff - (opts.hotDays ?? HOT_DAYS) * DAY_MS,
  };
  for (const nodeId of nodes) {
    try {
      dropped += await indexNodeLeases(stores, nodeId, due, opts);
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', where: 'archive-exit-index', nodeId, error: String(err) }));
    }
  }
  // The nodes' refusals (decision 250) share the run's budget of archive objects; a failing node waits for a later run.
  const refusalBudget = { objects: 0, refusals: 0, fixedUsage: 0 };
  for (const nodeId of nodes) {
    try {
      await archiveNodeRefusals(stores, nodeId, cutoff, now, opts, refusalBudget);
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', where: 'archive-refusals', nodeId, error: String(err) }));
    }
  }
  const customerObjects = budget.objects;
  budget.objects = refusalBudget.objects;
  return {
    customers: customers.length,
    visited: visit.length,
    leases: budget.leases,
    calls: budget.calls,
    objects: budget.objects,
    customerObjects,
    nodeLeases: dropped,
    refusals: refusalBudget.refusals,
    fixedUsage: refusalBudget.fixedUsage,
    complete,
    usageHeldFrom,
  };
}
