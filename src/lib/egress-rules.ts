// The kinds of operator egress rule (docs/decisions/194) and their names in the console: one list for the action's
// input, the console screen and the database.
export const EGRESS_RULE_KINDS = ['domain', 'cidr', 'port', 'smtp_product'] as const;
export type EgressRuleKind = (typeof EGRESS_RULE_KINDS)[number];

export const EGRESS_RULE_LABEL: Record<EgressRuleKind, string> = {
  domain: '屏蔽域名（含子域名）',
  cidr: '屏蔽网段',
  port: '屏蔽端口',
  smtp_product: '允许邮件端口的产品',
};
