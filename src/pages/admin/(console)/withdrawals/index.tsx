// /admin/withdrawals: commission withdrawals by state (finance): approve (1→2), mark paid (2→3) or reject (1/2→4, the
// commission returns to available), each with a note kept in the withdrawal's own trail and in the audit log.
import { WITHDRAWAL_STATE, WITHDRAWAL_STATE_TEXT } from '../../../../lib/commission-rules';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { NoAccess, PageTitle } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';

const STATES = [1, 2, 3, 4].map((s) => [s, WITHDRAWAL_STATE_TEXT[s] ?? ''] as const);

/** The review steps: approve (then pay), mark paid, or reject (the commission goes back to the customer). */
const REVIEW = {
  approve: {
    label: '批准',
    title: '批准提现',
    description: '批准后等待打款。',
    fieldLabel: '备注（可留空）',
    done: '已批准',
  },
  paid: {
    label: '已打款',
    title: '确认已打款',
    description: '请先在支付宝完成转账，再确认。',
    fieldLabel: '转账凭证或备注',
    done: '已标记打款',
  },
  reject: {
    label: '驳回',
    title: '驳回提现',
    description: '驳回后佣金退回用户的可提现余额。',
    fieldLabel: '驳回原因',
    done: '已驳回',
    tone: 'danger',
  },
} as const;

function Review({ id, decision }: { id: number; decision: keyof typeof REVIEW }) {
  return (
    <ReasonAction
      {...REVIEW[decision]}
      action="UserPromotion.ReviewWithdrawal"
      params={{ id, decision }}
      field="note"
    />
  );
}

export default async function AdminWithdrawalsPage({ query }: { query: string }) {
  const n = Number(new URLSearchParams(query).get('state'));
  const state = [1, 2, 3, 4].includes(n) ? n : 1;
  const res = await load('UserPromotion.WithdrawalQueue', { state }, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="提现" />
      <nav className="flex flex-wrap gap-2" aria-label="提现状态">
        {STATES.map(([v, label]) => (
          <a
            key={v}
            href={`/admin/withdrawals?state=${v}`}
            aria-current={state === v ? 'page' : undefined}
            className="rounded-full border border-slate-200 bg-white px-3 py-1 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
          >
            {label}
          </a>
        ))}
      </nav>
      {res.list.length === 0 && <p className="card p-6 text-sm text-slate-500">没有记录。</p>}
      <ul className="space-y-3" data-testid="withdrawal-list">
        {res.list.map((w) => (
          <li key={w.id} className="card space-y-2 p-4 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-semibold text-slate-900">{formatFen(w.amountFen)}</p>
              <span className="text-xs text-slate-400">申请于 {formatDateTime(w.createdAt)}</span>
            </div>
            <p className="break-all text-slate-600">
              收款人 {w.accountName} · 支付宝 {w.accountNo} ·{' '}
              <a href={`/admin/customers/${w.userId}`} className="text-brand-700 hover:underline">
                用户 #{w.userId}
              </a>
            </p>
            {w.events.length > 0 && (
              <p className="text-xs text-slate-400">
                {w.events
                  .map(
                    (e) =>
                      `${formatDateTime(e.createdAt)} ${WITHDRAWAL_STATE_TEXT[e.fromState] ?? e.fromState}→${WITHDRAWAL_STATE_TEXT[e.toState] ?? e.toState} ${e.note}`,
                  )
                  .join('；')}
              </p>
            )}
            {(w.state === WITHDRAWAL_STATE.requested || w.state === WITHDRAWAL_STATE.approved) && (
              <div className="flex flex-wrap gap-2">
                <Review id={w.id} decision={w.state === WITHDRAWAL_STATE.requested ? 'approve' : 'paid'} />
                <Review id={w.id} decision="reject" />
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
