// /admin/invoices: invoice requests by state (finance; GET form), newest first, with the 红冲 flag of an issued
// invoice whose orders were refunded afterwards (or whose customer's requests now exceed what they paid net);
// ?flagged=1 lists only those (docs/decisions/229-230).
import { rowAction } from '../../../../components/data-table';
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { INVOICE_STATE_LABEL, INVOICE_TYPE_LABEL, redFlushNote, TITLE_KIND_LABEL } from '../../../../lib/invoice-rules';
import { load } from '../../../../server/page-data';
import { AllOptions, type Column, ListTable, SearchForm, TableCard } from '../../_components/console-list';
import { NoAccess, PageTitle } from '../../_components/parts';

type InvoiceRow = ActionOutput<'Admin.InvoiceList'>['list'][number];

const COLUMNS: Column<InvoiceRow>[] = [
  { head: '申请号', kind: 'title', cell: (r) => `#${r.id}` },
  {
    head: '客户',
    cell: (r) => (
      <a href={`/admin/customers/${r.userId}`} className="text-brand-700 hover:underline">
        {r.phone}
      </a>
    ),
  },
  { head: '抬头', cell: (r) => `${TITLE_KIND_LABEL[r.title.kind]} · ${r.title.name}` },
  { head: '类型', cell: (r) => INVOICE_TYPE_LABEL[r.type] },
  { head: '金额', cell: (r) => formatFen(r.amountFen) },
  {
    head: '状态',
    cell: (r) => {
      const note = r.state === 'issued' ? redFlushNote(r) : null;
      return (
        <>
          {INVOICE_STATE_LABEL[r.state]}
          {note && (
            <span
              className="ml-1.5 inline-block rounded bg-rose-50 px-1.5 py-0.5 text-xs font-semibold text-rose-700"
              data-testid="invoice-red-flush"
            >
              {note}
            </span>
          )}
        </>
      );
    },
  },
  { head: '申请时间', cell: (r) => formatDateTime(r.createdAt) },
  {
    head: '操作',
    kind: 'actions',
    cell: (r) => (
      <a href={`/admin/invoices/${r.id}`} className={rowAction()}>
        {r.state === 'pending' ? '处理' : '详情'}
      </a>
    ),
  },
];

const STATES = {
  pending: INVOICE_STATE_LABEL.pending,
  issued: INVOICE_STATE_LABEL.issued,
  refused: INVOICE_STATE_LABEL.refused,
};

export default async function AdminInvoicesPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const raw = p.get('state');
  const state = raw === 'issued' || raw === 'refused' || raw === 'all' ? raw : raw === '' ? 'all' : 'pending';
  const flagged = p.get('flagged') === '1';
  const res = await load('Admin.InvoiceList', { state, flagged }, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="发票" />
      <SearchForm>
        <select
          name="state"
          defaultValue={state === 'all' ? '' : state}
          className="input sm:w-36"
          aria-label="申请状态"
        >
          <AllOptions all="全部状态" options={STATES} />
        </select>
        <select name="flagged" defaultValue={flagged ? '1' : ''} className="input sm:w-40" aria-label="红冲标记">
          <option value="">全部申请</option>
          <option value="1">需红冲</option>
        </select>
      </SearchForm>
      <TableCard>
        <ListTable
          data-testid="invoice-table"
          rows={res.list}
          rowKey={(r) => String(r.id)}
          empty={flagged ? '没有需要红冲的发票' : '没有发票申请'}
          columns={COLUMNS}
        />
      </TableCard>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
