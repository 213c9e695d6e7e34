'use client';
// Refund in three steps: 退款预览 (what the refund takes back, or why it cannot happen) -> reason and 确认退款 ->
// the refund runs through WeChat Pay and the screen reloads with the outcome. RefundFlow is the steps; RefundPanel
// refunds a paid order (Order.RefundByOrderNo); payment-refund-panel.tsx one flagged payment attempt.
import { type ReactNode, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { Dialog } from '../../../components/dialog';
import { formatFen } from '../../../lib/format';
import type { refundPreview } from '../../../server/domain/operators-console';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';

/** The toast after WeChat accepted a refund (order or single payment), by WeChat's status. */
export const REFUND_OUTCOME_TEXT: Record<string, string> = {
  SUCCESS: '退款成功',
  PROCESSING: '微信处理中，稍后到账',
  ABNORMAL: '微信退款异常，请在商户平台人工处理',
};

/** What every refund preview tells: the amount, why it cannot happen (or null), a refund already in flight. */
interface PreviewBase {
  amountFen: number;
  blocker: string | null;
  liveRefund: { outRefundNo: string } | null;
}

/** The three steps of a refund, whatever is refunded: `load` the preview, `run` the refund with the reason. */
export function RefundFlow<P extends PreviewBase>({
  load,
  run,
  title,
  buttonClassName = '',
  testId,
  amountNote,
  effects,
}: {
  load: () => Promise<P | false>;
  run: (reason: string) => Promise<{ status: string } | false>;
  title: string;
  buttonClassName?: string;
  /** The button's test id; the preview's is `${testId}-preview`. */
  testId: string;
  /** Said after 原路退回付款人的微信 (e.g. which payment). */
  amountNote?: ReactNode;
  /** What the refund changes besides the money, as list items. */
  effects: (preview: P) => ReactNode;
}) {
  const [preview, setPreview] = useState<P | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function open() {
    const res = await load();
    if (res) setPreview(res);
  }
  async function execute() {
    if (busy || !preview || preview.blocker) return;
    setBusy(true);
    const res = await run(reason);
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
        className={`btn border border-rose-300 text-rose-700 hover:bg-rose-50 ${buttonClassName}`}
        onClick={open}
        data-testid={testId}
      >
        退款
      </button>
      <Dialog
        open={preview !== null}
        title={title}
        onClose={() => setPreview(null)}
        onConfirm={execute}
        confirmText={busy ? '退款中…' : '确认退款'}
      >
        {preview && (
          <div className="space-y-3" data-testid={`${testId}-preview`}>
            <p>
              全额退款 <strong className="text-rose-600">{formatFen(preview.amountFen)}</strong>
              ，原路退回付款人的微信{amountNote}。
            </p>
            {preview.blocker ? (
              <p className="rounded bg-amber-50 p-2 text-amber-800">不能退款：{preview.blocker}</p>
            ) : (
              <>
                <ul className="list-disc space-y-1 pl-5 text-slate-600">
                  {effects(preview)}
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

type OrderPreview = Awaited<ReturnType<typeof refundPreview>>;

export function RefundPanel({ orderNo }: { orderNo: string }) {
  return (
    <RefundFlow<OrderPreview>
      title="退款确认"
      testId="refund"
      load={() => adminApi.call('Admin.RefundPreview', { orderNo })}
      run={(reason) => adminApi.call('Order.RefundByOrderNo', { orderNo, reason })}
      effects={(p) => (
        <>
          <li>
            停用该订单新建的套餐：
            {p.packagesDisabled.length
              ? p.packagesDisabled.map((x) => `#${x.id} ${x.name}`).join('、')
              : '无（续费、加量、改期不回收）'}
          </li>
          <li>冲销推广佣金：{p.commissionReversedFen ? formatFen(p.commissionReversedFen) : '无'}</li>
        </>
      )}
    />
  );
}
