'use client';
// Confirming a company transfer (docs/decisions/227) in two steps: the bank statement's figures (reference, amount in
// 元, payer, serial) -> 预览 shows what will happen (该订单将被标记为已支付) or why it is refused -> 确认到账 pays the order
// (Admin.TransferConfirm; a refusal there is toasted with its reason and audited).
import { useState } from 'react';
import type { ActionOutput } from '../../../../../lib/api-core';
import { Identifier } from '../../../../../components/identifier';
import { spacedReference } from '../../../../../lib/bank-transfer';
import { formatFen } from '../../../../../lib/format';
import { useConsoleWrite } from '../../../_components/console-write';
import { RecordForm } from '../../../_components/record-form';

type Preview = ActionOutput<'Admin.TransferPreview'>;

export function TransferConfirmPanel({ reference }: { reference: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const { busy, run } = useConsoleWrite();
  const t = preview?.transfer ?? null;
  return (
    <div className="space-y-4" data-testid="transfer-confirm">
      <RecordForm
        action="Admin.TransferPreview"
        testId="transfer-preview-form"
        submitLabel="预览"
        done={(p) => (p.willPay ? '请核对预览后确认' : { refused: p.outcome })}
        after={setPreview}
        fields={[
          {
            kind: 'text',
            name: 'reference',
            label: '汇款识别码',
            hint: '银行回单附言中的8位识别码',
            defaultValue: reference,
            maxLength: 20,
            required: true,
          },
          { kind: 'yuan', name: 'receivedFen', label: '到账金额（元）', required: true },
          { kind: 'text', name: 'payerName', label: '付款户名', maxLength: 60, required: true },
          { kind: 'text', name: 'bankSerial', label: '银行流水号', maxLength: 64, required: true },
        ]}
      />
      {preview && (
        <div
          className={`rounded-lg border p-4 text-sm ${preview.willPay ? 'border-emerald-200 bg-emerald-50' : 'border-rose-200 bg-rose-50'}`}
          data-testid="transfer-preview"
        >
          <p className={`font-semibold ${preview.willPay ? 'text-emerald-800' : 'text-rose-700'}`}>{preview.outcome}</p>
          <dl className="mt-2 grid gap-1 text-slate-700 sm:grid-cols-2">
            <div>
              <dt className="inline text-slate-500">汇款识别码 </dt>
              <dd className="inline">
                <Identifier text={spacedReference(preview.reference)} />
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-500">到账金额 </dt>
              <dd className="inline">{formatFen(preview.receivedFen)}</dd>
            </div>
            {t && (
              <>
                <div>
                  <dt className="inline text-slate-500">订单应付 </dt>
                  <dd className="inline">{formatFen(t.expectedFen)}</dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">客户 </dt>
                  <dd className="inline">{t.phone}</dd>
                </div>
                <div className="sm:col-span-2">
                  <dt className="inline text-slate-500">订单 </dt>
                  <dd className="inline break-all">
                    {t.title} · <span className="font-mono text-xs">{t.orderNo}</span>
                  </dd>
                </div>
              </>
            )}
            <div>
              <dt className="inline text-slate-500">付款户名 </dt>
              <dd className="inline">{preview.payerName}</dd>
            </div>
            <div>
              <dt className="inline text-slate-500">银行流水号 </dt>
              <dd className="inline font-mono text-xs">{preview.bankSerial}</dd>
            </div>
          </dl>
          {preview.willPay && (
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary"
                disabled={busy}
                data-testid="transfer-confirm-button"
                onClick={async () => {
                  const res = await run(
                    'Admin.TransferConfirm',
                    {
                      reference: preview.reference,
                      receivedFen: preview.receivedFen,
                      payerName: preview.payerName,
                      bankSerial: preview.bankSerial,
                    },
                    (r) => `已确认到账，订单已支付（${formatFen(r.paidFen)}）`,
                  );
                  if (res) setPreview(null);
                }}
              >
                确认到账
              </button>
              <button type="button" className="btn-outline" onClick={() => setPreview(null)}>
                重新填写
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
