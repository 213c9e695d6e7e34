'use client';
// 取消订单: asks for confirmation, then Order.Cancel (closed at WeChat Pay first; the coupon comes back). onDone runs
// after a successful cancel (default: reload the page so lists and quotes show the returned coupon).
import { useState } from 'react';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';
import { Dialog } from '../dialog';

export function CancelOrderButton({
  orderNo,
  className = 'btn-ghost text-slate-600',
  onDone,
}: {
  orderNo: string;
  className?: string;
  onDone?: () => void;
}) {
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  async function cancel() {
    setConfirm(false);
    setBusy(true);
    const r = await api.call('Order.Cancel', { orderNo });
    setBusy(false);
    if (r) {
      pushToast('success', '订单已取消，占用的优惠券已退回');
      if (onDone) onDone();
      else window.location.reload();
    }
  }

  return (
    <>
      <button
        type="button"
        className={className}
        disabled={busy}
        onClick={() => setConfirm(true)}
        data-testid="cancel-order"
      >
        {busy ? '正在取消…' : '取消订单'}
      </button>
      <Dialog
        open={confirm}
        title="取消订单"
        onClose={() => setConfirm(false)}
        onConfirm={cancel}
        confirmText="确定取消"
        cancelText="再想想"
      >
        确定取消订单 {orderNo} 吗？取消后订单关闭、无法再支付，占用的优惠券将退回您的账户。
      </Dialog>
    </>
  );
}
