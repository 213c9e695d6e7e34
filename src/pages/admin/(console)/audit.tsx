// /admin/audit: the audit log (admin), newest first, filtered by operator, action, target and day (GET form).
import { formatDateTime } from '../../../lib/format';
import { OPERATOR_ROLE_LABEL, type OperatorRole } from '../../../lib/operator-roles';
import type { ActionOutput } from '../../../lib/api-core';
import { serverApi } from '../../../server/api-server';
import {
  type Column,
  ListTable,
  queryDay,
  DateFilter,
  SearchForm,
  TableCard,
  TextFilter,
} from '../_components/console-list';
import { NoAccess, PageTitle } from '../_components/parts';

const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);

type AuditRow = ActionOutput<'Admin.AuditSearch'>['list'][number];

const COLUMNS: Column<AuditRow>[] = [
  { head: '时间', kind: 'title', className: 'whitespace-nowrap', cell: (r) => formatDateTime(r.createdAt) },
  {
    head: '操作人',
    cell: (r) => (
      <>
        {r.operatorName}
        <span className="text-xs text-slate-400">（{OPERATOR_ROLE_LABEL[r.role as OperatorRole] ?? '未知账号'}）</span>
      </>
    ),
  },
  { head: '动作', className: 'font-mono text-xs', cell: (r) => r.action },
  { head: '对象', className: 'font-mono text-xs break-all', cell: (r) => r.target },
  {
    head: '变更',
    className: 'text-xs break-all text-slate-600',
    cell: (r) => (r.before || r.after ? `${r.before || '—'} → ${r.after || '—'}` : ''),
  },
  { head: '原因', cell: (r) => r.reason },
  { head: 'IP', className: 'text-xs', cell: (r) => r.clientIp },
];

export default async function AdminAuditPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const text = (k: string) => (p.get(k) ?? '').trim().slice(0, 128);
  const operator = text('operator');
  const action = text('action');
  const target = text('target');
  const day = queryDay(p, 'day');
  const beforeId = Number(p.get('before')) || 0;
  const res = await (await serverApi()).call(
    'Admin.AuditSearch',
    {
      ...(operator ? { operator } : {}),
      ...(action ? { action } : {}),
      ...(target ? { target } : {}),
      ...(day ? { from: dayStart(day), to: dayStart(day) + 86_400_000 } : {}),
      ...(beforeId > 0 ? { beforeId } : {}),
    },
    { silent: true },
  );
  if (!res) return <NoAccess />;
  const last = res.list.at(-1);
  const more = new URLSearchParams({ operator, action, target, day, before: String(last?.id ?? '') });
  return (
    <div className="space-y-4">
      <PageTitle title="操作日志" />
      <SearchForm submit="查询">
        <TextFilter name="operator" value={operator} label="操作人账号" className="input sm:w-36" />
        <TextFilter
          name="action"
          value={action}
          label="动作"
          hint="动作，如 Order.RefundByOrderNo"
          className="input sm:w-52"
        />
        <TextFilter name="target" value={target} label="对象" hint="对象，如 user:12" className="input sm:w-44" />
        <DateFilter name="day" value={day} caption="日期" />
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="audit-table"
          rows={res.list}
          rowKey={(r) => r.id}
          empty="没有记录"
          pad="px-3"
          rowClassName="border-t border-slate-100 align-top"
          rowTestId="audit-row"
          columns={COLUMNS}
        />
      </TableCard>
      {res.list.length === 50 && last && (
        <a href={`/admin/audit?${more}`} className="btn-outline">
          更早的记录
        </a>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
