// /admin/orders: find orders by number, phone or user id, filter by state and order date (GET form); CSV export.
import {
  Cell,
  DataBody,
  DataHead,
  DataRow,
  DataTable,
  EmptyRow,
  rowAction,
  Th,
} from '../../../../components/data-table';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { serverApi } from '../../../../server/api-server';
import { ORDER_STATE_TEXT } from '../../_components/labels';
import { ExportCsvButton } from '../../_components/order-tools';
import { NoAccess, PageTitle } from '../../_components/parts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export default async function AdminOrdersPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const q = (p.get('q') ?? '').slice(0, 64);
  const stateNum = Number(p.get('state'));
  const state = Number.isInteger(stateNum) && stateNum >= 0 && stateNum <= 4 ? stateNum : 0;
  const from = DAY.test(p.get('from') ?? '') ? (p.get('from') as string) : '';
  const to = DAY.test(p.get('to') ?? '') ? (p.get('to') as string) : '';
  const res = await (await serverApi()).call(
    'Admin.OrderSearch',
    { q, state, ...(from ? { from } : {}), ...(to ? { to } : {}) },
    { silent: true },
  );
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="订单">
        <ExportCsvButton from={from} to={to} state={state} />
      </PageTitle>
      <form method="get" className="grid gap-2 sm:flex sm:flex-wrap" role="search">
        <input
          name="q"
          defaultValue={q}
          className="input sm:max-w-xs"
          placeholder="订单号 / 手机号 / 用户ID"
          aria-label="查找订单"
        />
        <select name="state" defaultValue={String(state)} className="input sm:w-32" aria-label="订单状态">
          <option value="0">全部状态</option>
          {Object.entries(ORDER_STATE_TEXT).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-2 text-sm text-slate-500">
          <span className="shrink-0">下单从</span>
          <input type="date" name="from" defaultValue={from} className="input sm:w-40" aria-label="开始日期" />
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-500">
          <span className="shrink-0">下单至</span>
          <input type="date" name="to" defaultValue={to} className="input sm:w-40" aria-label="结束日期" />
        </label>
        <button type="submit" className="btn-primary">
          查找
        </button>
      </form>
      <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <DataTable data-testid="order-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-4 py-2">订单号</Th>
              <Th className="px-4 py-2">客户</Th>
              <Th className="px-4 py-2">商品</Th>
              <Th className="px-4 py-2">实付</Th>
              <Th className="px-4 py-2">状态</Th>
              <Th className="px-4 py-2">下单时间</Th>
              <Th className="px-4 py-2">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.list.length === 0 && (
              <EmptyRow cols={7} className="py-8 text-slate-400">
                没有找到订单
              </EmptyRow>
            )}
            {res.list.map((o) => (
              <DataRow key={o.orderNo} className="border-t border-slate-100">
                <Cell kind="title" className="px-4 py-2 font-mono text-xs break-all">
                  {o.orderNo}
                </Cell>
                <Cell label="客户" className="px-4 py-2">
                  <a href={`/admin/customers/${o.userId}`} className="text-brand-700 hover:underline">
                    {o.phone}
                  </a>
                </Cell>
                <Cell label="商品" className="px-4 py-2">
                  {o.title}
                </Cell>
                <Cell label="实付" className="px-4 py-2">
                  {formatFen(o.payFen)}
                </Cell>
                <Cell label="状态" className="px-4 py-2">
                  {ORDER_STATE_TEXT[o.state] ?? o.state}
                </Cell>
                <Cell label="下单时间" className="px-4 py-2">
                  {formatDateTime(o.createdAt)}
                </Cell>
                <Cell kind="actions" className="px-4 py-2">
                  <a href={`/admin/orders/${o.orderNo}`} className={rowAction()}>
                    详情
                  </a>
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
