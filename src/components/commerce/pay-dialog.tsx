'use client';
// The WeChat payment dialog: opens for the order in payingOrderAtom and shows the payment box.
import { useAtom } from 'jotai';
import { useCallback } from 'react';
import { payingOrderAtom } from '../../state/commerce';
import { Dialog } from '../dialog';
import { WechatPayBox } from './wechat-pay-box';

export function PayDialog() {
  const [order, setOrder] = useAtom(payingOrderAtom);
  const close = useCallback(() => setOrder(null), [setOrder]);
  if (!order) return null;
  return (
    <Dialog open title="微信支付" onClose={close} bare width="max-w-sm">
      <p className="mb-2 line-clamp-2 text-center text-sm text-slate-600">{order.title}</p>
      <WechatPayBox order={order} />
    </Dialog>
  );
}
