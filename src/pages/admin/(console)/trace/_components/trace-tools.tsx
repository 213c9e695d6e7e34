'use client';
// The trace screen's export (support): one customer's IP records or extraction calls for a range of days as CSV
// (Admin.CustomerHistoryExport; hot data and the archive; every export is audited).
import { type FormEvent, useState } from 'react';
import { saveTextFile } from '../../../../../state/download';
import { pushToast } from '../../../../../state/toast';
import { consoleApi } from '../../../_components/console-api';

export function CustomerHistoryExport({ fromDay, toDay }: { fromDay: string; toDay: string }) {
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const f = new FormData(e.currentTarget);
    setBusy(true);
    const res = await consoleApi.call('Admin.CustomerHistoryExport', {
      phone: String(f.get('phone') ?? ''),
      kind: f.get('kind') === 'calls' ? 'calls' : 'ips',
      from: String(f.get('from') ?? ''),
      to: String(f.get('to') ?? ''),
    });
    setBusy(false);
    if (!res) return;
    saveTextFile(res.filename, res.csv);
    pushToast('success', `已导出 ${res.rows} 行${res.truncated ? '（已达上限，请缩小日期范围）' : ''}`);
  }
  return (
    <form onSubmit={submit} className="grid gap-2 sm:flex sm:flex-wrap sm:items-center" data-testid="history-export">
      <input name="phone" className="input sm:w-40" placeholder="客户手机号" aria-label="客户手机号" required />
      <select name="kind" className="input sm:w-32" aria-label="记录类型" defaultValue="ips">
        <option value="ips">IP明细</option>
        <option value="calls">调用记录</option>
      </select>
      <label className="flex items-center gap-2 text-sm text-slate-500">
        <span className="shrink-0">从</span>
        <input type="date" name="from" defaultValue={fromDay} className="input sm:w-40" aria-label="开始日期" />
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-500">
        <span className="shrink-0">至</span>
        <input type="date" name="to" defaultValue={toDay} className="input sm:w-40" aria-label="结束日期" />
      </label>
      <button type="submit" className="btn-outline" disabled={busy}>
        {busy ? '生成中…' : '导出CSV'}
      </button>
    </form>
  );
}
