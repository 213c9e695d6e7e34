'use client';
// The payment dialog (微信支付 or 支付宝): opens for the order in payingOrderAtom and shows the payment box, with the
// order's detail page and, until the order is paid, 取消订单 (which returns its coupon; the buy page re-quotes when the
// dialog closes).
import { useAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { payingOrderAtom } from '../../state/commerce';
import { Dialog } from '../dialog';
import { CancelOrderButton } from './cancel-order-button';
import { PayBox } from './pay-box';

export function PayDialog() {
  const [order, setOrder] = useAtom(payingOrderAtom);
  // The order number the box saw paid: a paid order can no longer be cancelled, so the dialog stops offering it.
  const [paidNo, setPaidNo] = useState<string | null>(null);
  const close = useCallback(() => setOrder(null), [setOrder]);
  if (!order) return null;
  const paid = paidNo === order.orderNo;
  return (
    <Dialog open title="支付订单" onClose={close} bare width="max-w-sm">
      <p className="mb-2 line-clamp-2 text-center text-sm text-slate-600">{order.title}</p>
      <PayBox order={order} onPaid={() => setPaidNo(order.orderNo)} />
      <div className="mt-3 flex justify-center gap-4 border-t border-slate-100 pt-3 text-sm">
        <a className="text-brand-600 hover:underline" href={`/payPage?orderNo=${order.orderNo}`}>
          订单详情
        </a>
        {!paid && (
          <CancelOrderButton orderNo={order.orderNo} className="text-slate-500 hover:text-rose-600" onDone={close} />
        )}
      </div>
    </Dialog>
  );
}
