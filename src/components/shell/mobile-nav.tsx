'use client';
// Mobile header controls (<= 768 px): the person icon (account drawer from the top) or a login link, and the menu
// icon opening the left drawer with the desktop sections. Page scroll is locked while either drawer is open.
import { useAtom } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { accountDrawerOpenAtom, mobileMenuOpenAtom } from '../../state/ui';
import { LazyAccountPanel } from './account-panel-lazy';

const loadMenu = () => import('./mobile-menu-panel');
const MobileMenuPanel = lazy(() => loadMenu().then((m) => ({ default: m.MobileMenuPanel })));

function useScrollLock(locked: boolean) {
  useEffect(() => {
    document.body.classList.toggle('scroll-locked', locked);
    return () => document.body.classList.remove('scroll-locked');
  }, [locked]);
}

export function MobileNav({ loggedIn }: { loggedIn: boolean }) {
  const [menuOpen, setMenuOpen] = useAtom(mobileMenuOpenAtom);
  const [accountOpen, setAccountOpen] = useAtom(accountDrawerOpenAtom);
  useScrollLock(menuOpen || accountOpen);

  return (
    <div className="flex items-center gap-1 md:hidden">
      {loggedIn ? (
        <button
          type="button"
          aria-label="账户"
          data-testid="mobile-account-button"
          className="rounded-full p-2"
          onClick={() => {
            setMenuOpen(false);
            setAccountOpen(!accountOpen);
          }}
        >
          <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
            <circle cx="12" cy="8.5" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.7" />
            <path d="M4.5 20c1-3.8 4-6 7.5-6s6.5 2.2 7.5 6" fill="none" stroke="currentColor" strokeWidth="1.7" />
          </svg>
        </button>
      ) : (
        <a href="/login" className="px-2 py-1 text-sm font-medium">
          登录
        </a>
      )}
      <button
        type="button"
        aria-label="菜单"
        aria-expanded={menuOpen}
        data-testid="mobile-menu-button"
        className="rounded p-2"
        onPointerDown={() => void loadMenu()}
        onClick={() => {
          setAccountOpen(false);
          setMenuOpen(!menuOpen);
        }}
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
          <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </button>

      {menuOpen && (
        <div className="fixed inset-0 z-50" data-testid="mobile-menu">
          <button
            type="button"
            aria-label="关闭菜单"
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setMenuOpen(false)}
          />
          <Suspense
            fallback={<nav aria-label="移动端导航" className="absolute inset-y-0 left-0 w-[82%] max-w-xs bg-white" />}
          >
            <MobileMenuPanel loggedIn={loggedIn} onClose={() => setMenuOpen(false)} />
          </Suspense>
        </div>
      )}

      {accountOpen && loggedIn && (
        <div className="fixed inset-0 z-50" data-testid="account-drawer">
          <button
            type="button"
            aria-label="关闭账户面板"
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setAccountOpen(false)}
          />
          <div className="absolute inset-x-0 top-0 rounded-b-2xl bg-white p-4 shadow-xl">
            <LazyAccountPanel />
          </div>
        </div>
      )}
    </div>
  );
}
