'use client';
// Order tools: 向…查询 (ask each open payment's own provider, WeChat Pay or Alipay, about the order now; the button names
// the rails it asks, docs/decisions/244) and the CSV export of the filtered list.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { type AskableRail, askProviderLabel } from '../../../../../lib/provider-query';
import { pushToast } from '../../../../../state/toast';
import { consoleApi } from '../../../_components/console-api';

export function AskProviderButton({ orderNo, rails }: { orderNo: string; rails: AskableRail[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-outline"
      disabled={busy}
      data-testid="ask-provider"
      onClick={async () => {
        setBusy(true);
        const res = await consoleApi.call('Admin.OrderAskProvider', { orderNo });
        setBusy(false);
        if (!res) return;
        pushToast('info', res.results.map((r) => `${r.outTradeNo}：${r.text}`).join('；'));
        await router.reload();
      }}
    >
      {askProviderLabel(rails)}
    </button>
  );
}

export function ExportCsvButton({ from, to, state }: { from: string; to: string; state: number }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-outline"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const res = await consoleApi.call('Admin.OrderExport', {
          state,
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        });
        setBusy(false);
        if (!res) return;
        const url = URL.createObjectURL(new Blob([res.csv], { type: 'text/csv;charset=utf-8' }));
        const a = document.createElement('a');
        a.href = url;
        a.download = res.filename;
        a.click();
        URL.revokeObjectURL(url);
        pushToast('success', `已导出 ${res.rows} 行${res.truncated ? '（已达上限，请缩小日期范围）' : ''}`);
      }}
    >
      导出CSV
    </button>
  );
}
