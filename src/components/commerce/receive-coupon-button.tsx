'use client';
// Receive a coupon, then refresh the page so the list shows it.
import { useState } from 'react';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';

export function ReceiveCouponButton({ couponId }: { couponId: number }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-primary px-3 py-1.5 text-xs"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const r = await api.call('Coupon.Receive', { couponId });
        setBusy(false);
        if (r !== false) {
          pushToast('success', '领取成功');
          window.location.reload();
        }
      }}
    >
      立即领取
    </button>
  );
}
