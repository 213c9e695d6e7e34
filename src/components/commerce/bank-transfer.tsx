'use client';
// Company bank transfer (对公转账, docs/decisions/227) at the cashier: TransferChoice is the cashier's button that gets the
// order's remittance reference and opens the order page; TransferDetails is what that page shows while the order
// awaits the transfer: the reference, the company account and the exact amount, each copyable, until when the order
// is reserved, and a print button.
import { useState } from 'react';
import { spacedReference } from '../../lib/bank-transfer';
import { Identifier } from '../identifier';
import { formatDateTime, formatFen } from '../../lib/format';
import { api } from '../../state/api';
import { copyText } from '../../state/clipboard';

/** The cashier's 对公转账 choice: any unpaid order, whatever it buys. */
export function TransferChoice({ orderNo }: { orderNo: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="w-full border-t border-slate-100 pt-3 text-center">
      <button
        type="button"
        className="btn-outline w-full"
        disabled={busy}
        data-testid="choose-transfer"
        onClick={async () => {
          setBusy(true);
          const r = await api.call('PayOrder.BankTransfer', { orderNo });
          if (r) window.location.assign(`/payPage?orderNo=${r.orderNo}`);
          else setBusy(false);
        }}
      >
        {busy ? '正在获取汇款信息…' : '对公转账（企业银行付款）'}
      </button>
      <p className="mt-1 text-xs text-slate-400">获取汇款识别码与收款账户，到账后1-3个工作日内确认</p>
    </div>
  );
}

export interface TransferView {
  orderNo: string;
  reference: string;
  payFen: number;
  reservedUntil: number;
  account: { accountName: string; bankName: string; accountNo: string };
}

function Line({ label, value, copy, testId }: { label: string; value: string; copy?: string; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-3 py-1.5">
      <dt className="shrink-0 text-slate-500">{label}</dt>
      <dd className="flex min-w-0 items-start gap-2 text-right">
        <span className="break-all font-medium text-ink" data-testid={testId}>
          {value}
        </span>
        {copy !== undefined && (
          <button
            type="button"
            className="shrink-0 text-xs text-brand-600 hover:underline print:hidden"
            onClick={() => void copyText(copy)}
            aria-label={`复制${label}`}
          >
            复制
          </button>
        )}
      </dd>
    </div>
  );
}

/** The order page's transfer instructions (printable: the rest of the page hides when printing this). */
export function TransferDetails({ transfer }: { transfer: TransferView }) {
  const a = transfer.account;
  return (
    <div className="text-sm" data-testid="transfer-details">
      <p className="text-base font-semibold text-ink" data-testid="transfer-state">
        等待对公转账
      </p>
      <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-center">
        <div className="text-xs text-amber-800">汇款识别码（转账时请填写在附言/用途栏）</div>
        <div className="mt-1 font-mono text-2xl font-bold tracking-widest text-ink" data-testid="transfer-reference">
          <Identifier text={spacedReference(transfer.reference)} className="" />
        </div>
        <button
          type="button"
          className="mt-1 text-xs text-brand-600 hover:underline print:hidden"
          onClick={() => void copyText(transfer.reference)}
        >
          复制识别码
        </button>
      </div>
      <dl className="mt-3 divide-y divide-slate-100">
        <Line
          label="转账金额"
          value={formatFen(transfer.payFen)}
          copy={(transfer.payFen / 100).toFixed(2)}
          testId="transfer-amount"
        />
        <Line label="户名" value={a.accountName} copy={a.accountName} />
        <Line label="开户行" value={a.bankName} copy={a.bankName} />
        <Line label="账号" value={a.accountNo} copy={a.accountNo.replace(/\s/g, '')} testId="transfer-account-no" />
        <Line
          label="保留至"
          value={`${formatDateTime(transfer.reservedUntil)}（北京时间）`}
          testId="transfer-reserved"
        />
      </dl>
      <ul className="mt-3 list-disc space-y-1 pl-4 text-xs text-slate-500">
        <li>请一次足额转账，金额须与订单应付金额一致，否则无法确认。</li>
        <li>到账后财务将在1-3个工作日内确认，确认后订单自动完成，无需再次操作。</li>
        <li>保留期内未到账的订单将自动关闭；关闭后到账的款项将原路退回。</li>
      </ul>
      <button type="button" className="btn-outline mt-3 w-full print:hidden" onClick={() => window.print()}>
        打印汇款信息
      </button>
    </div>
  );
}
