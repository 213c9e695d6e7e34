// /admin/orders: find orders by number, phone or user id, filter by state, order date and "payment needs a refund"
// (?flag=refund_needed, the dashboard's to-do link; such rows carry a 需退款 marker; ?flag=refund_issue, refunds that
// need a person) (GET form); CSV export.
import { rowAction } from '../../../../components/data-table';
import { formatDateTime, formatFen } from '../../../../lib/format';
import type { ActionOutput } from '../../../../lib/api-core';
import { load } from '../../../../server/page-data';
import {
  AllOptions,
  type Column,
  DateFilter,
  ListTable,
  queryDay,
  queryInt,
  queryText,
  SearchForm,
  TableCard,
  TextFilter,
} from '../../_components/console-list';
import { ORDER_STATE_LABEL } from '../../_components/labels';
import { ExportCsvButton } from './_components/order-tools';
import { NoAccess, PageTitle } from '../../_components/parts';

type OrderRow = ActionOutput<'Admin.OrderSearch'>['list'][number];

const COLUMNS: Column<OrderRow>[] = [
  { head: '订单号', kind: 'title', className: 'font-mono text-xs break-all', cell: (o) => o.orderNo },
  {
    head: '客户',
    cell: (o) => (
      <a href={`/admin/customers/${o.userId}`} className="text-brand-700 hover:underline">
        {o.phone}
      </a>
    ),
  },
  { head: '商品', cell: (o) => o.title },
  { head: '实付', cell: (o) => formatFen(o.payFen) },
  {
    head: '状态',
    cell: (o) => (
      <>
        {ORDER_STATE_LABEL[o.state] ?? o.state}
        {o.refundNeeded ? (
          <span
            className="ml-1.5 inline-block rounded bg-rose-50 px-1.5 py-0.5 text-xs font-semibold text-rose-700"
            data-testid="order-refund-needed"
          >
            需退款
          </span>
        ) : null}
      </>
    ),
  },
  { head: '下单时间', cell: (o) => formatDateTime(o.createdAt) },
  {
    head: '操作',
    kind: 'actions',
    cell: (o) => (
      <a href={`/admin/orders/${o.orderNo}`} className={rowAction()}>
        详情
      </a>
    ),
  },
];

const FLAG_EMPTY = { refund_needed: '没有需退款的支付', refund_issue: '没有待核对的退款' } as const;

export default async function AdminOrdersPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const q = queryText(p, 'q');
  const state = queryInt(p, 'state', 0, 4) ?? 0;
  const from = queryDay(p, 'from');
  const to = queryDay(p, 'to');
  const flagParam = p.get('flag');
  const flag = flagParam === 'refund_needed' || flagParam === 'refund_issue' ? flagParam : undefined;
  const res = await load(
    'Admin.OrderSearch',
    { q, state, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(flag ? { flag } : {}) },
    false,
  );
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="订单">
        <ExportCsvButton from={from} to={to} state={state} />
      </PageTitle>
      <SearchForm>
        <TextFilter name="q" value={q} label="查找订单" hint="订单号 / 手机号 / 用户ID" className="input sm:max-w-xs" />
        <select name="state" defaultValue={String(state)} className="input sm:w-32" aria-label="订单状态">
          <AllOptions all="全部状态" allValue="0" options={ORDER_STATE_LABEL} />
        </select>
        <select name="flag" defaultValue={flag ?? ''} className="input sm:w-36" aria-label="支付标记">
          <option value="">全部支付</option>
          <option value="refund_needed">需退款</option>
          <option value="refund_issue">退款待核对</option>
        </select>
        <DateFilter name="from" value={from} caption="下单从" label="开始日期" />
        <DateFilter name="to" value={to} caption="下单至" label="结束日期" />
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="order-table"
          rows={res.list}
          rowKey={(o) => o.orderNo}
          empty={flag ? FLAG_EMPTY[flag] : '没有找到订单'}
          columns={COLUMNS}
        />
      </TableCard>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
