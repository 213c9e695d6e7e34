// Admin.Operator* actions: operator accounts, managed by admins only (docs/decisions/101).
import { z } from 'zod';
import { listOperators } from '../db/operators';
import { auditActor } from '../domain/console-audit';
import { createOperator, resetOperatorCredentials, updateOperator } from '../domain/operators-manage';
import { operatorPasswordSchema, operatorRoleSchema, operatorUsernameSchema, reasonSchema } from '../../lib/schemas';
import { ADMIN_ONLY } from '../../lib/operator-roles';
import { defineAction } from './define';

export const consoleOperatorActions = {
  'Admin.OperatorList': defineAction({
    summary: '【运营后台·管理员】运营账号列表（角色、状态、是否已绑定动态验证码、最近登录）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      return {
        list: (await listOperators(ctx.db)).map((o) => ({
          id: o.id,
          username: o.username,
          displayName: o.displayName,
          role: o.role,
          status: o.status,
          totpEnrolled: o.totpSecretEnc !== null,
          lockedUntil: o.lockedUntil,
          lastLoginAt: o.lastLoginAt,
          createdAt: o.createdAt,
        })),
      };
    },
  }),

  'Admin.OperatorCreate': defineAction({
    summary: '【运营后台·管理员】新建运营账号（初始密码由管理员线下告知；首次登录绑定动态验证码）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      username: operatorUsernameSchema,
      displayName: z.string().trim().min(1, '请输入姓名').max(32, '姓名最多32个字'),
      role: operatorRoleSchema,
      password: operatorPasswordSchema,
    }),
    handler: async (ctx, input) => createOperator(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.OperatorUpdate': defineAction({
    summary: '【运营后台·管理员】修改运营账号的角色或状态（1启用 2停用）；不能停用或降级最后一个管理员',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      id: z.number().int().positive(),
      role: operatorRoleSchema,
      status: z.union([z.literal(1), z.literal(2)]),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => updateOperator(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.OperatorReset': defineAction({
    summary: '【运营后台·管理员】重置运营账号的密码并解绑动态验证码（下次登录重新绑定），同时结束其会话',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({ id: z.number().int().positive(), password: operatorPasswordSchema, reason: reasonSchema }),
    handler: async (ctx, input) => resetOperatorCredentials(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
