// Admin.Dashboard and Admin.AuditSearch: the console's overview and the audit log in words (every role; what each
// role reads: docs/decisions/203).
import { z } from 'zod';
import { readAuditLog } from '../domain/console-audit-read';
import { dashboard } from '../domain/console-screens';
import { defineAction } from './define';

export const consoleDashboardActions = {
  'Admin.Dashboard': defineAction({
    summary:
      '【运营后台】概览：今日/7天/30天收入（分）、退款、支付订单、注册、提取次数与IP数；实名率、在用套餐、IP池与节点状态、待办事项（pendingAtProvider：在微信支付或支付宝仍有未过期待支付单的订单数）、最近一次数据清理',
    access: { operator: ['finance', 'support', 'content', 'ops'] },
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => dashboard(ctx.db, ctx.now),
  }),

  'Admin.AuditSearch': defineAction({
    summary:
      '【运营后台】查询操作日志（管理员看全部；其他角色看本角色可做的操作与本角色账号的记录，财务另看涉及金额的操作）：按操作人、动作、对象（类型与编号/手机号）、时间筛选，按 id 倒序分页；每条以中文写出动作、对象与前后变化',
    access: { operator: ['finance', 'support', 'content', 'ops'] },
    cacheable: false,
    input: z.object({
      operator: z.string().trim().max(64).optional(),
      action: z.string().trim().max(64).optional(),
      target: z.string().trim().max(128).optional(),
      objectKind: z.string().trim().max(32).optional(),
      objectId: z.string().trim().max(64).optional(),
      from: z.number().int().nonnegative().optional(),
      to: z.number().int().nonnegative().optional(),
      beforeId: z.number().int().positive().optional(),
    }),
    handler: async (ctx, input) => readAuditLog(ctx.db, ctx.operator.role, input),
  }),
};
