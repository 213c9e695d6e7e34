// The customer screen's 账户余额 (server component, docs/decisions/224): the balance and its ledger (the console list
// kit), and for finance the adjustment form (增加/扣减 in 元 with a reason; audited, never below zero). Commission (佣金)
// is a different sum, shown under 推广佣金.
import { signedFen } from '../../../../../lib/balance';
import { formatDateTime, formatFen } from '../../../../../lib/format';
import { canCall } from '../../../../../server/operator-access';
import { load } from '../../../../../server/page-data';
import { type Column, ListTable } from '../../../_components/console-list';
import { Section } from '../../../_components/parts';
import { RecordForm } from '../../../_components/record-form';

type Entry = {
  id: number;
  kindText: string;
  amountFen: number;
  balanceAfterFen: number;
  orderNo: string | null;
  note: string;
  createdAt: number;
};

const COLUMNS: Column<Entry>[] = [
  { head: '时间', kind: 'title', className: 'whitespace-nowrap', cell: (e) => formatDateTime(e.createdAt) },
  { head: '类型', cell: (e) => e.kindText },
  {
    head: '收入/支出',
    headClassName: 'text-right',
    className: 'text-right whitespace-nowrap',
    cell: (e) => (
      <span className={e.amountFen > 0 ? 'text-emerald-700' : 'text-rose-600'}>{signedFen(e.amountFen)}</span>
    ),
  },
  {
    head: '余额',
    headClassName: 'text-right',
    className: 'text-right whitespace-nowrap',
    cell: (e) => formatFen(e.balanceAfterFen),
  },
  {
    head: '订单号/原因',
    className: 'break-all text-xs text-slate-500',
    cell: (e) =>
      e.orderNo ? (
        <a href={`/admin/orders/${e.orderNo}`} className="text-brand-700 hover:underline">
          {e.orderNo}
        </a>
      ) : (
        e.note || '—'
      ),
  },
];

export async function CustomerBalance({ userId }: { userId: number }) {
  const [b, me] = await Promise.all([load('Admin.CustomerBalance', { userId }, false), load('Operator.Me', {}, false)]);
  if (!b) return null;
  const mayAdjust = !!me && canCall(me.role, 'Admin.BalanceAdjust');
  return (
    <Section title="账户余额">
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0">
          <p className="mb-2 text-sm text-slate-600" data-testid="customer-balance">
            当前余额 <strong className="text-ink">{formatFen(b.balanceFen)}</strong>（不含推广佣金）
          </p>
          <ListTable
            rows={b.list}
            rowKey={(e) => e.id}
            columns={COLUMNS}
            empty="没有余额变动"
            pad="px-3"
            rowTestId="customer-ledger-row"
          />
          {b.total > b.list.length && <p className="mt-1 text-xs text-slate-400">共 {b.total} 条，显示最新 20 条</p>}
        </div>
        {mayAdjust && (
          <div>
            <h3 className="mb-2 text-sm font-medium text-slate-700">调整余额</h3>
            <RecordForm
              action="Admin.BalanceAdjust"
              fields={[
                {
                  name: 'direction',
                  label: '方向',
                  kind: 'select',
                  // Written out: `choices` lives in the client form module, which a server component cannot call.
                  options: [
                    { value: 'credit', label: '增加' },
                    { value: 'debit', label: '扣减' },
                  ],
                  defaultValue: 'credit',
                },
                { name: 'amountFen', label: '金额（元）', kind: 'yuan', required: true },
                {
                  name: 'reason',
                  label: '调整原因（写入操作日志，客户可在余额明细看到）',
                  kind: 'text',
                  maxLength: 200,
                },
              ]}
              fixed={{ userId }}
              submitLabel="确认调整"
              done="余额已调整"
              testId="balance-adjust-form"
              narrow
            />
          </div>
        )}
      </div>
    </Section>
  );
}
