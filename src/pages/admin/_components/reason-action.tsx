'use client';
// A console write confirmed in the console's own dialog (never the browser's prompt/confirm): a button opening a dialog
// with the reason field (or no field, for a plain confirmation; and, when the action needs one, a second text field
// such as a new password); on 确定 the action runs with the reason (kept in the audit log) and the screen reloads.
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import type { ActionInput, ActionName, ActionOutput } from '../../../lib/api-core';
import { useConsoleWrite } from './console-write';

export interface ReasonActionProps {
  label: string;
  title: string;
  description: string;
  action: ActionName;
  /** The action's input except the text field, which the dialog adds. */
  params: Record<string, unknown>;
  /** The success toast, or how to word it from the answer. */
  done: string | ((res: ActionOutput<ActionName>) => string);
  tone?: 'primary' | 'danger';
  /** The parameter the text goes in (reason by default; reviews call it remark or note); null: no text field. */
  field?: string | null;
  fieldLabel?: string;
  fieldPlaceholder?: string;
  /** The opening button's classes (row actions use small ones). */
  buttonClassName?: string;
  disabled?: boolean;
  /** A one-line text field whose value goes in the action's input under `name` (e.g. a new password). */
  extraField?: { name: string; label: string; placeholder?: string };
}

export function ReasonAction({
  label,
  title,
  description,
  action,
  params,
  done,
  tone = 'primary',
  field = 'reason',
  fieldLabel = '原因（记入操作日志）',
  fieldPlaceholder = '2-200个字',
  buttonClassName,
  disabled = false,
  extraField,
}: ReasonActionProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [extra, setExtra] = useState('');
  const { busy, run } = useConsoleWrite();
  async function confirm() {
    // The caller's params plus the text fields make the action's input; the server validates the whole of it.
    const input = {
      ...params,
      ...(extraField ? { [extraField.name]: extra } : {}),
      ...(field ? { [field]: reason } : {}),
    };
    const res = await run(action, input as ActionInput<typeof action>, done);
    if (res === false) return;
    setOpen(false);
    setReason('');
    setExtra('');
  }
  return (
    <>
      <button
        type="button"
        className={
          buttonClassName ??
          (tone === 'danger' ? 'btn border border-rose-300 text-rose-700 hover:bg-rose-50' : 'btn-outline')
        }
        disabled={disabled || busy}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      <Dialog
        open={open}
        title={title}
        onClose={() => setOpen(false)}
        onConfirm={confirm}
        confirmText={busy ? '处理中…' : '确定'}
      >
        <p className={field || extraField ? 'mb-3' : ''}>{description}</p>
        {extraField ? (
          <label className="mb-3 block">
            <span className="mb-1 block text-slate-600">{extraField.label}</span>
            <input
              className="input"
              value={extra}
              onChange={(e) => setExtra(e.target.value)}
              placeholder={extraField.placeholder}
              autoComplete="off"
            />
          </label>
        ) : null}
        {field ? (
          <label className="block">
            <span className="mb-1 block text-slate-600">{fieldLabel}</span>
            <textarea
              className="input min-h-20"
              value={reason}
              maxLength={200}
              onChange={(e) => setReason(e.target.value)}
              placeholder={fieldPlaceholder}
            />
          </label>
        ) : null}
      </Dialog>
    </>
  );
}
