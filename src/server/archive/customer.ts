// What a customer (and an operator for one customer) reads of the delivery history: recent days from the hot store
// (D1 today), older days from the R2 archive, as one list; and any date range up to 180 days as CSV (docs/delivery.md).
import 'server-only';
import { z } from 'zod';
import { PRODUCT_LABEL } from '../../lib/commerce';
import { csvDocument } from '../../lib/csv';
import { EXTRACT_RESULT_TEXT } from '../../lib/extract-results';
import { DAY_MS, shanghaiDateTime, shanghaiDay, shanghaiDayStart } from '../../lib/time';
import { archiveThrough } from '../db/archive-rows';
import {
  type AssignmentRecord,
  countExtractCalls,
  type ExtractLogRow,
  type LeaseWithUsage,
  leasesBetween,
  listAssignments,
  listExtractLogs,
} from '../db/records';
import { MIN_ARCHIVE_DAYS, archivedPage, archivedRecords, type StoredRecord } from './store';

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

/**
 * The IP records: the leases still in D1 first (newest first), then the archived ones of the last 180 days (newest
 * day first). The total adds the archive's counts from its manifest; an address filter searches D1 only.
 */
export async function ipRecordsPage(
  files: R2Bucket,
  db: D1Database,
  r: { userId: number; ip: string | null; now: number; offset: number; limit: number },
): Promise<{ total: number; totalCapped: boolean; list: AssignmentRecord[] }> {
  const hot = await listAssignments(db, { ...r, productType: null, liveAt: null });
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
    list: [
      ...hot.list,
      ...archived.list.map((x) => {
        const { clients: _clients, userId: _userId, nodeId: _nodeId, ...lease } = archivedLease(x);
        return lease;
      }),
    ],
  };
}

/**
 * The extraction calls in [from, to): those still in D1 (dated from the archive's mark on) first, then the archived
 * ones before the mark. The total counts the whole window from the hourly counters, which D1 keeps.
 */
export async function extractRecordsPage(
  files: R2Bucket,
  db: D1Database,
  r: { userId: number; from: number; to: number; now: number; offset: number; limit: number },
): Promise<{ total: number; list: ExtractLogRow[] }> {
  const through = await archiveThrough(db, 'extract');
  const hotFrom = Math.max(r.from, through);
  const hot = await listExtractLogs(db, { ...r, from: hotFrom });
  if (hotFrom <= r.from) return hot;
  const [hotTotal, total] = await Promise.all([
    countExtractCalls(db, { ...r, from: hotFrom }),
    countExtractCalls(db, r),
  ]);
  const need = r.limit - hot.list.length;
  if (need <= 0) return { total, list: hot.list };
  const skip = Math.max(0, r.offset - hotTotal);
  const old = await archivedRecords(files, db, {
    owner: r.userId,
    kind: 'extract',
    from: r.from,
    to: Math.min(r.to, through),
    maxRows: skip + need,
  });
  return { total, list: [...hot.list, ...old.records.slice(skip).map(archivedCall)] };
}

/** A customer's leases or calls in [from, to) from both stores, newest first, each once (D1's copy wins). */
export async function historyRows(
  files: R2Bucket,
  db: D1Database,
  r: { userId: number; kind: 'ips' | 'calls'; from: number; to: number; now: number },
): Promise<{ leases: LeaseWithUsage[]; calls: ExtractLogRow[]; truncated: boolean }> {
  if (r.kind === 'ips') {
    const hot = await leasesBetween(db, { ...r, limit: HISTORY_MAX_ROWS + 1 });
    const old = await archivedRecords(files, db, {
      owner: r.userId,
      kind: 'lease',
      from: r.from,
      to: r.to,
      maxRows: HISTORY_MAX_ROWS,
    });
    const seen = new Set(hot.map((l) => l.id));
    const all = [...hot, ...old.records.map(archivedLease).filter((l) => !seen.has(l.id))].sort(
      (a, b) => b.assignedAt - a.assignedAt || b.id - a.id,
    );
    const truncated = old.truncated || all.length > HISTORY_MAX_ROWS;
    return { leases: all.slice(0, HISTORY_MAX_ROWS), calls: [], truncated };
  }
  const hot = await listExtractLogs(db, { ...r, offset: 0, limit: HISTORY_MAX_ROWS + 1 });
  const old = await archivedRecords(files, db, {
    owner: r.userId,
    kind: 'extract',
    from: r.from,
    to: r.to,
    maxRows: HISTORY_MAX_ROWS,
  });
  const seen = new Set(hot.list.map((c) => c.id));
  const all = [...hot.list, ...old.records.map(archivedCall).filter((c) => !seen.has(c.id))].sort(
    (a, b) => b.createdAt - a.createdAt || b.id - a.id,
  );
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
