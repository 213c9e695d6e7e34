// ProxyRPC.* / ProxyLog.GetList / Statistics.Bandwidth / FixedAllocation.*: extraction records and charts,
// bandwidth from node reports, and the dedicated IPs of fixed packages.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { fixedAreaDistribution, listFixedAllocations, setFixedRemark } from '../db/fixed';
import { bandwidthSeries, extractChart } from '../db/records';
import { extractRecordsPage, historyCsv, historyRangeSchema, historyRows, ipRecordsPage } from '../archive/customer';
import { DAY_MS, HOUR_MS, shanghaiDay, shanghaiDayStart } from '../../lib/time';
import { regionText } from '../domain/regions';
import { defineAction } from './define';
import { pageInput, remarkSchema } from '../../lib/schemas';

const rangeSchema = z.enum(['24h', '7d', '30d'], { error: '时间范围须为24h、7d或30d' }).default('7d');
const rangeMs = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;

/** Where a chart range starts: 24 whole hours back for 24h, else Asia/Shanghai midnight N-1 days before today. */
function chartStart(range: keyof typeof rangeMs, now: number): number {
  return range === '24h'
    ? Math.floor(now / HOUR_MS) * HOUR_MS - 23 * HOUR_MS
    : shanghaiDayStart(shanghaiDay(now - rangeMs[range] + DAY_MS));
}

export const recordActions = {
  'ProxyRPC.GetList': defineAction({
    summary: '提取记录（每次调用提取接口一条，含结果代码），最近6个月',
    access: 'user',
    cacheable: false,
    input: z.object({ range: z.enum(['24h', '7d', '30d', '180d']).default('30d'), ...pageInput }),
    async handler(ctx, input) {
      const span = input.range === '180d' ? 180 * DAY_MS : rangeMs[input.range];
      return extractRecordsPage(ctx.env.FILES, ctx.db, ctx.env.CUSTOMER_RECORDS, {
        userId: ctx.user.id,
        from: ctx.now - span,
        to: ctx.now + 1,
        now: ctx.now,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      });
    },
  }),

  'ProxyRPC.GetCharts': defineAction({
    summary: '提取趋势：24h 按小时、7d/30d 按天（Asia/Shanghai）的调用次数与提取IP数，实时',
    access: 'user',
    cacheable: false,
    input: z.object({ range: rangeSchema }),
    async handler(ctx, input) {
      const bucket = input.range === '24h' ? 'hour' : 'day';
      const from = chartStart(input.range, ctx.now);
      const points = await extractChart(ctx.db, { userId: ctx.user.id, from, to: ctx.now + 1, now: ctx.now, bucket });
      return { bucket, from, points };
    },
  }),

  'ProxyLog.GetList': defineAction({
    summary:
      '提取的IP明细（IP、端口、协议、地区、到期时间、归属该次提取的流量与连接数；近期读热数据、更早读归档），可按IP查询',
    access: 'user',
    cacheable: false,
    input: z.object({ ip: z.string().trim().max(64).default(''), ...pageInput }),
    async handler(ctx, input) {
      return ipRecordsPage(ctx.env.FILES, ctx.db, ctx.env.CUSTOMER_RECORDS, ctx.env.NODE_LEASES, {
        userId: ctx.user.id,
        ip: input.ip || null,
        now: ctx.now,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      });
    },
  }),

  'ProxyLog.Export': defineAction({
    summary:
      '下载提取记录（CSV，UTF-8 带 BOM，Excel 可直接打开）：IP明细或调用记录，任意日期范围（北京时间，最多180天），近期读热数据、更早读归档',
    access: 'user',
    cacheable: false,
    input: historyRangeSchema,
    async handler(ctx, input) {
      const h = await historyRows(
        ctx.env.FILES,
        ctx.db,
        { userId: ctx.user.id, ...input, now: ctx.now },
        { records: ctx.env.CUSTOMER_RECORDS, nodes: ctx.env.NODE_LEASES },
      );
      const rows = input.kind === 'ips' ? h.leases.length : h.calls.length;
      return {
        filename: `${input.kind === 'ips' ? 'ip-records' : 'extract-calls'}-${input.fromDay}-${input.toDay}.csv`,
        csv: historyCsv(input.kind, h),
        rows,
        truncated: h.truncated,
      };
    },
  }),

  'Statistics.Bandwidth': defineAction({
    summary: '带宽统计：节点上报的流量（入/出字节）与提取IP数，24h 按小时、7d/30d 按天',
    access: 'user',
    cacheable: false,
    input: z.object({ range: rangeSchema }),
    async handler(ctx, input) {
      const bucket = input.range === '24h' ? 'hour' : 'day';
      const from = chartStart(input.range, ctx.now);
      const points = await bandwidthSeries(ctx.db, {
        userId: ctx.user.id,
        from,
        to: ctx.now + 1,
        bucket,
        fromDay: shanghaiDay(ctx.now - rangeMs[input.range] + DAY_MS),
        toDay: shanghaiDay(ctx.now),
      });
      const total = points.reduce((s, p) => ({ bytesIn: s.bytesIn + p.bytesIn, bytesOut: s.bytesOut + p.bytesOut }), {
        bytesIn: 0,
        bytesOut: 0,
      });
      return { bucket, from, points, total };
    },
  }),

  'FixedAllocation.FixedIpConsumerRecord': defineAction({
    summary: '固定IP分配记录（含已释放的），最新在前',
    access: 'user',
    cacheable: false,
    input: z.object({ ...pageInput }),
    async handler(ctx, input) {
      const { total, list } = await listFixedAllocations(ctx.db, {
        userId: ctx.user.id,
        liveAt: null,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      });
      return {
        total,
        list: list.map((a) => ({
          ...a,
          region: regionText(a.province, a.city),
          live: a.releasedAt === 0 && a.expiresAt > ctx.now,
        })),
      };
    },
  }),

  'FixedAllocation.Remark': defineAction({
    summary: '修改固定IP备注（最多50字）',
    access: 'user',
    cacheable: false,
    input: z.object({ id: z.number().int().positive(), remark: remarkSchema }),
    async handler(ctx, input) {
      if (!(await setFixedRemark(ctx.db, ctx.user.id, input.id, input.remark))) throw new AppError('fixedIpNotFound');
      return { updated: true };
    },
  }),

  'FixedAllocation.fixedIpAreaDistribution': defineAction({
    summary: '固定IP的地区分布（按省统计）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await fixedAreaDistribution(ctx.db, ctx.user.id, ctx.now) }),
  }),
};
