// /admin/operators: operator accounts (admin only): create one; each account's role, state, second factor and last
// login, with its changes (role, disable / enable, reset) in the row.
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { OPERATOR_ROLE_LABEL } from '../../../../lib/operator-roles';
import { load } from '../../../../server/page-data';
import { type Column, ListTable } from '../../_components/console-list';
import { CreateOperatorForm, OperatorRowActions } from './_components/operator-forms';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ACCOUNT_STATUS } from '../../../../lib/console-states';

type OperatorRow = ActionOutput<'Admin.OperatorList'>['list'][number];

/** The account columns; 已锁定 reads the lock against `now`. */
const operatorColumns = (now: number): Column<OperatorRow>[] => [
  {
    head: '账号',
    kind: 'title',
    className: 'font-medium',
    cell: (o) => (
      <>
        {o.displayName} <span className="font-normal text-slate-400">@{o.username}</span>
      </>
    ),
  },
  { head: '角色', cell: (o) => OPERATOR_ROLE_LABEL[o.role] },
  {
    head: '状态',
    cell: (o) => `${o.status === ACCOUNT_STATUS.active ? '启用' : '已停用'}${o.lockedUntil > now ? ' · 已锁定' : ''}`,
  },
  { head: '验证器', cell: (o) => (o.totpEnrolled ? '已绑定验证器' : '未绑定验证器') },
  { head: '最近登录', cell: (o) => (o.lastLoginAt ? formatDateTime(o.lastLoginAt) : '从未登录') },
  {
    head: '操作',
    kind: 'actions',
    cell: (o) => <OperatorRowActions id={o.id} role={o.role} status={o.status} />,
  },
];

export default async function AdminOperatorsPage() {
  const res = await load('Admin.OperatorList', {}, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="运营账号" />
      <Section title="新建账号">
        <CreateOperatorForm />
      </Section>
      <Section title="全部账号">
        <ListTable
          data-testid="operator-list"
          rows={res.list}
          rowKey={(o) => o.id}
          empty="还没有运营账号"
          pad="px-3"
          columns={operatorColumns(Date.now())}
        />
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
