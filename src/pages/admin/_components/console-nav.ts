// The console's screens, each with the action its screen is built on: a role sees a screen when it may call that
// action (canCall, src/server/operator-access.ts, reads the action's own access; docs/decisions/210).
import type { ActionName } from '../../../lib/api-core';
import type { OperatorRole } from '../../../lib/operator-roles';

export interface ConsoleNavItem {
  href: string;
  label: string;
  /** The action the screen loads; who may call it may open the screen. */
  action: ActionName;
}

export const ADMIN_NAV: readonly ConsoleNavItem[] = [
  { href: '/admin', label: '概览', action: 'Admin.Dashboard' },
  { href: '/admin/customers', label: '客户', action: 'Admin.CustomerSearch' },
  { href: '/admin/orders', label: '订单', action: 'Admin.OrderSearch' },
  { href: '/admin/transfers', label: '对公转账', action: 'Admin.TransferSearch' },
  { href: '/admin/reviews', label: '企业认证', action: 'Auth.CompanyReviewList' },
  { href: '/admin/verifications', label: '个人实名', action: 'Admin.PersonalVerifications' },
  { href: '/admin/withdrawals', label: '提现', action: 'UserPromotion.WithdrawalQueue' },
  { href: '/admin/invoices', label: '发票', action: 'Admin.InvoiceList' },
  { href: '/admin/catalogue', label: '商品目录', action: 'Admin.CatalogueList' },
  { href: '/admin/campaigns', label: '营销活动', action: 'Admin.CampaignList' },
  { href: '/admin/sellers', label: '销售', action: 'Admin.SellerList' },
  { href: '/admin/grants', label: '赠送审批', action: 'Admin.GrantRequests' },
  { href: '/admin/help', label: '帮助中心', action: 'Admin.ArticleList' },
  { href: '/admin/content', label: '站点内容', action: 'Admin.SiteContent' },
  { href: '/admin/consultations', label: '企业咨询', action: 'Admin.ConsultList' },
  { href: '/admin/nodes', label: '节点', action: 'Admin.NodeList' },
  { href: '/admin/redirects', label: '跳转规则', action: 'Redirect.List' },
  { href: '/admin/egress', label: '出口规则', action: 'Admin.EgressRuleList' },
  { href: '/admin/trace', label: 'IP溯源', action: 'Admin.ExitTrace' },
  { href: '/admin/audit', label: '操作日志', action: 'Admin.AuditSearch' },
  { href: '/admin/operators', label: '运营账号', action: 'Admin.OperatorList' },
];

/** The screens an operator of `role` may open, given the access check (the server passes canCall). */
export const navFor = (
  role: OperatorRole,
  may: (role: OperatorRole, action: ActionName) => boolean,
): ConsoleNavItem[] => ADMIN_NAV.filter((i) => may(role, i.action));
