// Admin.Node* actions (docs/decisions/126): the delivery screen (ops). Nodes with their exits and health per region
// and carrier; create a node (the signing secret is answered once), disable / enable, rotate the secret. Redirect
// rules are the Redirect.* actions (ops as well).
import { z } from 'zod';
import { exitHealthByRegion, listNodesAdmin } from '../db/console-nodes';
import { auditActor } from '../domain/console-audit';
import { createNode, rotateNodeSecret, setNodeEnabled } from '../domain/console-nodes';
import { reasonSchema } from '../../lib/schemas';
import { OPS } from '../../lib/operator-roles';
import { defineAction } from './define';

const nodeId = z.number({ error: '请选择节点' }).int('请选择节点').positive('请选择节点');

export const consoleNodeActions = {
  'Admin.NodeList': defineAction({
    summary:
      '【运营后台·运维】节点列表（状态、协议版本、最近心跳、出口数、健康数、在租数、轮换后旧密钥的有效期）与按节点/省份/运营商/池的出口健康',
    access: OPS,
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const [nodes, exits] = await Promise.all([listNodesAdmin(ctx.db, ctx.now), exitHealthByRegion(ctx.db, ctx.now)]);
      return { nodes, exits };
    },
  }),

  'Admin.NodeCreate': defineAction({
    summary: '【运营后台·运维】新建节点：响应节点编号与签名密钥（仅此一次显示，之后只能轮换）',
    access: OPS,
    cacheable: false,
    input: z.object({
      name: z
        .string({ error: '节点名称为2-40位字母、数字、点、下划线或连字符' })
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,39}$/, '节点名称为2-40位字母、数字、点、下划线或连字符'),
    }),
    handler: async (ctx, input) =>
      createNode(ctx.db, ctx.config.nodeSecretKey, auditActor(ctx.operator, ctx.ip, ctx.now), input.name),
  }),

  'Admin.NodeSetEnabled': defineAction({
    summary:
      '【运营后台·运维】停用（其 /node 调用立即被拒绝，出口立即退出IP池）或启用节点（需原因；启用后出口随下次心跳恢复）',
    access: OPS,
    cacheable: false,
    input: z.object({ id: nodeId, enabled: z.boolean({ error: '请选择停用或启用' }), reason: reasonSchema }),
    handler: async (ctx, input) => setNodeEnabled(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.NodeRotateSecret': defineAction({
    summary:
      '【运营后台·运维】轮换节点签名密钥（需原因）：旧密钥再有效24小时（节点改用新密钥后立即失效），immediate 为 true 时（密钥泄露）旧密钥立即失效；响应新密钥（仅此一次显示）与旧密钥有效期（previousValidUntil，0为已失效）',
    access: OPS,
    cacheable: false,
    input: z.object({
      id: nodeId,
      reason: reasonSchema,
      immediate: z.boolean({ error: '请选择旧密钥是否立即失效' }).default(false),
    }),
    handler: async (ctx, input) =>
      rotateNodeSecret(ctx.db, ctx.config.nodeSecretKey, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
