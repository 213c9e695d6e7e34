// Redirect.* operator actions: manage the path-redirect rules the edge looks up (cache invalidated on change).
import { z } from 'zod';
import { findRedirect, listRedirects } from '../db/redirects';
import { auditActor } from '../domain/console-audit';
import {
  REDIRECT_HOSTS_MAX,
  redirectAllowedHosts,
  removeRedirectRule,
  saveRedirectAllowedHosts,
  saveRedirectRule,
} from '../domain/redirects';
import { reasonSchema } from '../../lib/schemas';
import { ADMIN_ONLY } from '../../lib/operator-roles';
import { defineAction } from './define';

const pathSchema = z
  .string()
  .regex(/^\/[A-Za-z0-9._~\-/%]*$/, '路径必须以 / 开头，且只包含字母、数字和 ._~-/%')
  .max(512, '路径过长');
const targetSchema = z
  .string()
  .max(1024, '目标地址过长')
  .refine((t) => t.startsWith('/') || t.startsWith('https://'), '目标必须是站内路径或 https 地址');

export const redirectActions = {
  'Redirect.List': defineAction({
    summary: '运营：列出路径跳转规则',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listRedirects(ctx.db) }),
  }),
  'Redirect.Save': defineAction({
    summary:
      '运营：新增或修改一条路径跳转规则（立即使边缘缓存失效）；来源不能是固定跳转、运营后台、登录、个人中心、接口、节点或支付路径；目标为站内路径（不能以 // 或 /\\ 开头，不含空白、控制字符、反斜杠及其编码形式）或管理员允许域名下的 https 地址',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({
      fromPath: pathSchema,
      toPath: targetSchema,
      status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
    }),
    async handler(ctx, input) {
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
  'Redirect.AllowedHosts': defineAction({
    summary: '运营：跳转规则可指向的站外域名（管理员维护的白名单；为空时只能跳转到站内路径）',
    access: { operator: ['ops'] },
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ hosts: await redirectAllowedHosts(ctx.db) }),
  }),
  'Redirect.AllowedHostsSave': defineAction({
    summary: `管理员：替换跳转规则可指向的站外域名白名单（最多${REDIRECT_HOSTS_MAX}个，需原因，记入操作日志）；移出的域名上的规则立即停止生效`,
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      hosts: z.array(z.string().max(253)).max(REDIRECT_HOSTS_MAX, `最多${REDIRECT_HOSTS_MAX}个域名`),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) =>
      saveRedirectAllowedHosts(ctx.db, ctx.env.KV, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
