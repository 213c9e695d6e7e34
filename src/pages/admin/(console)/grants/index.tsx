// /admin/grants: grants above the approval sizes wait here for a second operator (support, admin): approve (the
// package is written then) or reject, each with a reason kept in the audit log (src/server/domain/grant-approvals.ts).
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { type Column, ListTable } from '../../_components/console-list';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';
import { GRANT_REQUEST_STATE } from '../../../../lib/trust-states';

type GrantRow = ActionOutput<'Admin.GrantRequests'>['list'][number];

const STATES: Record<number, string> = { 1: '待审批', 2: '已通过', 3: '已驳回' };

const COLUMNS: Column<GrantRow>[] = [
  { head: '申请', kind: 'title', cell: (r) => `#${r.id}` },
  { head: '客户', cell: (r) => `用户 ${r.userId}` },
  { head: '内容', className: 'text-xs', cell: (r) => r.summary },
  { head: '申请人', cell: (r) => r.requestedName },
  { head: '申请时间', cell: (r) => formatDateTime(r.createdAt) },
  {
    head: '状态',
    cell: (r) =>
      r.state === GRANT_REQUEST_STATE.pending
        ? STATES[GRANT_REQUEST_STATE.pending]
        : `${STATES[r.state]}（${r.decidedName}）`,
  },
  {
    head: '操作',
    kind: 'actions',
    cell: (r) =>
      r.state === GRANT_REQUEST_STATE.pending ? (
        <span className="flex gap-2">
          <ReasonAction
            label="通过"
            title={`通过赠送申请 #${r.id}`}
            description={`${r.summary}。通过后立即写入客户的套餐；申请人本人不能审批。`}
            action="Admin.GrantApprove"
            params={{ requestId: r.id }}
            done="已通过，套餐已赠送"
            buttonClassName="btn-outline px-2 py-1 text-xs"
          />
          <ReasonAction
            label="驳回"
            title={`驳回赠送申请 #${r.id}`}
            description={r.summary}
            action="Admin.GrantReject"
            params={{ requestId: r.id }}
            done="已驳回"
            tone="danger"
            buttonClassName="btn-ghost px-2 py-1 text-xs text-rose-700"
          />
        </span>
      ) : null,
  },
];

export default async function AdminGrantsPage() {
  const res = await load('Admin.GrantRequests', {}, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="赠送审批" />
      <Section title="申请列表">
        <p className="mb-2 text-xs text-slate-500">
          超过以下数量的赠送需另一位运营审批：按量 {res.limits.count} 个IP，包天每日 {res.limits.daily} 个IP，独享IP{' '}
          {res.limits.dedicated} 个（管理员可调整）。
        </p>
        <ListTable
          data-testid="grant-requests"
          rows={res.list}
          rowKey={(r) => String(r.id)}
          empty="没有赠送申请"
          pad="px-3"
          columns={COLUMNS}
        />
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
