'use client';
// Order tools: 向微信查询 (ask WeChat Pay about the order's open payments now) and the CSV export of the filtered list.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { pushToast } from '../../../../../state/toast';
import { consoleApi } from '../../../_components/console-api';

const OUTCOME_TEXT: Record<string, string> = {
  paid: '已支付（已补记）',
  duplicate: '已支付（此前已记账）',
  refund: '已支付但订单不能再收款，已标记待退款',
  not_paid: '未支付',
  error: '查询失败，请稍后重试',
};

export function AskProviderButton({ orderNo }: { orderNo: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-outline"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const res = await consoleApi.call('Admin.OrderAskProvider', { orderNo });
        setBusy(false);
        if (!res) return;
        pushToast(
          'info',
          res.results.length
            ? res.results.map((r) => `${r.outTradeNo}：${OUTCOME_TEXT[r.outcome] ?? r.outcome}`).join('；')
            : '没有待支付的支付单',
        );
        await router.reload();
      }}
    >
      向微信查询
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
