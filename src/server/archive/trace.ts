// The exit-IP trace (docs/decisions/221): who held exit address X at time T. The leases come from the hot stores (the
// objects of every node, decisions 245 and 253, and D1's older lease rows) and from the archive's exit index (one R2 list and a few small reads for that day and address); the
// customer's phone (masked), real-name state and package name from D1, which keeps accounts and packages. Every
// lookup, and every operator export of a customer's history, writes an audit row.
import 'server-only';
import { maskPhone } from '../../lib/format';
import { DAY_MS } from '../../lib/time';
import {
  holderFacts,
  hotLeasesOfExit,
  nodeIds,
  packageNames,
  type SourceRow,
  usageOfWindows,
  userIdByPhone,
} from '../db/archive-rows';
import { type AuditActor, auditInsertStatement } from '../db/console-audit';
import { type LeaseUsage, type LeaseWithUsage, toLeaseWithUsage } from '../db/records';
import { USAGE_LEASE_GRACE_MS } from '../domain/node-usage';
import type { CustomerRecordsNamespace } from '../objects/customer-records';
import { archivedLease, HISTORY_MAX_DAYS, historyCsv, historyRows } from './customer';
import { traceExitArchive } from './store';
import { COMPANY_STATE } from '../../lib/company-states';
import {
  addLeaseUsage,
  leaseUsageInNodes,
  type NodeLeasesNamespace,
  nodeLeases,
  receiptLeaseNumber,
} from '../objects/node-leases';

export interface TraceHolder {
  leaseId: number;
  userId: number;
  phone: string;
  realName: string;
  packageId: number;
  packageName: string;
  productType: number;
  ip: string;
  port: number;
  assignedAt: number;
  expiresAt: number;
  clients: string[];
  bytes: number;
  connections: number;
  /** Where the lease was found: hot (a node's object or D1) or the R2 archive. */
  from: 'hot' | 'archive';
}

const realNameText = (f: { identityAuth: number; companyAuthState: number } | undefined): string =>
  !f
    ? '账号不存在'
    : f.companyAuthState === COMPANY_STATE.approved
      ? '企业认证'
      : f.identityAuth === 1
        ? '个人实名'
        : '未实名';

const writeAudit = (db: D1Database, actor: AuditActor, entry: Parameters<typeof auditInsertStatement>[2]) =>
  db.batch([auditInsertStatement(db, actor, entry)]);

/**
 * The leases of exit address `ip` held in the node objects, as D1's hot rows (SourceRow) with the
 * usage each owns (its holder's rows on that exit until the holder's next lease of it there). Their ids are negative
 * (receiptLeaseNumber), so they never meet D1's. Every node's object is asked (nodes are few; `holders` is one indexed
 * read): the node that ran the address at that time keeps its leases for the hot window, while D1's row of the exit
 * leaves a day after the exit expired and the address may run on another node since (decision 253).
 */
async function objectLeasesOfExit(db: D1Database, nodes: NodeLeasesNamespace, ip: string, at: number, slack: number) {
  const found = (
    await Promise.all(
      (await nodeIds(db)).map(async (n) => (await nodeLeases(nodes, n).holders(ip, at, slack)).map((l) => ({ n, l }))),
    )
  ).flat();
  const [inD1, inNodes] = await Promise.all([
    usageOfWindows(
      db,
      found.map(({ l }) => ({
        userId: l.userId,
        ip: l.ip,
        port: l.port,
        from: l.startsAt,
        until: l.nextStartsAt ?? Number.MAX_SAFE_INTEGER,
      })),
    ),
    leaseUsageInNodes(
      nodes,
      found.map(({ n, l }) => ({ nodeId: n, id: l.id })),
    ),
  ]);
  // The usage the node's object keeps for the lease (decision 249) and D1's rows from before it.
  const owned = inD1.map((json, k) => {
    const d = JSON.parse(json) as Partial<LeaseUsage>;
    const base = { bytes: d.bytes ?? 0, connections: d.connections ?? 0, clients: d.clients ?? [] };
    return JSON.stringify(addLeaseUsage(base, inNodes[k] ?? null));
  });
  return found.map(
    ({ n, l }, k): SourceRow => ({
      id: receiptLeaseNumber(l.id),
      user_id: l.userId,
      node_id: n,
      ip: l.ip,
      port: l.port,
      product_type: l.productType,
      package_id: l.packageId,
      assigned_at: l.startsAt,
      expires_at: l.expiresAt,
      owned: owned[k],
    }),
  );
}

