// /admin/customers: find a customer by phone (prefix), id or order number (GET form, works without JavaScript).
import { rowAction } from '../../../../components/data-table';
import { formatDateTime } from '../../../../lib/format';
import type { ActionOutput } from '../../../../lib/api-core';
import { serverApi } from '../../../../server/api-server';
import { type Column, ListTable, queryText, SearchForm, TableCard, TextFilter } from '../../_components/console-list';
import { CUSTOMER_STATUS_TEXT } from '../../_components/labels';
import { NoAccess, PageTitle } from '../../_components/parts';

type CustomerRow = ActionOutput<'Admin.CustomerSearch'>['list'][number];

const COLUMNS: Column<CustomerRow>[] = [
  {
    head: '用户',
    kind: 'title',
    className: 'font-medium',
    cell: (u) => (
      <>
        {u.phone} <span className="text-xs text-slate-400">#{u.id}</span>
      </>
    ),
  },
  {
    head: '状态',
    cell: (u) => (
      <span className={u.status === 1 ? 'text-emerald-600' : 'text-rose-600'}>
        {CUSTOMER_STATUS_TEXT[u.status] ?? u.status}
      </span>
    ),
  },
  {
    head: '实名',
    cell: (u) =>
      u.companyAuthState === 1 ? '企业' : u.isIdentityAuth || [2, 3].includes(u.companyAuthState) ? '个人' : '未认证',
  },
  { head: '注册时间', cell: (u) => formatDateTime(u.createdAt) },
  {
    head: '操作',
    kind: 'actions',
    cell: (u) => (
      <a href={`/admin/customers/${u.id}`} className={rowAction()}>
        详情
      </a>
    ),
  },
];

export default async function AdminCustomersPage({ query }: { query: string }) {
  const q = queryText(new URLSearchParams(query), 'q');
  const res = await (await serverApi()).call('Admin.CustomerSearch', { q }, { silent: true });
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="客户" />
      <SearchForm className="flex flex-wrap gap-2">
        <TextFilter
          name="q"
          value={q}
          label="查找客户"
          hint="手机号 / 用户ID / 订单号"
          className="input max-w-xs flex-1"
        />
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="customer-table"
          rows={res.list}
          rowKey={(u) => u.id}
          empty="没有找到客户"
          columns={COLUMNS}
        />
      </TableCard>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
