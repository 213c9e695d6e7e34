'use client';
// The balance page's client parts: the top-up form (a preset or the customer's own amount in 元, placed as a 余额充值
// order and paid at the cashier) and the ledger's CSV download.
import { type FormEvent, useState } from 'react';
import { wholeYuan } from '../../../../lib/balance';
import { formatFen } from '../../../../lib/format';
import { api } from '../../../../state/api';
import { saveTextFile } from '../../../../state/download';
import { pushToast } from '../../../../state/toast';

/** "100" or "100.5" 元 as fen; null for anything else. */
function yuanToFen(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(t)) return null;
  const [whole = '0', cents = ''] = t.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

export function TopUpForm({ minFen, maxFen, presetsFen }: { minFen: number; maxFen: number; presetsFen: number[] }) {
  const [preset, setPreset] = useState<number | null>(presetsFen[1] ?? presetsFen[0] ?? null);
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState(false);
  const amountFen = custom.trim() ? yuanToFen(custom) : preset;
  const valid = amountFen !== null && amountFen >= minFen && amountFen <= maxFen;
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || !valid || amountFen === null) return;
    setBusy(true);
    const r = await api.call('Balance.TopUp', { amountFen });
    if (r) window.location.assign(r.payPageUrl);
    else setBusy(false);
  }
  return (
    <form onSubmit={submit} className="space-y-3" data-testid="top-up-form">
      <p className="text-sm font-medium text-ink">充值金额</p>
      <div className="grid grid-cols-3 gap-2 sm:grid-cols-5">
        {presetsFen.map((fen) => (
          <button
            key={fen}
            type="button"
            aria-pressed={!custom.trim() && preset === fen}
            onClick={() => {
              setPreset(fen);
              setCustom('');
            }}
            className={`rounded-lg border px-2 py-2 text-sm ${
              !custom.trim() && preset === fen
                ? 'border-brand-500 bg-brand-50 font-medium text-brand-700'
                : 'border-slate-200 text-slate-600'
            }`}
          >
            {wholeYuan(fen)}
          </button>
        ))}
      </div>
      <label className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        其他金额
        <input
          className="input w-32 py-1.5"
          inputMode="decimal"
          placeholder="输入金额"
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          aria-label="其他充值金额（元）"
          data-testid="top-up-custom"
        />
        元
      </label>
      <p className={`text-xs ${custom.trim() && !valid ? 'text-rose-600' : 'text-slate-500'}`}>
        单笔 {wholeYuan(minFen)} 至 {wholeYuan(maxFen)}
        ，可用微信支付、支付宝或对公转账付款，到账后计入账户余额。
      </p>
      <button
        type="submit"
        className="btn-primary w-full sm:w-auto"
        disabled={!valid || busy}
        data-testid="top-up-submit"
      >
        {busy ? '正在下单…' : valid ? `充值 ${formatFen(amountFen ?? 0)}` : '充值'}
      </button>
    </form>
  );
}

export function LedgerDownload() {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    const r = await api.call('Balance.ExportLedger', {});
    setBusy(false);
    if (!r) return;
    saveTextFile(r.filename, r.csv);
    pushToast('success', `已下载 ${r.rows} 条明细${r.truncated ? '（仅含最近的记录）' : ''}`);
  }
  return (
    <button type="button" className="btn-outline text-sm" disabled={busy} onClick={() => void download()}>
      {busy ? '生成中…' : '下载CSV'}
    </button>
  );
}
