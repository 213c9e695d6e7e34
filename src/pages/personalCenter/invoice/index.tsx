// /personalCenter/invoice: 发票管理 — what may still be invoiced (paid − refunded − requested; top-ups are invoiced as
// they are spent), a new request, the requests with their states (待开具 / 已开具 with the PDF or number / 已驳回 with
// the reason), and the saved titles (docs/decisions/229-230).
import { PageHead } from '../../../components/page-head';
import { formatDateTime, formatFen } from '../../../lib/format';
import { INVOICE_STATE_LABEL, INVOICE_TYPE_LABEL, TITLE_KIND_LABEL } from '../../../lib/invoice-rules';
import { load } from '../../../server/page-data';
import { ApplyForm, DeleteTitleButton, TitleForm } from './_components/invoice-forms';

const STATE_TONE = {
  pending: 'bg-amber-50 text-amber-700',
  issued: 'bg-emerald-50 text-emerald-700',
  refused: 'bg-rose-50 text-rose-700',
} as const;

export default async function InvoicePage() {
  const o = await load('Invoice.Overview', {}, null);
  if (!o) return null;
  const { summary } = o;
  return (
    <div className="space-y-5" data-testid="invoice-page">
      <PageHead trail={[{ label: '财务' }, { label: '发票管理' }]} title="发票管理" />
      <section className="card grid gap-4 p-5 sm:grid-cols-3" aria-label="可开票金额">
        <div>
          <p className="text-sm text-slate-500">可开票金额</p>
          <p className="text-2xl font-semibold text-ink" data-testid="invoiceable">
            {formatFen(summary.invoiceableFen)}
          </p>
        </div>
        <div>
          <p className="text-sm text-slate-500">实付金额（已扣除退款）</p>
          <p className="text-lg text-ink">{formatFen(summary.netPaidFen)}</p>
        </div>
        <div>
          <p className="text-sm text-slate-500">已申请（待开具与已开具）</p>
          <p className="text-lg text-ink">{formatFen(summary.heldFen)}</p>
        </div>
        <p className="text-xs text-slate-500 sm:col-span-3">
          发票按实际消费开具：套餐订单支付后即可申请；账户充值不单独开票，用余额购买套餐后按订单开具。已退款的金额不能开票。
        </p>
      </section>

      <section className="card space-y-4 p-5">
        <h2 className="text-base font-semibold text-ink">申请发票</h2>
        <ApplyForm
          titles={o.titles}
          orders={o.orders}
          invoiceableFen={summary.invoiceableFen}
          canSpecial={o.certifiedCompanyName !== null}
        />
      </section>

      <section className="card p-5">
        <h2 className="text-base font-semibold text-ink">申请记录</h2>
        {o.requests.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">暂无发票申请</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" data-testid="invoice-requests">
            {o.requests.map((r) => (
              <li key={r.id} className="space-y-1 py-3 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-ink">
                    {INVOICE_TYPE_LABEL[r.type]} · {formatFen(r.amountFen)}
                  </span>
                  <span className={`rounded px-2 py-0.5 text-xs ${STATE_TONE[r.state]}`} data-testid="invoice-state">
                    {INVOICE_STATE_LABEL[r.state]}
                  </span>
                </div>
                <p className="break-all text-slate-500">
                  {TITLE_KIND_LABEL[r.title.kind]}抬头 {r.title.name}
                  {r.title.taxNo ? ` · 税号 ${r.title.taxNo}` : ''} · 申请于 {formatDateTime(r.createdAt)}
                  {r.orderNos.length > 0 ? ` · ${r.orderNos.length}笔订单` : ' · 按金额'}
                </p>
                {r.state === 'issued' && (
                  <p className="flex flex-wrap items-center gap-3">
                    {r.invoiceNo && <span className="text-slate-600">发票号码 {r.invoiceNo}</span>}
                    {r.pdfUrl && (
                      <a href={r.pdfUrl} className="text-brand-700 hover:underline" data-testid="invoice-download">
                        下载发票
                      </a>
                    )}
                  </p>
                )}
                {r.state === 'refused' && <p className="text-rose-700">驳回原因：{r.refuseReason}</p>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card space-y-4 p-5">
        <h2 className="text-base font-semibold text-ink">发票抬头</h2>
        {o.titles.length > 0 && (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" data-testid="invoice-titles">
            {o.titles.map((t) => (
              <li key={t.id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
                <span className="min-w-0 break-all">
                  <span className="text-ink">
                    {TITLE_KIND_LABEL[t.kind]} · {t.name}
                  </span>
                  {t.taxNo && <span className="block text-xs text-slate-500">税号 {t.taxNo}</span>}
                  {t.bank && (
                    <span className="block text-xs text-slate-500">
                      {t.address} {t.phone} · {t.bank} {t.account}
                    </span>
                  )}
                </span>
                <DeleteTitleButton id={t.id} />
              </li>
            ))}
          </ul>
        )}
        <TitleForm />
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
