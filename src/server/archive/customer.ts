// What a customer (and an operator for one customer) reads of the delivery history: recent calls and leases from the
// customer's object (decision 246), those D1 still holds from before, older days from the R2 archive, as one list;
// and any date range up to 180 days as CSV (docs/delivery.md). Each read first hands the customer's receipts still in
// D1 to the object (decision 247), so the call the customer was just answered is on the page.
import 'server-only';
import { z } from 'zod';
import { PRODUCT_LABEL } from '../../lib/commerce';
import { csvDocument } from '../../lib/csv';
import { EXTRACT_RESULT_TEXT } from '../../lib/extract-results';
import { DAY_MS, HOUR_MS, shanghaiDateTime, shanghaiDay, shanghaiDayStart } from '../../lib/time';
import { archiveThrough } from '../db/archive-rows';
import {
  type AssignmentRecord,
  counterSplit,
  countExtractCalls,
  countLoggedCalls,
  type ExtractLogRow,
  IP_RECORDS_COUNT_CAP,
  type LeaseWithUsage,
  leasesBetween,
  listAssignments,
  listExtractLogs,
  packageEnds,
  packagesEndedBefore,
  usageOfLeases,
} from '../db/records';
import { handOverReceiptsOf } from '../domain/receipts';
import { type CustomerRecordsNamespace, customerRecords } from '../objects/customer-records';
import { earlyCutoff } from '../objects/customer-records-archive';
import type { KeptLease } from '../objects/customer-records-read';
import { addLeaseUsage, leaseIdOfNumber, leaseUsageInNodes, type NodeLeasesNamespace } from '../objects/node-leases';
import {
  MIN_ARCHIVE_DAYS,
  archivedObjects,
  archivedPage,
  archivedRecords,
  newestFirst,
  readArchiveObject,
  type StoredRecord,
} from './store';

/** The longest range one download covers, and the most rows it holds. */
export const HISTORY_MAX_DAYS = MIN_ARCHIVE_DAYS;
export const HISTORY_MAX_ROWS = 50_000;

const day = (hint: string) => z.string({ error: hint }).regex(/^\d{4}-\d{2}-\d{2}$/, hint);

/** A download's input: what (IP records or calls) and which 北京时间 days, both included, at most 180 of them. */
export const historyRangeSchema = z
  .object({
    kind: z.enum(['ips', 'calls'], { error: '请选择下载的记录类型' }).default('ips'),
    from: day('请选择开始日期'),
    to: day('请选择结束日期'),
  })
  .transform((v, c) => {
    const from = shanghaiDayStart(v.from);
    const to = shanghaiDayStart(v.to) + DAY_MS;
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) {
      c.addIssue({ code: 'custom', message: '结束日期不能早于开始日期', path: ['to'] });
      return z.NEVER;
    }
    if (to - from > HISTORY_MAX_DAYS * DAY_MS) {
      c.addIssue({ code: 'custom', message: `一次最多下载${HISTORY_MAX_DAYS}天的记录`, path: ['to'] });
      return z.NEVER;
    }
    return { kind: v.kind, from, to, fromDay: v.from, toDay: v.to };
  });

const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** An archived lease as the IP records show it. */
export const archivedLease = (r: StoredRecord): LeaseWithUsage => ({
  id: r.id,
  userId: r.owner,
  nodeId: r.data.nodeId === null || r.data.nodeId === undefined ? null : num(r.data.nodeId),
  ip: str(r.data.ip),
  port: num(r.data.port),
  protocol: str(r.data.protocol),
  region: str(r.data.region),
  carrier: str(r.data.carrier),
  productType: num(r.data.productType),
  packageId: num(r.data.packageId),
  assignedAt: num(r.data.assignedAt),
  expiresAt: num(r.data.expiresAt),
  remark: str(r.data.remark),
  bytes: num(r.data.bytes),
  connections: num(r.data.connections),
  clients: Array.isArray(r.data.clients) ? r.data.clients.map(String) : [],
});

