'use client';
// Refund in three steps: 退款预览 (what the refund takes back, or why it cannot happen) -> reason and 确认退款 ->
// the refund runs through WeChat Pay (Order.RefundByOrderNo) and the screen reloads with the outcome.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { Dialog } from '../../../components/dialog';
import { formatFen } from '../../../lib/format';
import type { refundPreview } from '../../../server/domain/operators-console';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';

type Preview = Awaited<ReturnType<typeof refundPreview>>;

/** The toast after WeChat accepted a refund (order or single payment), by WeChat's status. */
export const REFUND_OUTCOME_TEXT: Record<string, string> = {
  SUCCESS: '退款成功',
  PROCESSING: '微信处理中，稍后到账',
  ABNORMAL: '微信退款异常，请在商户平台人工处理',
};

export function RefundPanel({ orderNo }: { orderNo: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function open() {
    const res = await adminApi.call('Admin.RefundPreview', { orderNo });
    if (res) setPreview(res);
  }
  async function execute() {
    if (busy || !preview || preview.blocker) return;
    setBusy(true);
    const res = await adminApi.call('Order.RefundByOrderNo', { orderNo, reason });
    setBusy(false);
    if (!res) return;
    setPreview(null);
    pushToast('success', REFUND_OUTCOME_TEXT[res.status] ?? res.status);
    await router.reload();
  }
  return (
    <>
      <button type="button" className="btn border border-rose-300 text-rose-700 hover:bg-rose-50" onClick={open}>
        退款
      </button>
      <Dialog
        open={preview !== null}
        title="退款确认"
        onClose={() => setPreview(null)}
        onConfirm={execute}
        confirmText={busy ? '退款中…' : '确认退款'}
      >
        {preview && (
          <div className="space-y-3" data-testid="refund-preview">
            <p>
              全额退款 <strong className="text-rose-600">{formatFen(preview.amountFen)}</strong>，原路退回付款人的微信。
            </p>
            {preview.blocker ? (
              <p className="rounded bg-amber-50 p-2 text-amber-800">不能退款：{preview.blocker}</p>
            ) : (
              <>
                <ul className="list-disc space-y-1 pl-5 text-slate-600">
                  <li>
                    停用该订单新建的套餐：
                    {preview.packagesDisabled.length
                      ? preview.packagesDisabled.map((p) => `#${p.id} ${p.name}`).join('、')
                      : '无（续费、加量、改期不回收）'}
                  </li>
                  <li>
                    冲销推广佣金：{preview.commissionReversedFen ? formatFen(preview.commissionReversedFen) : '无'}
                  </li>
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
