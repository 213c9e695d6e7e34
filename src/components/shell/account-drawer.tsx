'use client';
// The phone account drawer (loaded the first time it opens, to keep it off the home page's first load): below the header (which
// stays visible, its person icon toggles the drawer), above the page, with a named close button that takes the focus
// when the drawer appears; Esc closes it and the focus goes back to the person icon.
import { type RefObject, useRef } from 'react';
import { LazyAccountPanel } from './account-panel-lazy';
import { useDrawerFocus } from './use-drawer-focus';

export function AccountDrawer({
  top,
  close,
  opener,
}: {
  /** The header's bottom edge, where the drawer starts. */
  top: number;
  close: () => void;
  opener: RefObject<HTMLButtonElement | null>;
}) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useDrawerFocus(true, close, opener, closeButton);
  return (
    <div className="fixed inset-x-0 bottom-0 z-50" style={{ top }} data-testid="account-drawer">
      {/* The backdrop closes on a tap; keyboards and screen readers use the named close button instead. */}
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/50"
        onClick={close}
      />
      <div
        role="dialog"
        aria-label="我的账户"
        className="absolute inset-x-0 top-0 max-h-full overflow-y-auto rounded-b-2xl border-t border-slate-100 bg-white p-4 text-slate-800 shadow-xl"
      >
        <div className="mb-2 flex items-center justify-between">
          <span className="text-sm font-semibold text-ink">我的账户</span>
          <button
            ref={closeButton}
            type="button"
            aria-label="关闭账户面板"
            className="-mr-2 rounded-full p-2 text-slate-500 hover:bg-slate-100"
            onClick={close}
          >
            <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
              <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="1.8" />
            </svg>
          </button>
        </div>
        <LazyAccountPanel />
      </div>
    </div>
  );
}
