// /admin/invoices/{id}: one invoice request — the title as the customer asked, the amount, the orders, the state —
// with 上传发票PDF并开具, 填写电子发票号码 and 驳回 (with a reason the customer reads) while it is pending, the PDF once
// issued, and the 红冲 note when its orders were refunded afterwards (docs/decisions/229-230).
import { formatDateTime, formatFen } from '../../../../lib/format';
import { INVOICE_STATE_LABEL, INVOICE_TYPE_LABEL, redFlushNote, TITLE_KIND_LABEL } from '../../../../lib/invoice-rules';
import { load } from '../../../../server/page-data';
import { InvoicePdfUpload } from './_components/invoice-tools';
import { PageTitle, Section } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';

export default async function AdminInvoicePage({ id }: { id: string }) {
  const n = Number(id);
  const d = Number.isSafeInteger(n) && n > 0 ? await load('Admin.InvoiceDetail', { id: n }, false) : false;
  if (!d) return <p className="card p-6 text-sm text-slate-500">发票申请不存在或当前角色无权查看。</p>;
  const r = d.request;
  const note = r.state === 'issued' ? redFlushNote(d) : null;
  const t = r.title;
  return (
    <div className="space-y-4">
      <PageTitle title={`发票申请 #${r.id}`}>
        {r.state === 'pending' && (
          <div className="flex flex-wrap gap-2">
            <InvoicePdfUpload uploadUrl={d.uploadUrl} />
            <ReasonAction
              label="填写电子发票号码"
              title="以电子发票号码开具"
              description="填写已开具的电子发票号码（8-20位数字），客户在发票管理中可看到该号码。"
              action="Admin.InvoiceIssue"
              params={{ id: r.id }}
              field={null}
              extraField={{ name: 'invoiceNo', label: '电子发票号码', placeholder: '8-20位数字' }}
              done="已开具"
              buttonClassName="btn-outline"
            />
            <ReasonAction
              label="驳回"
              title="驳回发票申请"
              description="驳回后金额退回客户的可开票金额，原因会展示给客户。"
              action="Admin.InvoiceRefuse"
              params={{ id: r.id }}
              fieldLabel="驳回原因（客户可见）"
              done="已驳回"
              tone="danger"
            />
          </div>
        )}
      </PageTitle>
      {note && (
        <p className="card border-rose-200 bg-rose-50 p-4 text-sm text-rose-700" data-testid="invoice-red-flush">
          {note}：请开具红字发票冲销，并与客户确认。
        </p>
      )}
      <Section title="申请">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-testid="invoice-summary">
          <dt className="text-slate-500">状态</dt>
          <dd data-testid="invoice-state">{INVOICE_STATE_LABEL[r.state]}</dd>
          <dt className="text-slate-500">客户</dt>
          <dd>
            <a href={`/admin/customers/${r.userId}`} className="text-brand-700 hover:underline">
              {d.phone}（#{r.userId}）
            </a>
          </dd>
          <dt className="text-slate-500">类型</dt>
          <dd>{INVOICE_TYPE_LABEL[r.type]}</dd>
          <dt className="text-slate-500">金额</dt>
          <dd className="font-semibold">{formatFen(r.amountFen)}</dd>
          <dt className="text-slate-500">接收邮箱</dt>
          <dd className="break-all">{r.email}</dd>
          <dt className="text-slate-500">申请时间</dt>
          <dd>{formatDateTime(r.createdAt)}</dd>
          {r.reviewedAt !== null && (
            <>
              <dt className="text-slate-500">处理时间</dt>
              <dd>{formatDateTime(r.reviewedAt)}</dd>
            </>
          )}
          {r.invoiceNo && (
            <>
              <dt className="text-slate-500">发票号码</dt>
              <dd className="font-mono">{r.invoiceNo}</dd>
            </>
          )}
          {d.pdfUrl && (
            <>
              <dt className="text-slate-500">发票文件</dt>
              <dd>
                <a href={d.pdfUrl} className="text-brand-700 hover:underline">
                  下载PDF
                </a>
              </dd>
            </>
          )}
          {r.state === 'refused' && (
            <>
              <dt className="text-slate-500">驳回原因</dt>
              <dd>{r.refuseReason}</dd>
            </>
          )}
        </dl>
      </Section>
      <Section title="发票抬头">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm break-all">
          <dt className="text-slate-500">抬头类型</dt>
          <dd>{TITLE_KIND_LABEL[t.kind]}</dd>
          <dt className="text-slate-500">名称</dt>
          <dd>{t.name}</dd>
          {t.kind === 'company' && (
            <>
              <dt className="text-slate-500">税号</dt>
              <dd className="font-mono">{t.taxNo}</dd>
              <dt className="text-slate-500">注册地址</dt>
              <dd>{t.address || '—'}</dd>
              <dt className="text-slate-500">注册电话</dt>
              <dd>{t.phone || '—'}</dd>
              <dt className="text-slate-500">开户银行</dt>
              <dd>{t.bank || '—'}</dd>
              <dt className="text-slate-500">银行账号</dt>
              <dd className="font-mono">{t.account || '—'}</dd>
            </>
          )}
        </dl>
      </Section>
      <Section title="开票订单">
        {r.orderNos.length === 0 ? (
          <p className="text-sm text-slate-500">按金额申请，未指定订单。</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {r.orderNos.map((no) => (
              <li key={no}>
                <a href={`/admin/orders/${no}`} className="font-mono text-xs break-all text-brand-700 hover:underline">
                  {no}
                </a>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
