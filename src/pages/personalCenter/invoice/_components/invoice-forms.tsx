'use client';
// The customer's invoice forms: save a title (个人 / 企业 with 税号, the 专票 fields), delete one, and request an
// invoice for picked orders or an amount typed in 元 (sent as fen). The server checks everything again.
import { type FormEvent, useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDate, formatFen, yuanToFen } from '../../../../lib/format';
import { INVOICE_TYPE_LABEL, type InvoiceType, TITLE_KIND_LABEL, type TitleKind } from '../../../../lib/invoice-rules';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';

type Overview = ActionOutput<'Invoice.Overview'>;

const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim();

function Field({
  label,
  name,
  hint,
  required = false,
}: {
  label: string;
  name: string;
  hint?: string;
  required?: boolean;
}) {
  return (
    <label className="block text-sm">
      <span className="text-slate-600">
        {label}
        {required && <span className="text-rose-600"> *</span>}
      </span>
      <input name={name} className="input mt-1" placeholder={hint} aria-label={label} />
    </label>
  );
}

/** A new title: 个人 (a name) or 企业 (name, 税号, and the 专票 fields). */
export function TitleForm() {
  const router = useRouter();
  const [kind, setKind] = useState<TitleKind>('company');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const input =
      kind === 'personal'
        ? { kind, name: text(data, 'name') }
        : {
            kind,
            name: text(data, 'name'),
            taxNo: text(data, 'taxNo'),
            address: text(data, 'address'),
            phone: text(data, 'phone'),
            bank: text(data, 'bank'),
            account: text(data, 'account'),
          };
    setBusy(true);
    const form = e.currentTarget;
    const r = await api.call('Invoice.TitleSave', input);
    setBusy(false);
    if (r !== false) {
      pushToast('success', '发票抬头已保存');
      form.reset();
      // A soft refresh: the request form above keeps the orders already picked.
      await router.reload();
    }
  }
  return (
    <form onSubmit={submit} className="space-y-3" data-testid="invoice-title-form">
      <div className="flex gap-4 text-sm" role="radiogroup" aria-label="抬头类型">
        {(['company', 'personal'] as const).map((k) => (
          <label key={k} className="flex items-center gap-1.5">
            <input type="radio" name="kind" checked={kind === k} onChange={() => setKind(k)} />
            {TITLE_KIND_LABEL[k]}
          </label>
        ))}
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <Field label={kind === 'company' ? '企业名称' : '个人姓名'} name="name" required />
        {kind === 'company' && (
          <>
            <Field label="税号（统一社会信用代码）" name="taxNo" hint="18位" required />
            <Field label="注册地址" name="address" hint="开专票必填" />
            <Field label="注册电话" name="phone" hint="开专票必填" />
            <Field label="开户银行" name="bank" hint="开专票必填" />
            <Field label="银行账号" name="account" hint="开专票必填" />
          </>
        )}
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        保存抬头
      </button>
    </form>
  );
}

export function DeleteTitleButton({ id }: { id: number }) {
  const router = useRouter();
  return (
    <button
      type="button"
      className="shrink-0 whitespace-nowrap text-sm text-rose-600 hover:underline"
      onClick={async () => {
        if ((await api.call('Invoice.TitleDelete', { id })) !== false) await router.reload();
      }}
    >
      删除
    </button>
  );
}

