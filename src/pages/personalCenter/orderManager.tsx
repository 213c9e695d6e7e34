// /personalCenter/orderManager: the user's bills with filters (GET form, works without JavaScript) and pages.
import { Breadcrumb } from '../../components/breadcrumb';
import { BillFilters } from '../../components/commerce/bill-filters';
import { BillTable } from '../../components/commerce/bill-table';
import { Pager } from '../../components/pager';
import { billDateFilter, normalizeOrderNo } from '../../lib/bill-filters';
import { isProductType } from '../../lib/commerce';
import { ORDER_STATE, ORDER_STATE_LABEL } from '../../lib/order-states';
import { pageTitle } from '../../lib/site';
import { load } from '../../server/page-data';

const PAGE_SIZE = 10;
const STATES = [
  [0, '全部'],
  ...[ORDER_STATE.pending, ORDER_STATE.paid, ORDER_STATE.closed].map((s) => [s, ORDER_STATE_LABEL[s]] as const),
] as const;

const num = (v: string | null, max: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= max ? n : 0;
};

export default async function OrderManagerPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const state = num(p.get('state'), 3);
  const kind = num(p.get('kind'), 6);
  const requestedType = Number(p.get('productType'));
  const productType = isProductType(requestedType) ? requestedType : 0;
  const page = Math.max(1, num(p.get('page'), 10_000));
  const dates = billDateFilter(p.get('from'), p.get('to'));
  const orderNo = normalizeOrderNo(p.get('orderNo'));
  const [bills, unpaid] = await Promise.all([
    load(
      'Order.GetBillList',
      { state, kind, productType, orderNo, from: dates.from, to: dates.to, page, pageSize: PAGE_SIZE },
      false,
    ),
    load('Order.GetPayNoCount', {}, false),
  ]);
  const data = bills || { total: 0, list: [] };
  const payNoCount = unpaid ? unpaid.count : 0;
  const link = (o: Record<string, number>) => {
    const q = new URLSearchParams({
      state: String(state),
      kind: String(kind),
      productType: String(productType),
      from: dates.fromDay,
      to: dates.toDay,
      orderNo,
      page: '1',
    });
    for (const [k, v] of Object.entries(o)) q.set(k, String(v));
    return `/personalCenter/orderManager?${q}`;
  };
  return (
    <div className="space-y-5">
      <title>{pageTitle('订单管理')}</title>
      <Breadcrumb items={[{ label: '个人中心', href: '/personalCenter' }, { label: '财务' }, { label: '订单管理' }]} />
      <h1 className="text-xl font-semibold text-ink">订单管理</h1>
      <div className="card p-4">
        <nav className="flex flex-wrap gap-2" aria-label="订单状态">
          {STATES.map(([v, label]) => (
            <a
              key={v}
              href={link({ state: v })}
              aria-current={state === v ? 'page' : undefined}
              className={`relative rounded-full px-4 py-1.5 text-sm ${state === v ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-600 hover:bg-slate-200'}`}
            >
              {label}
              {v === 1 && payNoCount > 0 && (
                <span className="ml-1.5 rounded-full bg-rose-500 px-1.5 text-xs text-white" data-testid="pay-no-count">
                  {payNoCount}
                </span>
              )}
            </a>
          ))}
        </nav>
        <BillFilters values={{ state, kind, productType, fromDay: dates.fromDay, toDay: dates.toDay, orderNo }} />
      </div>
      <BillTable rows={data.list} />
      <Pager page={page} pageSize={PAGE_SIZE} total={data.total} href={(p) => link({ page: p })} />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