const archivedCall = (r: StoredRecord): ExtractLogRow => ({
  id: r.id,
  packageId: r.data.packageId === null || r.data.packageId === undefined ? null : num(r.data.packageId),
  productType: num(r.data.productType),
  clientIp: str(r.data.clientIp),
  requested: num(r.data.requested),
  returned: num(r.data.returned),
  code: num(r.data.code),
  query: str(r.data.query),
  createdAt: num(r.data.createdAt),
});

/** Leases of the object whose usage one D1 query sums (the query's JSON page stays well under D1's size limits). */
const USAGE_PAGE = 1_000;

/**
 * The object's leases with the usage each owns (decision 222): the rows their nodes' objects keep for them (decision
 * 249) and D1's node reports from before the switch; in their order.
 */
async function withUsage(
  db: D1Database,
  nodes: NodeLeasesNamespace,
  userId: number,
  leases: KeptLease[],
): Promise<LeaseWithUsage[]> {
  const out: LeaseWithUsage[] = [];
  for (let i = 0; i < leases.length; i += USAGE_PAGE) {
    const page = leases.slice(i, i + USAGE_PAGE);
    const [usage, inNodes] = await Promise.all([
      usageOfLeases(
        db,
        userId,
        page.map((l) => ({ ip: l.ip, port: l.port, from: l.assignedAt, until: l.nextAt })),
      ),
      leaseUsageInNodes(
        nodes,
        page.map((l) => ({ nodeId: l.nodeId, id: leaseIdOfNumber(l.id) })),
      ),
    ]);
    page.forEach((l, j) => {
      const { ipId: _ipId, nextAt: _nextAt, ...lease } = l;
      const u = addLeaseUsage(usage[j] ?? { bytes: 0, connections: 0, clients: [] }, inNodes[j] ?? null);
      out.push({ ...lease, userId, remark: '', ...u });
    });
  }
  return out;
}

/**
 * The leases as they end (decision 247): a lease of a package that ended early (a refund, a suspension) ends with its
 * package, as the node contract ends it, though the lease's row (the object's and D1's) keeps the end it was given.
 */
async function endedWithPackages<T extends { packageId: number; expiresAt: number }>(
  db: D1Database,
  userId: number,
  leases: T[],
): Promise<T[]> {
  const ends = await packageEnds(
    db,
    userId,
    leases.map((l) => l.packageId),
  );
  return leases.map((l) => {
    const end = ends.get(l.packageId);
    return end !== undefined && end < l.expiresAt ? { ...l, expiresAt: end } : l;
  });
}

/** A lease with its usage as the IP lists show it (no owner, node or client addresses). */
const listed = ({ clients: _clients, userId: _userId, nodeId: _nodeId, ...lease }: LeaseWithUsage): AssignmentRecord =>
  lease;

/**
 * The hot leases, newest first: those kept by the customer's object, then the ones still in D1 from before the object
 * kept them (decision 246), optionally one product type, only the live ones or one address. The total counts at most
 * IP_RECORDS_COUNT_CAP of them (`totalCapped` past it); `hotCount` is where the archive's rows start.
 */
