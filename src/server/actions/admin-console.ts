// Admin.Dashboard and Admin.AuditSearch: the console's overview (every role) and the audit log (admin).
import { z } from 'zod';
import { searchAuditLog } from '../db/operators-audit';
import { dashboard } from '../domain/operators-console';
import { defineAction } from './define';

export const adminConsoleActions = {
  'Admin.Dashboard': defineAction({
    summary:
      '【运营后台】概览：今日/7天/30天收入（分）、退款、支付订单、注册、提取次数与IP数；实名率、在用套餐、IP池与节点状态、待办事项、最近一次数据清理',
    access: { operator: ['finance', 'support', 'content', 'ops'] },
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => dashboard(ctx.db, ctx.now),
  }),

  'Admin.AuditSearch': defineAction({
    summary: '【运营后台·管理员】查询操作日志（按操作人、动作、对象、时间；按 id 倒序分页）',
    access: { operator: [] },
    cacheable: false,
    input: z.object({
      operator: z.string().trim().max(64).optional(),
      action: z.string().trim().max(64).optional(),
      target: z.string().trim().max(128).optional(),
      from: z.number().int().nonnegative().optional(),
      to: z.number().int().nonnegative().optional(),
      beforeId: z.number().int().positive().optional(),
    }),
    async handler(ctx, input) {
      const q = {
        limit: 50,
        ...(input.operator ? { operator: input.operator } : {}),
        ...(input.action ? { action: input.action } : {}),
        ...(input.target ? { target: input.target } : {}),
        ...(input.from !== undefined ? { from: input.from } : {}),
        ...(input.to !== undefined ? { to: input.to } : {}),
        ...(input.beforeId !== undefined ? { beforeId: input.beforeId } : {}),
      };
      return { list: await searchAuditLog(ctx.db, q) };
    },
  }),
};
