'use client';
// Desktop: the masked phone with the account-panel dropdown (hover or click; Esc closes it). Hydrates the session atom from the
// server's answer and clears a stale Mine_Info cookie the server no longer honours.
import { useAtom, useSetAtom } from 'jotai';
import { useHydrateAtoms } from 'jotai/utils';
import { useEffect, useRef } from 'react';
import { MINE_INFO_COOKIE } from '../../lib/mine-info';
import { api, logoutLocally } from '../../state/api';
import { type ClientMineInfo, mineInfoAtom } from '../../state/session';
import { accountPanelOpenAtom } from '../../state/ui';
import { LazyAccountPanel, preloadAccountPanel } from './account-panel-lazy';

/**
 * Put the server's view of the session into the store; drop stale cookies; refresh mineInfo whenever the tab becomes
 * visible again (authentication may have changed elsewhere; an expired session then runs the login-expired flow).
 */
export function SessionSync({ mineInfo }: { mineInfo: ClientMineInfo | null }) {
  useHydrateAtoms([[mineInfoAtom, mineInfo]]);
  const setInfo = useSetAtom(mineInfoAtom);
  useEffect(() => {
    setInfo(mineInfo);
    if (!mineInfo && document.cookie.includes(`${MINE_INFO_COOKIE}=`)) void logoutLocally();
  }, [mineInfo, setInfo]);
  useEffect(() => {
    if (!mineInfo) return;
    const refresh = async () => {
      if (document.visibilityState !== 'visible') return;
      const fresh = await api.call('User.GetMineInfo', {}, { silent: true });
      if (fresh) setInfo(fresh);
    };
    document.addEventListener('visibilitychange', refresh);
    return () => document.removeEventListener('visibilitychange', refresh);
  }, [mineInfo, setInfo]);
  return null;
}

export function AccountMenu({ phone }: { phone: string }) {
  const [open, setOpen] = useAtom(accountPanelOpenAtom);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Esc closes the dropdown and puts the focus back on the phone button.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, setOpen]);
  const show = () => {
    preloadAccountPanel();
    if (closeTimer.current) clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hide = () => {
    closeTimer.current = setTimeout(() => setOpen(false), 150);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover opens the panel for mice; the button inside toggles it for keyboards
    <div
      role="presentation"
      className="relative hidden h-full items-center md:flex"
      onMouseEnter={show}
      onMouseLeave={hide}
    >
      <button
        ref={button}
        type="button"
        data-testid="header-phone"
        className="flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-medium hover:bg-slate-100/60"
        aria-expanded={open}
        // A mouse has already opened the panel by hovering: its click keeps it open (a toggle would shut it again).
        // Keyboard activation (detail 0) toggles.
        onClick={(e) => setOpen(e.detail === 0 ? !open : true)}
      >
        <span className="flex h-7 w-7 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <svg viewBox="0 0 20 20" className="h-4 w-4" aria-hidden="true">
            <circle cx="10" cy="7" r="3.2" fill="currentColor" />
            <path d="M3.5 17c.8-3.2 3.4-5 6.5-5s5.7 1.8 6.5 5" fill="currentColor" />
          </svg>
        </span>
        {phone}
      </button>
      {open && (
        <div className="absolute top-[calc(100%-8px)] right-0 z-50 w-72 rounded-xl border border-slate-100 bg-white p-4 shadow-xl">
          <LazyAccountPanel />
        </div>
      )}
    </div>
  );
}