/** The leases of exit `ip` whose window holds `at` (a node may report up to 5 minutes after the end), newest first. */
export async function traceExit(
  stores: { files: R2Bucket; db: D1Database; nodes: NodeLeasesNamespace },
  actor: AuditActor,
  q: { ip: string; at: number },
): Promise<TraceHolder[]> {
  const { files, db } = stores;
  const slack = USAGE_LEASE_GRACE_MS;
  // The hot stores first, then the archive: a lease moves from a node's object to the exit index by writing the index
  // and then deleting the copy, so one that was gone from the node when it was read is listed by the archive after.
  const [hot, kept] = await Promise.all([
    hotLeasesOfExit(db, q.ip, q.at, slack),
    objectLeasesOfExit(db, stores.nodes, q.ip, q.at, slack),
  ]);
  const old = await traceExitArchive(files, q.ip, q.at, slack);
  const found = new Map<number, { lease: LeaseWithUsage; from: 'hot' | 'archive' }>();
  for (const r of old) found.set(r.id, { lease: archivedLease(r), from: 'archive' });
  for (const r of [...hot, ...kept]) found.set(r.id, { lease: toLeaseWithUsage(r), from: 'hot' });
  const leases = [...found.values()].sort((a, b) => b.lease.assignedAt - a.lease.assignedAt);
  const [facts, names] = await Promise.all([
    holderFacts(db, [...new Set(leases.map((l) => l.lease.userId))]),
    packageNames(db, [...new Set(leases.map((l) => l.lease.packageId))]),
  ]);
  const holders = leases.map(({ lease: l, from }) => {
    const f = facts.get(l.userId);
    return {
      leaseId: l.id,
      userId: l.userId,
      phone: f ? maskPhone(f.phone) : '',
      realName: realNameText(f),
      packageId: l.packageId,
      packageName: names.get(l.packageId) ?? '',
      productType: l.productType,
      ip: l.ip,
      port: l.port,
      assignedAt: l.assignedAt,
      expiresAt: l.expiresAt,
      clients: l.clients,
      bytes: l.bytes,
      connections: l.connections,
      from,
    };
  });
  await writeAudit(db, actor, {
    action: 'Admin.ExitTrace',
    target: `ip:${q.ip}`,
    after: { at: q.at, holders: holders.map((h) => `user:${h.userId}`) },
  });
  return holders;
}

/**
 * An operator's download of one customer's history (leases or calls) for a range, audited. Null when no customer
 * has that phone.
 */
export async function exportCustomerHistory(
  files: R2Bucket,
  db: D1Database,
  actor: AuditActor,
  q: { phone: string; kind: 'ips' | 'calls'; from: number; to: number },
  records?: { records: CustomerRecordsNamespace; nodes: NodeLeasesNamespace },
): Promise<{ csv: string; rows: number; truncated: boolean; userId: number } | null> {
  const userId = await userIdByPhone(db, q.phone);
  if (userId === null) return null;
  const to = Math.min(q.to, q.from + HISTORY_MAX_DAYS * DAY_MS);
  const h = await historyRows(files, db, { userId, kind: q.kind, from: q.from, to, now: actor.now }, records);
  const rows = q.kind === 'ips' ? h.leases.length : h.calls.length;
  await writeAudit(db, actor, {
    action: 'Admin.CustomerHistoryExport',
    target: `user:${userId}`,
    after: { kind: q.kind, from: q.from, to, rows },
  });
  return { csv: historyCsv(q.kind, h), rows, truncated: h.truncated, userId };
}
