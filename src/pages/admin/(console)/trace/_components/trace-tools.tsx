'use client';
// The trace screen's export (support): one customer's IP records or extraction calls for a range of days as CSV
// (Admin.CustomerHistoryExport; hot data and the archive; every export is audited). A RecordForm whose answer is the
// file: the browser saves it, the toast says how many rows it holds.
import { saveTextFile } from '../../../../../state/download';
import { choices, RecordForm } from '../../../_components/record-form';

export function CustomerHistoryExport({ fromDay, toDay }: { fromDay: string; toDay: string }) {
  return (
    <RecordForm
      action="Admin.CustomerHistoryExport"
      testId="history-export"
      submitLabel="导出CSV"
      done={(res) => `已导出 ${res.rows} 行${res.truncated ? '（已达上限，请缩小日期范围）' : ''}`}
      after={(res) => saveTextFile(res.filename, res.csv)}
      fields={[
        { kind: 'text', name: 'phone', label: '客户手机号', maxLength: 11, required: true },
        {
          kind: 'select',
          name: 'kind',
          label: '记录类型',
          options: choices([
            ['ips', 'IP明细'],
            ['calls', '调用记录'],
          ] as const),
          defaultValue: 'ips',
        },
        { kind: 'date', name: 'from', label: '开始日期', defaultValue: fromDay, required: true },
        { kind: 'date', name: 'to', label: '结束日期', defaultValue: toDay, required: true },
      ]}
    />
  );
}
