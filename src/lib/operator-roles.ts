// Operator roles (docs/decisions/101): what each may do is declared by the actions themselves; admin may do everything.
// Isomorphic: the console's navigation and the server's access check read the same list.

export const OPERATOR_ROLES = ['admin', 'finance', 'support', 'content', 'ops'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const OPERATOR_ROLE_LABEL: Record<OperatorRole, string> = {
  admin: '管理员',
  finance: '财务',
  support: '客服',
  content: '内容',
  ops: '运维',
};

/** True when an operator of `role` may use something open to `allowed` (admin passes every role check). */
export const roleAllows = (role: OperatorRole, allowed: readonly OperatorRole[]): boolean =>
  role === 'admin' || allowed.includes(role);

/** Who may call a console action, one name per policy (admin passes every check; `[]` = admin only). */
export const ADMIN_ONLY = { operator: [] } as const;
export const FINANCE = { operator: ['finance'] } as const;
export const SUPPORT = { operator: ['support'] } as const;
export const CONTENT = { operator: ['content'] } as const;
export const OPS = { operator: ['ops'] } as const;
/** Customer and order look-ups: support and finance both read them. */
export const READERS = { operator: ['support', 'finance'] } as const;