export async function hotLeasesPage(
  db: D1Database,
  records: CustomerRecordsNamespace,
  nodes: NodeLeasesNamespace,
  r: {
    userId: number;
    productType: number | null;
    liveAt: number | null;
    ip: string | null;
    offset: number;
    limit: number;
  },
): Promise<{ total: number; totalCapped: boolean; list: AssignmentRecord[] }> {
  const [, endedPackages] = await Promise.all([
    handOverReceiptsOf(db, records, r.userId),
    r.liveAt ? packagesEndedBefore(db, r.userId, r.liveAt) : [],
  ]);
  const kept = await customerRecords(records, r.userId).leasesPage({
    productType: r.productType,
    liveAt: r.liveAt,
    ip: r.ip,
    endedPackages,
    offset: r.offset,
    limit: r.limit,
    countCap: IP_RECORDS_COUNT_CAP,
  });
  const fromObject = (await withUsage(db, nodes, r.userId, kept.list)).map(listed);
  if (kept.counted > IP_RECORDS_COUNT_CAP) {
    return { total: IP_RECORDS_COUNT_CAP, totalCapped: true, list: await endedWithPackages(db, r.userId, fromObject) };
  }
  const legacy = await listAssignments(db, {
    ...r,
    endedPackages,
    offset: Math.max(0, r.offset - kept.counted),
    limit: r.limit - fromObject.length,
  });
  const counted = kept.counted + legacy.total;
  const totalCapped = legacy.totalCapped || counted > IP_RECORDS_COUNT_CAP;
  return {
    total: totalCapped ? IP_RECORDS_COUNT_CAP : counted,
    totalCapped,
    list: await endedWithPackages(db, r.userId, [...fromObject, ...legacy.list]),
  };
}

/**
 * The IP records: the hot leases first (the customer's object's, then D1's; newest first), then the archived ones of
 * the last 180 days (newest day first). The total adds the archive's counts from its manifest; an address filter
 * searches the hot tiers only.
 */
export async function ipRecordsPage(
  files: R2Bucket,
  db: D1Database,
  records: CustomerRecordsNamespace,
  nodes: NodeLeasesNamespace,
  r: { userId: number; ip: string | null; now: number; offset: number; limit: number },
): Promise<{ total: number; totalCapped: boolean; list: AssignmentRecord[] }> {
  const hot = await hotLeasesPage(db, records, nodes, { ...r, productType: null, liveAt: null });
  if (r.ip) return hot;
  const need = r.limit - hot.list.length;
  const archived = await archivedPage(files, db, {
    owner: r.userId,
    kind: 'lease',
    fromDay: shanghaiDay(r.now - MIN_ARCHIVE_DAYS * DAY_MS),
    toDay: shanghaiDay(r.now),
    offset: Math.max(0, r.offset - hot.total),
    limit: hot.totalCapped ? 0 : need,
  });
  return {
    total: hot.total + (hot.totalCapped ? 0 : archived.total),
    totalCapped: hot.totalCapped,
    list: [...hot.list, ...archived.list.map((x) => listed(archivedLease(x)))],
  };
}

/**
 * A page of a customer's archived calls dated in [from, to), newest day first (within a day newest first), skipping
 * `skip` of them: the objects' calls (negative ids, decision 248) of any date, which include those a large object
 * handed out early, dated after D1's mark (decision 254); D1's own calls only before its mark `through` (from it on
 * they are D1's tier, which holds them). A batch whose rows all count is skipped by the manifest's count, unread.
 */
async function archivedCallsPage(
  files: R2Bucket,
  db: D1Database,
  r: { owner: number; from: number; to: number; through: number; skip: number; limit: number },
): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  if (r.limit <= 0 || r.to <= r.from) return out;
  const objects = await archivedObjects(db, {
    owner: r.owner,
    kind: 'extract',
    fromDay: shanghaiDay(r.from),
    toDay: shanghaiDay(r.to - 1),
  });
  const shown = (x: StoredRecord) => x.at >= r.from && x.at < r.to && (x.id < 0 || x.at < r.through);
  let skip = r.skip;
  for (const o of objects) {
    if (out.length >= r.limit) break;
    const dayStart = shanghaiDayStart(o.day);
    const whole = dayStart >= r.from && dayStart + DAY_MS <= r.to && (o.part < 0 || dayStart + DAY_MS <= r.through);
    if (whole && skip >= o.rows) {
      skip -= o.rows;
      continue;
    }
    const rows = (await readArchiveObject(files, o.key)).filter(shown).sort(newestFirst);
    for (const x of rows) {
      if (out.length >= r.limit) break;
      if (skip > 0) skip--;
      else out.push(x);
    }
  }
  return out;
}

