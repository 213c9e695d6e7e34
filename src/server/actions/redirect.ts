// Redirect.* operator actions: manage the path-redirect rules the edge looks up (cache invalidated on change).
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { findRedirect, listRedirects } from '../db/redirects';
import { auditActor } from '../domain/operators-audit';
import { removeRedirectRule, STATIC_REDIRECTS, saveRedirectRule } from '../domain/redirects';
import { defineAction } from './define';

const pathSchema = z
  .string()
  .regex(/^\/[A-Za-z0-9._~\-/%]*$/, '路径必须以 / 开头，且只包含字母、数字和 ._~-/%')
  .max(512, '路径过长');
const targetSchema = z
  .string()
  .max(1024, '目标地址过长')
  .refine((t) => /^\/(?!\/)/.test(t) || /^https:\/\/[^\s]+$/.test(t), '目标必须是站内路径或 https 地址');

export const redirectActions = {
  'Redirect.List': defineAction({
    summary: '运营：列出路径跳转规则',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listRedirects(ctx.db) }),
  }),
  'Redirect.Save': defineAction({
    summary: '运营：新增或修改一条路径跳转规则（立即使边缘缓存失效）',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({
      fromPath: pathSchema,
      toPath: targetSchema,
      status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
    }),
    async handler(ctx, input) {
      if (Object.hasOwn(STATIC_REDIRECTS, input.fromPath))
        throw new AppError('invalidParams', { detail: '该路径为固定跳转，不能修改' });
      const before = await findRedirect(ctx.db, input.fromPath);
      await saveRedirectRule(
        ctx.db,
        ctx.env.KV,
        { ...input, updatedAt: ctx.now },
        {
          actor: auditActor(ctx.operator, ctx.ip, ctx.now),
          entry: {
            action: 'Redirect.Save',
            target: `redirect:${input.fromPath}`,
            before: before ? `${before.status} ${before.toPath}` : '',
            after: `${input.status} ${input.toPath}`,
          },
        },
      );
      return { saved: true };
    },
  }),
  'Redirect.Delete': defineAction({
    summary: '运营：删除一条路径跳转规则',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({ fromPath: pathSchema }),
    async handler(ctx, input) {
      const before = await findRedirect(ctx.db, input.fromPath);
      const deleted = await removeRedirectRule(ctx.db, ctx.env.KV, input.fromPath, {
        actor: auditActor(ctx.operator, ctx.ip, ctx.now),
        entry: {
          action: 'Redirect.Delete',
          target: `redirect:${input.fromPath}`,
          before: before ? `${before.status} ${before.toPath}` : '',
        },
      });
      return { deleted };
    },
  }),
};
