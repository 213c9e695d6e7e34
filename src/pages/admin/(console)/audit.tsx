// /admin/audit: the audit log (admin), newest first, filtered by operator, action, target and day (GET form).
import { Cell, DataBody, DataHead, DataRow, DataTable, EmptyRow, Th } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { OPERATOR_ROLE_LABEL, type OperatorRole } from '../../../lib/operator-roles';
import { serverApi } from '../../../server/api-server';
import { NoAccess, PageTitle } from '../_components/parts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);

export default async function AdminAuditPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const text = (k: string) => (p.get(k) ?? '').trim().slice(0, 128);
  const operator = text('operator');
  const action = text('action');
  const target = text('target');
  const day = DAY.test(p.get('day') ?? '') ? (p.get('day') as string) : '';
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
      <form method="get" className="grid gap-2 sm:flex sm:flex-wrap" role="search">
        <input
          name="operator"
          defaultValue={operator}
          className="input sm:w-36"
          placeholder="操作人账号"
          aria-label="操作人账号"
        />
        <input
          name="action"
          defaultValue={action}
          className="input sm:w-52"
          placeholder="动作，如 Order.RefundByOrderNo"
          aria-label="动作"
        />
        <input
          name="target"
          defaultValue={target}
          className="input sm:w-44"
          placeholder="对象，如 user:12"
          aria-label="对象"
        />
        <label className="flex items-center gap-2 text-sm text-slate-500">
          <span className="shrink-0">日期</span>
          <input type="date" name="day" defaultValue={day} className="input sm:w-40" aria-label="日期" />
        </label>
        <button type="submit" className="btn-primary">
          查询
        </button>
      </form>
      <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <DataTable data-testid="audit-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-3 py-2">时间</Th>
              <Th className="px-3 py-2">操作人</Th>
              <Th className="px-3 py-2">动作</Th>
              <Th className="px-3 py-2">对象</Th>
              <Th className="px-3 py-2">变更</Th>
              <Th className="px-3 py-2">原因</Th>
              <Th className="px-3 py-2">IP</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.list.length === 0 && (
              <EmptyRow cols={7} className="py-8 text-slate-400">
                没有记录
              </EmptyRow>
            )}
            {res.list.map((r) => (
              <DataRow key={r.id} className="border-t border-slate-100 align-top" data-testid="audit-row">
                <Cell kind="title" className="px-3 py-2 whitespace-nowrap">
                  {formatDateTime(r.createdAt)}
                </Cell>
                <Cell label="操作人" className="px-3 py-2">
                  {r.operatorName}
                  <span className="text-xs text-slate-400">
                    （{OPERATOR_ROLE_LABEL[r.role as OperatorRole] ?? '未知账号'}）
                  </span>
                </Cell>
                <Cell label="动作" className="px-3 py-2 font-mono text-xs">
                  {r.action}
                </Cell>
                <Cell label="对象" className="px-3 py-2 font-mono text-xs break-all">
                  {r.target}
                </Cell>
                <Cell label="变更" className="px-3 py-2 text-xs break-all text-slate-600">
                  {r.before || r.after ? `${r.before || '—'} → ${r.after || '—'}` : ''}
                </Cell>
                <Cell label="原因" className="px-3 py-2">
                  {r.reason}
                </Cell>
                <Cell label="IP" className="px-3 py-2 text-xs">
                  {r.clientIp}
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>
      {res.list.length === 50 && last && (
        <a href={`/admin/audit?${more}`} className="btn-outline">
          更早的记录
        </a>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
