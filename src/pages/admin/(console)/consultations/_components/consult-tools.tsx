'use client';
// Consultation handling: mark contacted, close, or reopen, with an optional note kept in the audit log.
import { ReasonAction } from '../../../_components/reason-action';

const NEXT: Record<number, [0 | 1 | 2, string, string][]> = {
  0: [
    [1, '标记已联系', '已标记为已联系'],
    [2, '关闭', '已关闭'],
  ],
  1: [
    [2, '关闭', '已关闭'],
    [0, '重新打开', '已重新打开'],
  ],
  2: [[0, '重新打开', '已重新打开']],
};

export function ConsultActions({ id, state }: { id: number; state: number }) {
  return (
    <div className="flex flex-wrap gap-2">
      {(NEXT[state] ?? []).map(([to, label, done]) => (
        <ReasonAction
          key={to}
          label={label}
          title={label}
          description={`把这条企业咨询标记为「${label}」。`}
          action="Admin.ConsultMark"
          params={{ id, state: to }}
          field="note"
          fieldLabel="备注（可留空，记入操作日志）"
          fieldPlaceholder="可留空，最多200个字"
          done={done}
          buttonClassName={to === 1 ? 'btn-outline px-3 py-1 text-xs' : 'btn-ghost px-3 py-1 text-xs'}
        />
      ))}
    </div>
  );
}
