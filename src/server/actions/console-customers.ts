// Admin.Customer* actions: find a customer, see them (identity masked), suspend / restore with a reason, unlock; the
// personal verifications, masked.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { maskPhone } from '../../lib/format';
import { searchAuditLog } from '../db/console-audit';
import { customerDetail, findCustomersBy, latestCustomers } from '../db/console-customers';
import { customerQueryKinds } from '../domain/customer-search';
import { listVerifications } from '../db/realname';
import { auditActor } from '../domain/console-audit';
import { describeAudit } from '../domain/console-audit-read';
import { setCustomerSuspended, unlockCustomer } from '../domain/console-screens';
import { reasonSchema, userIdSchema } from '../../lib/schemas';
import { READERS, SUPPORT } from '../../lib/operator-roles';
import { defineAction } from './define';

export const consoleCustomerActions = {
  'Admin.CustomerSearch': defineAction({
    summary:
      '【运营后台】查找客户：11位手机号按整号，4位数字同时按手机尾号和用户ID，其他3-10位数字按手机号开头和用户ID，其余按订单号；matches 为每种读法各自的结果（kind：phone 手机号 / phoneTail 手机尾号 / phonePrefix 手机号开头 / id 用户ID / order 订单号，各最多50条），list 为合并去重后的客户（空查询为最新注册的50位）',
    access: READERS,
    cacheable: false,
    input: z.object({ q: z.string().trim().max(64, '查询内容过长').default('') }),
    async handler(ctx, input) {
      const kinds = customerQueryKinds(input.q);
      if (kinds.length === 0) return { matches: [], list: await latestCustomers(ctx.db, 50) };
      const matches = await Promise.all(
        kinds.map(async (kind) => ({ kind, term: input.q, list: await findCustomersBy(ctx.db, kind, input.q, 50) })),
      );
      const seen = new Set<number>();
      const list = matches.flatMap((m) => m.list).filter((u) => !seen.has(u.id) && seen.add(u.id));
      return { matches, list };
    },
  }),

  'Admin.CustomerDetail': defineAction({
    summary: '【运营后台】客户详情：状态与锁定、实名（脱敏）、套餐、订单、白名单、提取统计、邀请关系、状态变更记录',
    access: READERS,
    cacheable: false,
    input: z.object({ userId: userIdSchema }),
    async handler(ctx, input) {
      const d = await customerDetail(ctx.db, input.userId, ctx.now);
      if (!d.user) throw new AppError('customerNotFound');
      const history = await describeAudit(
        ctx.db,
        await searchAuditLog(ctx.db, { target: `user:${input.userId}`, limit: 20 }),
      );
      return {
        ...d,
        user: d.user,
        promoter: d.promoter ? { id: d.promoter.id, phone: maskPhone(d.promoter.phone) } : null,
        identity: d.identity ?? null,
        history,
      };
    },
  }),

  'Admin.PersonalVerifications': defineAction({
    summary:
      '【运营后台】个人实名认证记录（姓名与证件号脱敏，最新在前，每页50条；state 0认证中 1已通过 2未通过 3证件已绑定其他账号）',
    access: SUPPORT,
    cacheable: false,
    input: z.object({
      state: z
        .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
        .nullable()
        .default(null),
      beforeId: z.number().int().positive().nullable().default(null),
    }),
    async handler(ctx, input) {
      const list = await listVerifications(ctx.db, { ...input, limit: 50 });
      return { list, nextBeforeId: list.length === 50 ? (list.at(-1)?.id ?? null) : null };
    },
  }),

  'Admin.SuspendCustomer': defineAction({
    summary: '【运营后台·客服】停用客户（需原因）：立即退出所有登录，提取接口与代理认证立即拒绝',
    access: SUPPORT,
    cacheable: false,
    input: z.object({ userId: userIdSchema, reason: reasonSchema }),
    handler: async (ctx, input) =>
      setCustomerSuspended(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), { ...input, suspended: true }),
  }),

  'Admin.RestoreCustomer': defineAction({
    summary: '【运营后台·客服】恢复已停用的客户（需原因）',
    access: SUPPORT,
    cacheable: false,
    input: z.object({ userId: userIdSchema, reason: reasonSchema }),
    handler: async (ctx, input) =>
      setCustomerSuspended(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), { ...input, suspended: false }),
  }),

  'Admin.UnlockCustomer': defineAction({
    summary: '【运营后台·客服】解除客户的密码登录锁定（需原因）；响应 unlocked（无锁定时为 false，不记日志）',
    access: SUPPORT,
    cacheable: false,
    input: z.object({ userId: userIdSchema, reason: reasonSchema }),
    handler: async (ctx, input) => unlockCustomer(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
