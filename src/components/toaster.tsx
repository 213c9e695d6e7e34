'use client';
// The one toast view: messages stack at the top centre and leave after 3000 ms.
import { useAtomValue } from 'jotai';
import { toastsAtom } from '../state/toast';

const STYLE = {
  success: 'bg-emerald-600',
  error: 'bg-rose-600',
  info: 'bg-slate-800',
} as const;

export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-4 z-[70] flex flex-col items-center gap-2 px-4"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          className={`rounded-lg px-4 py-2.5 text-sm text-white shadow-lg ${STYLE[t.kind]}`}
        >
          {t.text}
        </div>
      ))}
    </div>
  );
}
