'use client';
// Refunding one payment attempt flagged 需退款 (docs/decisions/180), in the order refund's three steps: 退款 opens the
// preview (the attempt's amount, or why it cannot be refunded) -> reason and 确认退款 -> the refund runs through WeChat
// Pay (Admin.RefundPayment) and the screen reloads with the outcome; the order itself is not touched.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { Dialog } from '../../../components/dialog';
import { formatFen } from '../../../lib/format';
import type { paymentRefundPreview } from '../../../server/domain/refunds';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';
import { REFUND_OUTCOME_TEXT } from './refund-panel';

type Preview = Awaited<ReturnType<typeof paymentRefundPreview>>;

export function PaymentRefundPanel({ outTradeNo }: { outTradeNo: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function open() {
    const res = await adminApi.call('Admin.RefundPaymentPreview', { outTradeNo });
    if (res) setPreview(res);
  }
  async function execute() {
    if (busy || !preview || preview.blocker) return;
    setBusy(true);
    const res = await adminApi.call('Admin.RefundPayment', { outTradeNo, reason });
    setBusy(false);
    if (!res) return;
    setPreview(null);
    setReason('');
    pushToast('success', REFUND_OUTCOME_TEXT[res.status] ?? res.status);
    await router.reload();
  }
  return (
    <>
      <button
        type="button"
        className="btn border border-rose-300 px-3 py-1 text-xs text-rose-700 hover:bg-rose-50"
        onClick={open}
        data-testid="payment-refund"
      >
        退款
      </button>
      <Dialog
        open={preview !== null}
        title="退款这笔支付"
        onClose={() => setPreview(null)}
        onConfirm={execute}
        confirmText={busy ? '退款中…' : '确认退款'}
      >
        {preview && (
          <div className="space-y-3" data-testid="payment-refund-preview">
            <p>
              全额退款 <strong className="text-rose-600">{formatFen(preview.amountFen)}</strong>
              ，原路退回付款人的微信（商户订单号 <span className="font-mono text-xs break-all">{outTradeNo}</span>）。
            </p>
            {preview.blocker ? (
              <p className="rounded bg-amber-50 p-2 text-amber-800">不能退款：{preview.blocker}</p>
            ) : (
              <>
                <ul className="list-disc space-y-1 pl-5 text-slate-600">
                  <li>只退这一笔多收的款：订单状态、套餐与推广佣金都不变。</li>
                  <li>退款受理后清除「需退款」标记，并记入操作日志。</li>
                  {preview.liveRefund && (
                    <li>已有处理中的退款 {preview.liveRefund.outRefundNo}，将用同一退款单号重新提交。</li>
                  )}
                </ul>
                <label className="block">
                  <span className="mb-1 block text-slate-600">退款原因（付款人可见，最多80个字）</span>
                  <textarea
                    className="input min-h-16"
                    maxLength={80}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                  />
                </label>
              </>
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