/** Request an invoice: a title, a type, the e-mail, and picked orders or an amount. */
export function ApplyForm({
  titles,
  orders,
  invoiceableFen,
  canSpecial,
}: {
  titles: Overview['titles'];
  orders: Overview['orders'];
  invoiceableFen: number;
  canSpecial: boolean;
}) {
  const router = useRouter();
  const [chosen, setMode] = useState<'orders' | 'amount'>('orders');
  // 按订单 needs an order left to pick (after a soft refresh the last one may have been requested).
  const mode = orders.length > 0 ? chosen : 'amount';
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const pickedFen = orders.filter((o) => picked.includes(o.orderNo)).reduce((s, o) => s + o.payFen, 0);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const titleId = Number(data.get('titleId'));
    const type = String(data.get('type')) as InvoiceType;
    const email = text(data, 'email');
    let choice: { orderNos: string[] } | { amountFen: number };
    if (mode === 'orders') {
      if (picked.length === 0) return pushToast('error', '请选择要开票的订单');
      choice = { orderNos: picked };
    } else {
      const fen = yuanToFen(text(data, 'amount'));
      if (fen === null || fen <= 0) return pushToast('error', '请输入开票金额（元，最多两位小数）');
      if (fen > invoiceableFen) return pushToast('error', `开票金额不能超过可开票金额${formatFen(invoiceableFen)}`);
      choice = { amountFen: fen };
    }
    const form = e.currentTarget;
    setBusy(true);
    const r = await api.call('Invoice.Apply', { titleId, type, email, ...choice });
    setBusy(false);
    if (r !== false) {
      pushToast('success', '发票申请已提交，财务审核后开具');
      setPicked([]);
      form.reset();
      await router.reload();
    }
  }
  if (titles.length === 0) return <p className="text-sm text-slate-500">请先在下方添加发票抬头。</p>;
  if (invoiceableFen <= 0) return <p className="text-sm text-slate-500">当前没有可开票金额。</p>;
  return (
    <form onSubmit={submit} className="space-y-4" data-testid="invoice-apply-form">
      <div className="grid gap-3 md:grid-cols-3">
        <label className="block text-sm">
          <span className="text-slate-600">发票抬头</span>
          <select name="titleId" className="input mt-1" aria-label="发票抬头">
            {titles.map((t) => (
              <option key={t.id} value={t.id}>
                {TITLE_KIND_LABEL[t.kind]} · {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="text-slate-600">发票类型</span>
          <select name="type" className="input mt-1" aria-label="发票类型">
            <option value="normal">{INVOICE_TYPE_LABEL.normal}</option>
            {canSpecial && <option value="special">{INVOICE_TYPE_LABEL.special}</option>}
          </select>
        </label>
        <label className="block text-sm">
          <span className="text-slate-600">接收邮箱</span>
          <input
            name="email"
            type="email"
            className="input mt-1"
            placeholder="电子发票发送至此邮箱"
            aria-label="接收邮箱"
          />
        </label>
      </div>
      {!canSpecial && (
        <p className="text-xs text-slate-500">
          增值税专用发票仅向已通过企业认证的企业开具，抬头须与认证的企业名称一致。
        </p>
      )}
      <div className="flex gap-4 text-sm" role="radiogroup" aria-label="开票方式">
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            checked={mode === 'orders'}
            onChange={() => setMode('orders')}
            disabled={orders.length === 0}
          />
          按订单开票
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" checked={mode === 'amount'} onChange={() => setMode('amount')} />
          按金额开票
        </label>
      </div>
      {mode === 'orders' ? (
        <ul
          className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
          data-testid="invoice-orders"
        >
          {orders.map((o) => (
            <li key={o.orderNo}>
              <label className="flex items-start gap-3 px-3 py-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={picked.includes(o.orderNo)}
                  onChange={(e) =>
                    setPicked((p) => (e.target.checked ? [...p, o.orderNo] : p.filter((x) => x !== o.orderNo)))
                  }
                />
                <span className="min-w-0 flex-1">
                  <span className="block text-ink">{o.title}</span>
                  <span className="block break-all text-xs text-slate-500">
                    {o.orderNo} · 支付于 {formatDate(o.paidAt)}
                  </span>
                </span>
                <span className="shrink-0 font-medium text-ink">{formatFen(o.payFen)}</span>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <label className="block text-sm md:w-64">
          <span className="text-slate-600">开票金额（元）</span>
          <input
            name="amount"
            inputMode="decimal"
            className="input mt-1"
            placeholder={`最多 ${formatFen(invoiceableFen, false)}`}
            aria-label="开票金额"
          />
        </label>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          提交申请
        </button>
        {mode === 'orders' && (
          <span className="text-sm text-slate-600">
            已选 {picked.length} 笔，合计 {formatFen(pickedFen)}
          </span>
        )}
      </div>
    </form>
  );
}
