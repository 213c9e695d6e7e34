'use client';
// The one dialog: modal overlay, Esc and backdrop close, focus on open, the seed's default 取消 / 确定 buttons.
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  onConfirm?: () => void;
  confirmText?: string;
  cancelText?: string;
  /** Hide the footer buttons (the body has its own actions). */
  bare?: boolean;
  width?: string;
  /** Only the confirm button closes it: no 取消, no ×, no Esc or backdrop (e.g. a secret shown once). */
  mustConfirm?: boolean;
}

export function Dialog({
  open,
  title,
  children,
  onClose,
  onConfirm,
  confirmText = '确定',
  cancelText = '取消',
  bare = false,
  width = 'max-w-md',
  mustConfirm = false,
}: DialogProps) {
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !mustConfirm && onClose();
    document.addEventListener('keydown', onKey);
    boxRef.current?.focus();
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose, mustConfirm]);
  if (!open) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: backdrop click is a mouse shortcut; Esc and the close button serve keyboards
    <div
      role="presentation"
      className="fixed inset-0 z-[60] flex items-center justify-center bg-slate-900/50 p-4"
      onMouseDown={mustConfirm ? undefined : onClose}
    >
      <div
        ref={boxRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`w-full ${width} rounded-2xl bg-white shadow-xl outline-none`}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="flex items-center justify-between border-b border-slate-100 px-5 py-4">
          <h2 id={titleId} className="text-base font-semibold text-ink">
            {title}
          </h2>
          {mustConfirm ? null : (
            <button
              type="button"
              onClick={onClose}
              className="rounded p-1 text-slate-400 hover:text-slate-600"
              aria-label="关闭"
            >
              <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
                <path d="m5 5 10 10M15 5 5 15" stroke="currentColor" strokeWidth="1.8" />
              </svg>
            </button>
          )}
        </div>
        <div className="px-5 py-4 text-sm text-slate-700">{children}</div>
        {!bare && (
          <div className="flex justify-end gap-3 border-t border-slate-100 px-5 py-3">
            {mustConfirm ? null : (
              <button type="button" className="btn-ghost" onClick={onClose}>
                {cancelText}
              </button>
            )}
            <button type="button" className="btn-primary" onClick={onConfirm ?? onClose}>
              {confirmText}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
