'use client';
// Refunding one payment attempt flagged 需退款 (docs/decisions/180), in the order refund's three steps (RefundFlow): 退款
// opens the preview (the attempt's amount, or why it cannot be refunded) -> reason and 确认退款 -> the refund goes back by
// the attempt's rail (Admin.RefundPayment) and the screen reloads with the outcome; the order itself is not touched.
import type { paymentRefundPreview } from '../../../../../server/domain/refunds';
import { consoleApi } from '../../../_components/console-api';
import { RefundFlow } from './refund-panel';

type Preview = Awaited<ReturnType<typeof paymentRefundPreview>>;

export function PaymentRefundPanel({ outTradeNo }: { outTradeNo: string }) {
  return (
    <RefundFlow<Preview>
      title="退款这笔支付"
      testId="payment-refund"
      buttonClassName="px-3 py-1 text-xs"
      amountNote={
        <>
          （商户订单号 <span className="font-mono text-xs break-all">{outTradeNo}</span>）
        </>
      }
      load={() => consoleApi.call('Admin.RefundPaymentPreview', { outTradeNo })}
      run={(reason) => consoleApi.call('Admin.RefundPayment', { outTradeNo, reason })}
      rail={(p) => p.rail}
      effects={() => (
        <>
          <li>只退这一笔多收的款：订单状态、套餐与推广佣金都不变。</li>
          <li>退款受理后清除「需退款」标记，并记入操作日志。</li>
        </>
      )}
    />
  );
}
