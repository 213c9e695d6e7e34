'use client';
// The welfare trial card's button: claims the trial (Proxy.GiveWelfareMeal) once per real-name identity.
import { useState } from 'react';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';

export function WelfareClaim({ able, reason }: { able: boolean; reason: string }) {
  const [done, setDone] = useState(reason === 'claimed');
  const [busy, setBusy] = useState(false);
  if (done) return <span className="rounded-lg bg-slate-100 px-4 py-2 text-sm text-slate-500">已领取</span>;
  if (!able) {
    return reason === 'needsRealName' ? (
      <a href="/personalCenter/realNameAuth/auth" className="btn-outline">
        实名认证后领取
      </a>
    ) : (
      <span className="text-sm text-slate-400">暂不可领取</span>
    );
  }
  async function claim() {
    setBusy(true);
    const r = await api.call('Proxy.GiveWelfareMeal', {});
    setBusy(false);
    if (r) {
      setDone(true);
      pushToast('success', '领取成功，试用套餐已到账');
    }
  }
  return (
    <button type="button" className="btn-primary" onClick={claim} disabled={busy} data-testid="welfare-claim">
      免费领取
    </button>
  );
}