/**
 * The extraction calls in [from, to), newest first, over three tiers: those kept by the customer's object, then those
 * still in D1's log (dated from the archive's mark on), then the archived ones: D1's before the mark and every one the
 * objects handed out (decision 254: a large object hands out all but today and yesterday, so its archived calls are
 * dated after D1's mark too). The total counts the window's whole hours from the hourly counters, which D1 keeps for
 * every call; a window reaching before yesterday starts (and ends) on a whole hour, so no partial hour there needs a
 * count of the archive (which counts per day only); a partial hour since yesterday is counted in both hot logs.
 */
export async function extractRecordsPage(
  files: R2Bucket,
  db: D1Database,
  records: CustomerRecordsNamespace,
  q: { userId: number; from: number; to: number; now: number; offset: number; limit: number },
): Promise<{ total: number; list: ExtractLogRow[] }> {
  // Nothing since yesterday's midnight is in the archive (earlyCutoff is the latest any object hands out); before it a
  // window's partial first and last hours become whole ones, counted by the counters, where the counters are kept (the
  // purge takes them at the retention's edge, never less than 180 days: a 180-day window keeps its partial first hour).
  const hotSince = earlyCutoff(q.now);
  const countersFrom = q.now - MIN_ARCHIVE_DAYS * DAY_MS;
  const hourFrom = Math.floor(q.from / HOUR_MS) * HOUR_MS;
  const r = {
    ...q,
    from: q.from < hotSince && hourFrom >= countersFrom ? hourFrom : q.from,
    to: q.to < hotSince ? Math.ceil(q.to / HOUR_MS) * HOUR_MS : q.to,
  };
  await handOverReceiptsOf(db, records, r.userId);
  const object = customerRecords(records, r.userId);
  const { headEnd, tailStart } = counterSplit(r.from, r.to, r.now);
  const [[kept = 0, keptHead = 0, keptTail = 0], fromObject, counted, through] = await Promise.all([
    object.countCalls([
      { from: r.from, to: r.to },
      { from: r.from, to: headEnd },
      { from: tailStart, to: r.to },
    ]),
    object.callsPage({ from: r.from, to: r.to, offset: r.offset, limit: r.limit }),
    countExtractCalls(db, r),
    archiveThrough(db, 'extract'),
  ]);
  const total = counted + keptHead + keptTail;
  let list: ExtractLogRow[] = fromObject;
  if (list.length >= r.limit) return { total, list };
  const hotFrom = Math.max(r.from, through);
  const legacyOffset = Math.max(0, r.offset - kept);
  const legacy = await listExtractLogs(db, { ...r, from: hotFrom, offset: legacyOffset, limit: r.limit - list.length });
  list = [...list, ...legacy.list];
  const need = r.limit - list.length;
  if (need <= 0) return { total, list };
  const legacyCount = await countLoggedCalls(db, { userId: r.userId, from: hotFrom, to: r.to });
  const old = await archivedCallsPage(files, db, {
    owner: r.userId,
    from: r.from,
    // Nothing since yesterday's midnight is archived: a window within the last day reads no manifest.
    to: Math.min(r.to, hotSince),
    through,
    skip: Math.max(0, r.offset - kept - legacyCount),
    limit: need,
  });
  return { total, list: [...list, ...old.map(archivedCall)] };
}

/**
 * A customer's leases or calls in [from, to) from the three stores, newest first: the customer's object (decision
 * 246), D1 and the archive, each D1 row once (D1's copy wins over the archive's). Without `records` (a caller that has
 * no object binding) the object's rows are left out.
 */
