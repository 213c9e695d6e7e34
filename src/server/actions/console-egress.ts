// Admin.EgressRule* actions (docs/decisions/194): the operator's egress rules every node enforces from its next
// contract pull (blocked domain suffixes, CIDRs, ports; product types allowed the SMTP ports). Role ops (and admin);
// every change is audited in the same batch.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { listEgressRules } from '../db/egress-rules';
import { EGRESS_RULE_KINDS } from '../../lib/egress-rules';
import { addEgressRule, normalizeEgressValue, removeEgressRule } from '../domain/egress-rules';
import { auditActor } from '../domain/console-audit';
import { OPS } from '../../lib/operator-roles';
import { defineAction } from './define';

const VALUE_HINT: Record<(typeof EGRESS_RULE_KINDS)[number], string> = {
  domain: '域名格式不正确（如 example.com，屏蔽其全部子域名）',
  cidr: '网段格式不正确（如 203.0.113.0/24 或 2001:db8::/32；IPv4 前缀至少 /8，IPv6 至少 /16）',
  port: '端口须为 1-65535 的整数',
  smtp_product: '产品类型须为 10、40、30 或 50',
};

export const consoleEgressActions = {
  'Admin.EgressRuleList': defineAction({
    summary:
      '【运营后台·运维】出口规则列表：屏蔽的域名（含子域名）、网段、端口，及允许邮件端口（25/465/587）的产品类型',
    access: OPS,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listEgressRules(ctx.db) }),
  }),

  'Admin.EgressRuleAdd': defineAction({
    summary: '【运营后台·运维】新增一条出口规则（各节点下次拉取合约时生效；与审计记录同批写入）',
    access: OPS,
    cacheable: false,
    input: z
      .object({
        kind: z.enum(EGRESS_RULE_KINDS, { error: '请选择规则类型' }),
        value: z.string({ error: '请填写规则内容' }).trim().min(1, '请填写规则内容').max(260, '规则内容过长'),
        note: z.string().trim().max(100, '备注最多100个字').default(''),
      })
      .transform((v, c) => {
        const value = normalizeEgressValue(v.kind, v.value);
        if (value === null) {
          c.addIssue({ code: 'custom', message: VALUE_HINT[v.kind], path: ['value'] });
          return z.NEVER;
        }
        return { ...v, value };
      }),
    async handler(ctx, input) {
      const added = await addEgressRule(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input);
      if (!added) throw new AppError('egressRuleExists');
      return { added: true, value: input.value };
    },
  }),

  'Admin.EgressRuleDelete': defineAction({
    summary: '【运营后台·运维】删除一条出口规则（各节点下次拉取合约时生效）',
    access: OPS,
    cacheable: false,
    input: z.object({ id: z.number({ error: '请选择规则' }).int('请选择规则').positive('请选择规则') }),
    async handler(ctx, input) {
      const deleted = await removeEgressRule(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input.id);
      if (!deleted) throw new AppError('egressRuleNotFound');
      return { deleted: true };
    },
  }),
};
