// Admin.ExitTrace / Admin.CustomerHistoryExport (docs/decisions/221): who held an exit IP at a moment (hot data and
// the R2 archive), and one customer's history for a range as CSV. Role support (and admin); every lookup and export
// writes an audit row.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { shanghaiWallTime } from '../../lib/time';
import { historyRangeSchema } from '../archive/customer';
import { exportCustomerHistory, traceExit } from '../archive/trace';
import { auditActor } from '../domain/console-audit';
import { normalizeIp } from '../domain/white-list-ip';
import { SUPPORT } from '../../lib/operator-roles';
import { defineAction } from './define';

/** 北京时间 "YYYY-MM-DD HH:mm" (seconds optional) as epoch ms. */
const momentSchema = z
  .string({ error: '请填写时间' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/, '时间格式为 2026-01-31 08:30（北京时间）')
  .transform((v, c) => {
    const [d, t] = v.split(/[ T]/);
    const ms = shanghaiWallTime(`${d}T${t}`);
    if (!Number.isFinite(ms)) {
      c.addIssue({ code: 'custom', message: '时间格式为 2026-01-31 08:30（北京时间）' });
      return z.NEVER;
    }
    return ms;
  });

export const consoleArchiveActions = {
  'Admin.ExitTrace': defineAction({
    summary:
      '【运营后台·客服】出口IP溯源：某时刻持有该出口IP的客户（手机号脱敏）、套餐、租期、节点看到的来源IP与实名状态，近期读热数据、更早读归档；每次查询写入操作日志',
    access: SUPPORT,
    cacheable: false,
    input: z.object({
      ip: z.string({ error: '请填写出口IP' }).transform((v, c) => {
        const ip = normalizeIp(v);
        if (ip === null) {
          c.addIssue({ code: 'custom', message: '请填写正确的IP地址' });
          return z.NEVER;
        }
        return ip;
      }),
      at: momentSchema,
    }),
    async handler(ctx, input) {
      const holders = await traceExit(
        { files: ctx.env.FILES, db: ctx.db, nodes: ctx.env.NODE_LEASES },
        auditActor(ctx.operator, ctx.ip, ctx.now),
        input,
      );
      return { ip: input.ip, at: input.at, holders };
    },
  }),

  'Admin.CustomerHistoryExport': defineAction({
    summary: '【运营后台·客服】导出一个客户某段日期的IP明细或调用记录（CSV，最多180天，含归档）；写入操作日志',
    access: SUPPORT,
    cacheable: false,
    input: historyRangeSchema.and(
      z.object({
        phone: z
          .string({ error: '请填写客户手机号' })
          .trim()
          .regex(/^1\d{10}$/, '请输入正确的11位手机号'),
      }),
    ),
    async handler(ctx, input) {
      const out = await exportCustomerHistory(ctx.env.FILES, ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input, {
        records: ctx.env.CUSTOMER_RECORDS,
        nodes: ctx.env.NODE_LEASES,
      });
      if (!out) throw new AppError('customerNotFound');
      return {
        filename: `customer-${out.userId}-${input.kind}-${input.fromDay}-${input.toDay}.csv`,
        csv: out.csv,
        rows: out.rows,
        truncated: out.truncated,
      };
    },
  }),
};
