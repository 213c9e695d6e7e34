// Who sees a console screen comes from the access of the action the screen loads (docs/decisions/210): the navigation
// names that action, canCall reads the registry, and no role list is written anywhere else.
import { describe, expect, it } from 'vitest';
import type { ActionName } from '../../src/lib/api-core';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/lib/operator-roles';
import { isOperatorAccess } from '../../src/server/actions/define';
import { registry } from '../../src/server/actions/registry';
import { canCall } from '../../src/server/operator-access';
import { ADMIN_NAV, navFor } from '../../src/pages/admin/_components/console-nav';

/** The roles the registry itself lets call an action (admin always). */
const allowedBy = (action: ActionName): OperatorRole[] => {
  const access = registry[action].access;
  if (!isOperatorAccess(access)) return [];
  return OPERATOR_ROLES.filter((r) => r === 'admin' || (access.operator as readonly OperatorRole[]).includes(r));
};

/** The console's screens as text (the suites run in workerd: files come through the bundler). */
const screens = import.meta.glob('../../src/pages/admin/**/*.tsx', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const labels = (role: OperatorRole) => navFor(role, canCall).map((i) => i.label);

describe('canCall and the console navigation', () => {
  it('answers exactly what each operator action declares, for every role', () => {
    for (const [name, action] of Object.entries(registry)) {
      if (!isOperatorAccess(action.access)) continue;
      const roles = OPERATOR_ROLES.filter((r) => canCall(r, name as ActionName));
      expect(roles, name).toEqual(allowedBy(name as ActionName));
    }
  });

  it('never lets an operator call a customer action, and lets every one call a public one', () => {
    for (const role of OPERATOR_ROLES) {
      expect(canCall(role, 'User.GetMineInfo')).toBe(false);
      expect(canCall(role, 'ProxyMeal.GetMealOverview')).toBe(true);
    }
  });

  it('gives every screen the role set of the operator action it loads', () => {
    for (const item of ADMIN_NAV) {
      expect(isOperatorAccess(registry[item.action].access), item.href).toBe(true);
      const seenBy = OPERATOR_ROLES.filter((r) => navFor(r, canCall).includes(item));
      expect(seenBy, item.href).toEqual(allowedBy(item.action));
    }
  });

  it('names an action that the screen really loads', () => {
    for (const item of ADMIN_NAV) {
      const base = `../../src/pages/admin/(console)${item.href.replace(/^\/admin/, '')}`;
      const text = screens[`${base}.tsx`] ?? screens[`${base}/index.tsx`];
      expect(text, item.href).toBeTruthy();
      expect(text, item.href).toContain(`'${item.action}'`);
    }
  });

  it('shows each role its screens (finance, ops, content, support) and the admin all of them', () => {
    // Every role reads its own 操作日志 (docs/decisions/203).
    expect(labels('finance')).toEqual([
      '概览',
      '客户',
      '订单',
      '对公转账',
      '提现',
      '发票',
      '商品目录',
      '营销活动',
      '销售',
      '操作日志',
    ]);
    expect(labels('ops')).toEqual(['概览', '节点', '跳转规则', '出口规则', '操作日志']);
    expect(labels('content')).toEqual(['概览', '帮助中心', '站点内容', '操作日志']);
    expect(labels('support')).toEqual([
      '概览',
      '客户',
      '订单',
      '企业认证',
      '个人实名',
      '销售',
      '赠送审批',
      '企业咨询',
      'IP溯源',
      '操作日志',
    ]);
    expect(labels('admin')).toEqual(ADMIN_NAV.map((i) => i.label));
  });
});
