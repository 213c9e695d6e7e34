'use client';
// Promotion page leaves: opening the link, copying link and material (复制成功), and the withdrawal request form.
import { useState } from 'react';
import { messages } from '../../../../lib/messages';
import { accountNameSchema, accountNoSchema } from '../../../../lib/schemas';
import { api } from '../../../../state/api';
import { copyText } from '../../../../state/clipboard';
import { pushToast } from '../../../../state/toast';

export function CopyButton({ text, label = '复制' }: { text: string; label?: string }) {
  return (
    <button type="button" className="btn-outline shrink-0 px-3 py-1.5 text-xs" onClick={() => copyText(text)}>
      {label}
    </button>
  );
}

export function OpenPromotion() {
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    const r = await api.call('UserPromotion.AddUserPromotion', {});
    setBusy(false);
    if (r) window.location.reload();
  }
  return (
    <button type="button" className="btn-primary" onClick={open} disabled={busy} data-testid="open-promotion">
      立即开通推广
    </button>
  );
}

export function WithdrawForm({
  availableFen,
  minFen,
  verified,
}: {
  availableFen: number;
  minFen: number;
  verified: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [account, setAccount] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const enough = availableFen >= minFen;
  async function submit() {
    const n = accountNameSchema.safeParse(name);
    const a = accountNoSchema.safeParse(account);
    if (!n.success) return setError(n.error.issues[0]?.message ?? '');
    if (!a.success) return setError(a.error.issues[0]?.message ?? '');
    setError('');
    setBusy(true);
    const r = await api.call('UserPromotion.Withdraw', { accountName: n.data, accountNo: a.data });
    setBusy(false);
    if (r) {
      pushToast('success', '提现申请已提交，请等待审核');
      setTimeout(() => window.location.reload(), 800);
    }
  }
  if (!open) {
    return (
      <button
        type="button"
        className="btn-primary"
        onClick={() => (verified ? setOpen(true) : window.location.assign('/personalCenter/realNameAuth'))}
        disabled={verified && !enough}
        title={enough ? undefined : messages.withdrawBelowMinimum}
        data-testid="withdraw-open"
      >
        {verified ? '申请提现' : '实名认证后提现'}
      </button>
    );
  }
  return (
    <div className="flex w-full flex-col gap-2 md:max-w-sm">
      <input className="input" placeholder="收款人姓名" value={name} onChange={(e) => setName(e.target.value)} />
      <input
        className="input"
        placeholder="支付宝账号（手机号或邮箱）"
        value={account}
        onChange={(e) => setAccount(e.target.value)}
      />
      {error && <p className="text-sm text-red-600">{error}</p>}
      <div className="flex gap-2">
        <button type="button" className="btn-ghost flex-1 border border-slate-200" onClick={() => setOpen(false)}>
          取消
        </button>
        <button type="button" className="btn-primary flex-1" onClick={submit} disabled={busy}>
          确认提现全部
        </button>
      </div>
    </div>
  );
}
