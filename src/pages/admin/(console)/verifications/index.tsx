// /admin/verifications: personal real-name verifications (support), newest first, name and ID number masked as
// stored (the console never decrypts them); filter by state, page back 50 at a time.
import { rowAction } from '../../../../components/data-table';
import { formatDateTime } from '../../../../lib/format';
import type { ActionOutput } from '../../../../lib/api-core';
import { load } from '../../../../server/page-data';
import {
  AllOptions,
  type Column,
  ListTable,
  listHref,
  queryInt,
  SearchForm,
  TableCard,
} from '../../_components/console-list';
import { VERIFICATION_PROVIDER_TEXT, VERIFICATION_STATE_TEXT } from '../../_components/labels';
import { NoAccess, PageTitle } from '../../_components/parts';
import { VERIFICATION_STATE } from '../../../../lib/trust-states';

type VerificationRow = ActionOutput<'Admin.PersonalVerifications'>['list'][number];

const COLUMNS: Column<VerificationRow>[] = [
  { head: '姓名', kind: 'title', cell: (v) => v.nameMasked },
  { head: '证件号', className: 'font-mono text-xs', cell: (v) => v.idMasked },
  {
    head: '状态',
    cell: (v) => (
      <>
        {VERIFICATION_STATE_TEXT[v.state] ?? v.state}
        {v.subCode && v.state === VERIFICATION_STATE.failed ? (
          <span className="ml-1 text-xs text-slate-400">（{v.subCode}）</span>
        ) : null}
      </>
    ),
  },
  { head: '核验方', cell: (v) => VERIFICATION_PROVIDER_TEXT[v.provider] ?? v.provider },
  { head: '提交时间', cell: (v) => formatDateTime(v.createdAt) },
  {
    head: '客户',
    kind: 'actions',
    cell: (v) => (
      <a href={`/admin/customers/${v.userId}`} className={rowAction()}>
        用户 #{v.userId}
      </a>
    ),
  },
];

export default async function AdminVerificationsPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const state = queryInt(p, 'state', 0, 3) as 0 | 1 | 2 | 3 | null;
  const beforeId = queryInt(p, 'before', 1, Number.MAX_SAFE_INTEGER);
  const res = await load('Admin.PersonalVerifications', { state, beforeId }, false);
  if (!res) return <NoAccess />;
  const older = res.nextBeforeId ? listHref('/admin/verifications', { state, before: res.nextBeforeId }) : null;
  return (
    <div className="space-y-4">
      <PageTitle title="个人实名记录" />
      <SearchForm submit="筛选" className="flex flex-wrap gap-2">
        <select
          name="state"
          defaultValue={state === null ? '' : String(state)}
          className="input sm:w-48"
          aria-label="认证状态"
        >
          <AllOptions all="全部状态" options={VERIFICATION_STATE_TEXT} />
        </select>
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="verification-table"
          rows={res.list}
          rowKey={(v) => v.id}
          empty="没有认证记录"
          columns={COLUMNS}
        />
      </TableCard>
      {older && (
        <p className="text-right text-sm">
          <a href={older} className="text-brand-700 hover:underline">
            更早的记录
          </a>
        </p>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
