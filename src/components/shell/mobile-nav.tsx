'use client';
// Mobile header controls (<= 768 px): the person icon (account drawer from the top, just below the header, which stays
// visible) or a login link, and the menu icon opening the left drawer with the desktop sections. Page scroll is locked
// while either drawer is open; each drawer has a named close button, closes on Esc and hands the focus back to the
// button that opened it. The menu's sections (mobile-menu-sections.tsx) load when it is first opened (the drawer, its
// close button and the focus handling are here, ready from the first tap); the account drawer (account-drawer.tsx)
// loads with its own close button and focus handling on first use.
import { useAtom } from 'jotai';
import { lazy, type ReactNode, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { accountDrawerOpenAtom, mobileMenuOpenAtom } from '../../state/ui';
import { Logo } from '../logo';
import { useDrawerFocus } from './use-drawer-focus';

const loadSections = () => import('./mobile-menu-sections');
const loadAccountDrawer = () => import('./account-drawer');
const AccountDrawer = lazy(() => loadAccountDrawer().then((m) => ({ default: m.AccountDrawer })));
const MenuSections = lazy(() => loadSections().then((m) => ({ default: m.MobileMenuSections })));

function useScrollLock(locked: boolean) {
  useEffect(() => {
    document.body.classList.toggle('scroll-locked', locked);
    return () => document.body.classList.remove('scroll-locked');
  }, [locked]);
}

/** The bottom edge of the site header, where the account drawer starts. */
const headerBottom = () =>
  Math.max(0, document.querySelector('[data-testid="site-header"]')?.getBoundingClientRect().bottom ?? 0);

export function MobileNav({ loggedIn }: { loggedIn: boolean }) {
  const [menuOpen, setMenuOpen] = useAtom(mobileMenuOpenAtom);
  const [accountOpen, setAccountOpen] = useAtom(accountDrawerOpenAtom);
  const [expanded, setExpanded] = useState<string | null>('产品订购');
  const [drawerTop, setDrawerTop] = useState(56);
  const accountButton = useRef<HTMLButtonElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuClose = useRef<HTMLButtonElement>(null);
  useScrollLock(menuOpen || accountOpen);
  useDrawerFocus(menuOpen, () => setMenuOpen(false), menuButton, menuClose);

  return (
    <div className="flex items-center gap-1 md:hidden">
      {loggedIn ? (
        <DrawerToggle
          buttonRef={accountButton}
          label="账户"
          open={accountOpen}
          testId="mobile-account-button"
          className="rounded-full p-2"
          preload={loadAccountDrawer}
          onToggle={() => {
            setMenuOpen(false);
            setDrawerTop(headerBottom());
            setAccountOpen(!accountOpen);
          }}
        >
          <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
            <circle cx="12" cy="8.5" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.7" />
            <path d="M4.5 20c1-3.8 4-6 7.5-6s6.5 2.2 7.5 6" fill="none" stroke="currentColor" strokeWidth="1.7" />
          </svg>
        </DrawerToggle>
      ) : (
        <a href="/login" className="px-2 py-1 text-sm font-medium">
          登录
        </a>
      )}
      <DrawerToggle
        buttonRef={menuButton}
        label="菜单"
        open={menuOpen}
        testId="mobile-menu-button"
        className="rounded p-2"
        preload={loadSections}
        onToggle={() => {
          setAccountOpen(false);
          setMenuOpen(!menuOpen);
        }}
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
          <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </DrawerToggle>

      {menuOpen && (
        <div className="fixed inset-0 z-50" data-testid="mobile-menu">
          <button
            type="button"
            aria-label="关闭菜单"
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setMenuOpen(false)}
          />
          <nav
            aria-label="移动端导航"
            className="absolute inset-y-0 left-0 flex w-[82%] max-w-xs flex-col overflow-y-auto bg-white text-slate-800 shadow-xl"
          >
            <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
              <Logo />
              <button
                ref={menuClose}
                type="button"
                aria-label="关闭"
                className="p-2 text-slate-500"
                onClick={() => setMenuOpen(false)}
              >
                ✕
              </button>
            </div>
            <Suspense fallback={null}>
              <MenuSections loggedIn={loggedIn} expanded={expanded} setExpanded={setExpanded} />
            </Suspense>
          </nav>
        </div>
      )}

      {accountOpen && loggedIn && (
        <Suspense fallback={null}>
          <AccountDrawer top={drawerTop} close={() => setAccountOpen(false)} opener={accountButton} />
        </Suspense>
      )}
    </div>
  );
}

/** A header button that opens or closes a drawer; the drawer's code starts loading on touch, before the click lands. */
function DrawerToggle({
  buttonRef,
  label,
  open,
  testId,
  className,
  preload,
  onToggle,
  children,
}: {
  buttonRef: RefObject<HTMLButtonElement | null>;
  label: string;
  open: boolean;
  testId: string;
  className: string;
  preload: () => Promise<unknown>;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-label={label}
      aria-expanded={open}
      data-testid={testId}
      className={className}
      onPointerDown={() => void preload()}
      onClick={onToggle}
    >
      {children}
    </button>
  );
}
