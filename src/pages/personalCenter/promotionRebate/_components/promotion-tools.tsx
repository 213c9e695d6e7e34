'use client';
// Promotion page leaves: opening the link, copying link and material (复制成功), and the withdrawal request form.
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatFen } from '../../../../lib/format';
import { messages } from '../../../../lib/messages';
import { REAL_NAME_FORM } from '../../../../lib/personal-center-nav';
import { accountNameSchema, accountNoSchema } from '../../../../lib/schemas/account';
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
  const form = useRef<HTMLFormElement>(null);
  const enough = availableFen >= minFen;
  // The form opens where the button was, which can be below the fold on a phone: bring it into view, ready to type.
  useEffect(() => {
    if (!open) return;
    form.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    form.current?.querySelector('input')?.focus({ preventScroll: true });
  }, [open]);
  async function submit(e: FormEvent) {
    e.preventDefault();
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
        className="btn-primary shrink-0 whitespace-nowrap"
        onClick={() => (verified ? setOpen(true) : window.location.assign(REAL_NAME_FORM))}
        disabled={verified && !enough}
        title={enough ? undefined : messages.withdrawBelowMinimum}
        data-testid="withdraw-open"
      >
        {verified ? '申请提现' : '实名认证后提现'}
      </button>
    );
  }
  return (
    <form
      ref={form}
      onSubmit={submit}
      className="flex w-full shrink-0 scroll-mt-24 flex-col gap-3 md:max-w-sm"
      data-testid="withdraw-form"
    >
      <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-slate-700" data-testid="withdraw-amount">
        本次提现金额 <span className="font-semibold text-ink">{formatFen(availableFen)}</span>
        （全部可提现佣金），提交后进入审核，审核通过后转入下方支付宝账号。
      </p>
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">收款人姓名</span>
        <input className="input" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">支付宝账号</span>
        <input
          className="input"
          placeholder="手机号或邮箱"
          value={account}
          onChange={(e) => setAccount(e.target.value)}
        />
      </label>
      {error && (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="button" className="btn-ghost flex-1 border border-slate-200" onClick={() => setOpen(false)}>
          取消
        </button>
        <button type="submit" className="btn-primary flex-1 whitespace-nowrap" disabled={busy}>
          确认提现 {formatFen(availableFen)}
        </button>
      </div>
    </form>
  );
}
