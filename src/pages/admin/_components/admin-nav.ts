// The console's screens and who sees them (the same roles the screens' actions declare; admin sees all).
import { type OperatorRole, roleAllows } from '../../../lib/operator-roles';

export interface AdminNavItem {
  href: string;
  label: string;
  roles: readonly OperatorRole[];
}

export const ADMIN_NAV: readonly AdminNavItem[] = [
  { href: '/admin', label: '概览', roles: ['finance', 'support', 'content', 'ops'] },
  { href: '/admin/customers', label: '客户', roles: ['support', 'finance'] },
  { href: '/admin/orders', label: '订单', roles: ['finance', 'support'] },
  { href: '/admin/reviews', label: '企业认证', roles: ['support'] },
  { href: '/admin/verifications', label: '个人实名', roles: ['support'] },
  { href: '/admin/trace', label: 'IP溯源', roles: ['support'] },
  { href: '/admin/withdrawals', label: '提现', roles: ['finance'] },
  { href: '/admin/catalogue', label: '商品目录', roles: ['finance'] },
  { href: '/admin/campaigns', label: '营销活动', roles: ['finance'] },
  { href: '/admin/sellers', label: '销售', roles: ['finance', 'support'] },
  { href: '/admin/grants', label: '赠送审批', roles: ['support'] },
  { href: '/admin/help', label: '帮助中心', roles: ['content'] },
  { href: '/admin/content', label: '站点内容', roles: ['content'] },
  { href: '/admin/consultations', label: '企业咨询', roles: ['support'] },
  { href: '/admin/nodes', label: '节点', roles: ['ops'] },
  { href: '/admin/redirects', label: '跳转规则', roles: ['ops'] },
  { href: '/admin/egress', label: '出口规则', roles: ['ops'] },
  { href: '/admin/audit', label: '操作日志', roles: [] },
  { href: '/admin/operators', label: '运营账号', roles: [] },
];

/** The screens an operator of a role may open. */
export const navFor = (role: OperatorRole): AdminNavItem[] => ADMIN_NAV.filter((i) => roleAllows(role, i.roles));