export async function historyRows(
  files: R2Bucket,
  db: D1Database,
  r: { userId: number; kind: 'ips' | 'calls'; from: number; to: number; now: number },
  records?: { records: CustomerRecordsNamespace; nodes: NodeLeasesNamespace },
): Promise<{ leases: LeaseWithUsage[]; calls: ExtractLogRow[]; truncated: boolean }> {
  if (records) await handOverReceiptsOf(db, records.records, r.userId);
  const object = records ? customerRecords(records.records, r.userId) : null;
  const window = { from: r.from, to: r.to };
  if (r.kind === 'ips') {
    const kept = object ? await object.leasesBetween({ ...window, limit: HISTORY_MAX_ROWS + 1 }) : [];
    const fromObject = await endedWithPackages(
      db,
      r.userId,
      object && records ? await withUsage(db, records.nodes, r.userId, kept) : [],
    );
    const hot = await endedWithPackages(db, r.userId, await leasesBetween(db, { ...r, limit: HISTORY_MAX_ROWS + 1 }));
    const old = await archivedRecords(files, db, {
      owner: r.userId,
      kind: 'lease',
      from: r.from,
      to: r.to,
      maxRows: HISTORY_MAX_ROWS,
    });
    // Ids are disjoint across the tiers (decision 247), and a row moved to the archive keeps its id: a row both in a
    // hot tier and in the archive (a crash between copying and deleting) shows once, from the hot tier. The sort is by
    // time only (stable), so rows of one time keep their tier's order.
    const seen = new Set([...fromObject, ...hot].map((l) => l.id));
    const all = [
      ...fromObject,
      ...hot,
      ...old.records
        .sort(newestFirst)
        .map(archivedLease)
        .filter((l) => !seen.has(l.id)),
    ].sort((a, b) => b.assignedAt - a.assignedAt);
    const truncated = old.truncated || all.length > HISTORY_MAX_ROWS;
    return { leases: all.slice(0, HISTORY_MAX_ROWS), calls: [], truncated };
  }
  const fromObject = object ? await object.callsPage({ ...window, offset: 0, limit: HISTORY_MAX_ROWS + 1 }) : [];
  const hot = await listExtractLogs(db, { ...r, offset: 0, limit: HISTORY_MAX_ROWS + 1 });
  const old = await archivedRecords(files, db, {
    owner: r.userId,
    kind: 'extract',
    from: r.from,
    to: r.to,
    maxRows: HISTORY_MAX_ROWS,
  });
  const seen = new Set([...fromObject, ...hot.list].map((c) => c.id));
  const all = [
    ...fromObject,
    ...hot.list,
    ...old.records
      .sort(newestFirst)
      .map(archivedCall)
      .filter((c) => !seen.has(c.id)),
  ].sort((a, b) => b.createdAt - a.createdAt);
  return {
    leases: [],
    calls: all.slice(0, HISTORY_MAX_ROWS),
    truncated: old.truncated || all.length > HISTORY_MAX_ROWS,
  };
}

/** The download: zh-CN headers, 北京时间, a UTF-8 BOM so Excel reads it as UTF-8. */
export function historyCsv(kind: 'ips' | 'calls', h: { leases: LeaseWithUsage[]; calls: ExtractLogRow[] }): string {
  if (kind === 'ips') {
    return csvDocument(
      [
        '提取时间',
        'IP',
        '端口',
        '协议',
        '地区',
        '运营商',
        '产品',
        '到期时间',
        '流量（字节）',
        '连接数',
        '来源IP',
        '备注',
      ],
      h.leases.map((l) => [
        shanghaiDateTime(l.assignedAt),
        l.ip,
        l.port,
        l.protocol,
        l.region,
        l.carrier,
        PRODUCT_LABEL[l.productType] ?? '代理IP',
        shanghaiDateTime(l.expiresAt),
        l.bytes,
        l.connections,
        l.clients.join(' '),
        l.remark,
      ]),
    );
  }
  return csvDocument(
    ['调用时间', '调用IP', '产品', '请求数量', '返回数量', '结果', '参数'],
    h.calls.map((c) => [
      shanghaiDateTime(c.createdAt),
      c.clientIp,
      PRODUCT_LABEL[c.productType] ?? '代理IP',
      c.requested,
      c.returned,
      EXTRACT_RESULT_TEXT[c.code] ?? '失败',
      c.query,
    ]),
  );
}
