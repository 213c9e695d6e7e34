// /admin/operators: operator accounts (admin only).
import { formatDateTime } from '../../../lib/format';
import { OPERATOR_ROLE_LABEL } from '../../../lib/operator-roles';
import { serverApi } from '../../../server/api-server';
import { CreateOperatorForm, OperatorRowActions } from '../_components/operator-forms';
import { NoAccess, PageTitle, Section } from '../_components/parts';

export default async function AdminOperatorsPage() {
  const res = await (await serverApi()).call('Admin.OperatorList', {}, { silent: true });
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="运营账号" />
      <Section title="新建账号">
        <CreateOperatorForm />
      </Section>
      <Section title="全部账号">
        <ul className="divide-y divide-slate-100 text-sm" data-testid="operator-list">
          {res.list.map((o) => (
            <li key={o.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <div>
                <p className="font-medium">
                  {o.displayName} <span className="text-slate-400">@{o.username}</span>
                </p>
                <p className="text-xs text-slate-500">
                  {OPERATOR_ROLE_LABEL[o.role]} · {o.status === 1 ? '启用' : '已停用'} ·{' '}
                  {o.totpEnrolled ? '已绑定验证器' : '未绑定验证器'} ·{' '}
                  {o.lastLoginAt ? `最近登录 ${formatDateTime(o.lastLoginAt)}` : '从未登录'}
                  {o.lockedUntil > Date.now() ? ' · 已锁定' : ''}
                </p>
              </div>
              <OperatorRowActions id={o.id} role={o.role} status={o.status} />
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
