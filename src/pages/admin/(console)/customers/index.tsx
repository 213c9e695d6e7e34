// /admin/customers: find customers by whole phone, last four digits, start of a phone, id or order number (GET form,
// works without JavaScript); each reading of the term is its own labelled list, saying what it matched.
import { rowAction } from '../../../../components/data-table';
import { customerMatchText } from '../../../../lib/customer-search';
import { formatDateTime } from '../../../../lib/format';
import type { ActionOutput } from '../../../../lib/api-core';
import { load } from '../../../../server/page-data';
import { type Column, ListTable, queryText, SearchForm, TableCard, TextFilter } from '../../_components/console-list';
import { CUSTOMER_STATUS_TEXT } from '../../_components/labels';
import { NoAccess, PageTitle } from '../../_components/parts';
import { ACCOUNT_STATUS } from '../../../../lib/console-states';
import { COMPANY_STATE } from '../../../../lib/company-states';

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
      <span className={u.status === ACCOUNT_STATUS.active ? 'text-emerald-600' : 'text-rose-600'}>
        {CUSTOMER_STATUS_TEXT[u.status] ?? u.status}
      </span>
    ),
  },
  {
    head: '实名',
    cell: (u) =>
      u.companyAuthState === COMPANY_STATE.approved
        ? '企业'
        : u.isIdentityAuth || [COMPANY_STATE.individual, COMPANY_STATE.revoked].some((s) => s === u.companyAuthState)
          ? '个人'
          : '未认证',
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
  const res = await load('Admin.CustomerSearch', { q }, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="客户" />
      <SearchForm className="flex flex-wrap gap-2">
        <TextFilter
          name="q"
          value={q}
          label="查找客户"
          hint="手机号 / 手机尾号4位 / 用户ID / 订单号"
          className="input max-w-xs flex-1"
        />
      </SearchForm>
      {res.matches.length === 0 ? (
        <TableCard>
          <ListTable
            data-testid="customer-table"
            rows={res.list}
            rowKey={(u) => u.id}
            empty="没有找到客户"
            columns={COLUMNS}
          />
        </TableCard>
      ) : (
        res.matches.map((m) => (
          <section key={m.kind} className="space-y-2" data-testid={`customer-match-${m.kind}`}>
            <h2 className="text-sm font-medium text-slate-700" data-testid="customer-match-text">
              {customerMatchText(m.kind, m.term, m.list.length)}
            </h2>
            {m.list.length > 0 && (
              <TableCard>
                <ListTable
                  data-testid="customer-table"
                  rows={m.list}
                  rowKey={(u) => u.id}
                  empty="没有找到客户"
                  columns={COLUMNS}
                />
              </TableCard>
            )}
          </section>
        ))
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
