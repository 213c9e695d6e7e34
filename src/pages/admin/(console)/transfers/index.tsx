// /admin/transfers: company transfers (对公转账, docs/decisions/227) for finance: those awaiting the money (default),
// the confirmed ones or all, found by remittance reference (GET form); 确认到账 opens the confirmation (preview, then
// confirm) for one reference.
import { rowAction } from '../../../../components/data-table';
import type { ActionOutput } from '../../../../lib/api-core';
import { Identifier } from '../../../../components/identifier';
import { spacedReference } from '../../../../lib/bank-transfer';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import {
  type Column,
  ListTable,
  listHref,
  queryText,
  SearchForm,
  TableCard,
  TextFilter,
} from '../../_components/console-list';
import { ORDER_STATE_LABEL } from '../../_components/labels';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';
import { TransferConfirmPanel } from './_components/transfer-confirm-panel';
import { ORDER_STATE } from '../../../../lib/order-states';

type TransferRow = ActionOutput<'Admin.TransferSearch'>['list'][number];
type BankRefundRow = ActionOutput<'Admin.TransferRefunds'>['list'][number];

const STATES = { awaiting: '等待到账', confirmed: '已确认', all: '全部' } as const;
type StateFilter = keyof typeof STATES;

const COLUMNS: Column<TransferRow>[] = [
  {
    head: '汇款识别码',
    kind: 'title',
    className: 'whitespace-nowrap',
    cell: (t) => <Identifier text={spacedReference(t.reference)} />,
  },
  { head: '应付', cell: (t) => formatFen(t.payFen) },
  {
    head: '客户',
    cell: (t) => (
      <a href={`/admin/customers/${t.userId}`} className="text-brand-700 hover:underline">
        {t.phone}
      </a>
    ),
  },
  {
    head: '订单',
    cell: (t) => (
      <a href={`/admin/orders/${t.orderNo}`} className="break-all text-brand-700 hover:underline">
        {t.title}
      </a>
    ),
  },
  {
    head: '状态',
    cell: (t) =>
      t.state === 'confirmed'
        ? `已确认 ${formatFen(t.receivedFen ?? 0)}`
        : t.orderState === ORDER_STATE.pending
          ? '等待到账'
          : `订单${ORDER_STATE_LABEL[t.orderState] ?? ''}`,
  },
  {
    head: '时间',
    cell: (t) =>
      t.state === 'confirmed' && t.confirmedAt
        ? `确认于 ${formatDateTime(t.confirmedAt)}`
        : `保留至 ${formatDateTime(t.expiresAt)}`,
  },
  {
    head: '操作',
    kind: 'actions',
    cell: (t) =>
      t.state === 'awaiting' && t.orderState === ORDER_STATE.pending ? (
        <a href={listHref('/admin/transfers', { ref: t.reference })} className={rowAction()}>
          确认到账
        </a>
      ) : t.bankSerial ? (
        <span className="font-mono text-xs text-slate-500">流水 {t.bankSerial}</span>
      ) : null,
  },
];

/** Refunds of transfer-paid orders finance still has to send back by bank transfer (docs/decisions/228). */
const REFUND_COLUMNS: Column<BankRefundRow>[] = [
  { head: '退款金额', kind: 'title', cell: (r) => formatFen(r.amountFen) },
  { head: '退回', cell: (r) => `${r.payerName || '原付款方'}（原到账流水 ${r.paidSerial || '—'}）` },
  {
    head: '订单',
    cell: (r) => (
      <a href={`/admin/orders/${r.orderNo}`} className="break-all font-mono text-xs text-brand-700 hover:underline">
        {r.orderNo}
      </a>
    ),
  },
  { head: '原因', cell: (r) => r.reason || '—' },
  { head: '申请时间', cell: (r) => formatDateTime(r.createdAt) },
  {
    head: '操作',
    kind: 'actions',
    cell: (r) => (
      <ReasonAction
        label="标记已退回"
        title="标记退款已退回"
        description={`请先通过银行转账把 ${formatFen(r.amountFen)} 退回付款方，再填写退款的银行流水号。`}
        action="Admin.TransferRefundDone"
        params={{ outRefundNo: r.outRefundNo }}
        field="bankSerial"
        fieldLabel="退款银行流水号"
        done="已标记退回"
        buttonClassName="px-3 py-1 text-xs"
      />
    ),
  },
];

export default async function AdminTransfersPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const ref = queryText(p, 'ref', 20);
  const stateParam = p.get('state') ?? '';
  const state: StateFilter = stateParam in STATES ? (stateParam as StateFilter) : 'awaiting';
  const [res, refunds] = await Promise.all([
    load('Admin.TransferSearch', { state: ref ? 'all' : state, reference: ref }, false),
    load('Admin.TransferRefunds', {}, false),
  ]);
  if (!res) return <NoAccess />;
  const one = ref && res.list.length === 1 ? res.list[0] : undefined;
  return (
    <div className="space-y-4">
      <PageTitle title="对公转账" />
      <SearchForm>
        <TextFilter name="ref" value={ref} label="汇款识别码" hint="汇款识别码（8位）" className="input sm:max-w-xs" />
        <select name="state" defaultValue={state} className="input sm:w-32" aria-label="转账状态">
          {Object.entries(STATES).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="transfer-table"
          rows={res.list}
          rowKey={(t) => t.reference}
          empty={ref ? '没有这个汇款识别码' : state === 'awaiting' ? '没有等待到账的转账' : '没有记录'}
          columns={COLUMNS}
        />
      </TableCard>
      <Section title="确认到账">
        <p className="mb-3 text-sm text-slate-500">
          按银行回单填写：到账金额须与订单应付金额一致，订单须仍待支付；先预览，核对无误后确认。确认与拒绝均记入操作日志。
        </p>
        <TransferConfirmPanel
          key={one?.reference ?? ref}
          reference={one && one.state === 'awaiting' ? one.reference : ref}
        />
      </Section>
      {refunds && refunds.list.length > 0 && (
        <Section title="待线下退款">
          <ListTable
            data-testid="transfer-refund-table"
            rows={refunds.list}
            rowKey={(r) => r.outRefundNo}
            empty="没有待退款"
            columns={REFUND_COLUMNS}
          />
        </Section>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
