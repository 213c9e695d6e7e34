// /admin/audit: the audit log in words (docs/decisions/203), newest first: what was done, to whom or what, the change
// field by field (前 → 后), by whom and when (北京时间). Filters: operator, action (by its label), object (kind and
// id or phone) and a date range (GET form). Each role reads the entries of its own actions; admin reads all.
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { DAY_MS, shanghaiDayStart } from '../../../../lib/time';
import { load } from '../../../../server/page-data';
import {
  AllOptions,
  type Column,
  DateFilter,
  ListTable,
  listHref,
  queryDay,
  queryText,
  SearchForm,
  TableCard,
  TextFilter,
} from '../../_components/console-list';
import { NoAccess, PageTitle } from '../../_components/parts';
import { Identifier } from '../../../../components/identifier';

type AuditRow = ActionOutput<'Admin.AuditSearch'>['list'][number];

type Change = AuditRow['changes'][number];
/** A change's value: an identifier as written (no word of the page), anything else as text. */
const shown = (c: Change, value: string) => (c.identifier ? <Identifier text={value} /> : value);

const COLUMNS: Column<AuditRow>[] = [
  {
    head: '操作',
    kind: 'title',
    cell: (r) => (
      <>
        <span className="font-medium text-slate-900" data-testid="audit-action">
          {r.actionLabel}
        </span>
        <span className="ml-2 text-xs whitespace-nowrap text-slate-400">{formatDateTime(r.createdAt)}</span>
      </>
    ),
  },
  {
    head: '对象',
    className: 'break-all',
    cell: (r) =>
      r.objectHref ? (
        <a href={r.objectHref} className="text-brand-600 hover:underline">
          {r.object}
        </a>
      ) : (
        <span>{r.object}</span>
      ),
  },
  {
    head: '变化',
    // On phones the field-by-field lines take the card's width, left-aligned (each line names its field).
    kind: 'full',
    className: 'text-xs text-slate-600',
    cell: (r) =>
      r.changes.length === 0 && !r.note ? (
        <span>—</span>
      ) : (
        <div className="space-y-0.5" data-testid="audit-changes">
          {r.changes.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a row's fields in their recorded order
            <div key={i} className="break-words">
              <span className="text-slate-400">{c.field}：</span>
              {c.before !== null && c.after !== null ? (
                <>
                  {shown(c, c.before)} <span className="text-slate-400">→</span> {shown(c, c.after)}
                </>
              ) : c.after !== null ? (
                shown(c, c.after)
              ) : (
                <>{shown(c, c.before ?? '')}（已删除）</>
              )}
            </div>
          ))}
          {r.note ? <div className="break-words">{r.note}</div> : null}
        </div>
      ),
  },
  {
    head: '操作人',
    cell: (r) => (
      <span>
        {r.operatorName}
        <span className="text-xs text-slate-400">（{r.roleLabel}）</span>
      </span>
    ),
  },
  { head: '原因', cell: (r) => <span>{r.reason || '—'}</span> },
  { head: '来源IP', className: 'text-xs', cell: (r) => <span>{r.clientIp}</span> },
];

export default async function AdminAuditPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const operator = queryText(p, 'operator').trim();
  const action = queryText(p, 'action').trim();
  const kind = queryText(p, 'kind', 32).trim();
  const id = queryText(p, 'id').trim();
  const from = queryDay(p, 'from');
  const to = queryDay(p, 'to');
  const beforeId = Number(p.get('before')) || 0;
  const res = await load(
    'Admin.AuditSearch',
    {
      ...(operator ? { operator } : {}),
      ...(action ? { action } : {}),
      ...(kind ? { objectKind: kind } : {}),
      ...(kind && id ? { objectId: id } : {}),
      ...(from ? { from: shanghaiDayStart(from) } : {}),
      ...(to ? { to: shanghaiDayStart(to) + DAY_MS } : {}),
      ...(beforeId > 0 ? { beforeId } : {}),
    },
    false,
  );
  if (!res) return <NoAccess />;
  const last = res.list.at(-1);
  const actionOptions = Object.fromEntries(res.actions.map((a) => [a.value, a.label]));
  const kindOptions = Object.fromEntries(res.objectKinds.map((k) => [k.value, k.label]));
  return (
    <div className="space-y-4">
      <PageTitle title="操作日志" />
      <SearchForm submit="查询">
        <TextFilter name="operator" value={operator} label="操作人账号" className="input sm:w-36" />
        <select name="action" defaultValue={action} className="input sm:w-48" aria-label="操作">
          <AllOptions all="全部操作" options={actionOptions} />
        </select>
        <select name="kind" defaultValue={kind} className="input sm:w-32" aria-label="对象类型">
          <AllOptions all="全部对象" options={kindOptions} />
        </select>
        <TextFilter name="id" value={id} label="对象编号" hint="编号、订单号或客户手机号" className="input sm:w-48" />
        <DateFilter name="from" value={from} caption="从" label="开始日期" />
        <DateFilter name="to" value={to} caption="到" label="结束日期" />
      </SearchForm>
      <p className="text-xs text-slate-500">时间为北京时间；金额单位为元。</p>
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
        <a
          href={listHref('/admin/audit', { operator, action, kind, id, from, to, before: last.id })}
          className="btn-outline"
        >
          更早的记录
        </a>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
