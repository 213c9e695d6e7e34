'use client';
// The customer's download of their delivery history: IP records or extraction calls for any range of 北京时间 days up
// to 180, as CSV that Excel opens (ProxyLog.Export; recent days from the hot store, older days from the archive).
import { type FormEvent, useState } from 'react';
import { DAY_MS, shanghaiDay } from '../../lib/time';
import { api } from '../../state/api';
import { saveTextFile } from '../../state/download';
import { pushToast } from '../../state/toast';

export function HistoryDownload({ today }: { today: number }) {
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const f = new FormData(e.currentTarget);
    setBusy(true);
    const res = await api.call('ProxyLog.Export', {
      kind: f.get('kind') === 'calls' ? 'calls' : 'ips',
      from: String(f.get('from') ?? ''),
      to: String(f.get('to') ?? ''),
    });
    setBusy(false);
    if (!res) return;
    saveTextFile(res.filename, res.csv);
    pushToast('success', `已下载 ${res.rows} 条记录${res.truncated ? '（已达单次上限，请缩小日期范围）' : ''}`);
  }
  return (
    <form onSubmit={submit} className="grid gap-2 sm:flex sm:flex-wrap sm:items-end" data-testid="history-download">
      <label className="grid gap-1 text-xs text-slate-500">
        记录类型
        <select name="kind" className="input py-2" defaultValue="ips">
          <option value="ips">IP明细</option>
          <option value="calls">调用记录</option>
        </select>
      </label>
      <label className="grid gap-1 text-xs text-slate-500">
        开始日期
        <input type="date" name="from" className="input min-w-0 py-2" defaultValue={shanghaiDay(today - 29 * DAY_MS)} />
      </label>
      <label className="grid gap-1 text-xs text-slate-500">
        结束日期
        <input type="date" name="to" className="input min-w-0 py-2" defaultValue={shanghaiDay(today)} />
      </label>
      <button type="submit" className="btn-outline" disabled={busy}>
        {busy ? '生成中…' : '下载CSV'}
      </button>
      <p className="text-xs text-slate-400 sm:basis-full">北京时间，含首尾两天，一次最多180天；记录保存至少180天。</p>
    </form>
  );
}
