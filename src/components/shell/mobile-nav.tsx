'use client';
// Mobile header controls (<= 768 px): the person icon (account drawer from the top, just below the header, which stays
// visible) or a login link, and the menu icon opening the left drawer with the desktop sections. Page scroll is locked
// while either drawer is open; each drawer has a named close button, closes on Esc and hands the focus back to the
// button that opened it.
import { useAtom } from 'jotai';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { GET_PROXY_LINKS, HELP_LINKS, PRODUCT_LINKS, SCENARIOS } from '../../lib/site';
import { accountDrawerOpenAtom, mobileMenuOpenAtom } from '../../state/ui';
import { Logo } from '../logo';
import { SellerContact } from '../trust/seller-contact';
import { LazyAccountPanel } from './account-panel-lazy';

const SECTIONS = [
  { title: '产品订购', links: PRODUCT_LINKS },
  { title: '获取代理', links: GET_PROXY_LINKS },
  { title: '业务场景', links: SCENARIOS.map((s) => ({ label: s.label, href: `/businessScen/${s.type}` })) },
  { title: '帮助中心', links: HELP_LINKS },
];

function useScrollLock(locked: boolean) {
  useEffect(() => {
    document.body.classList.toggle('scroll-locked', locked);
    return () => document.body.classList.remove('scroll-locked');
  }, [locked]);
}

/**
 * While a drawer is open: focus its close button, close it on Esc, and when it closes give the focus back to the
 * button that opened it.
 */
export function useDrawerFocus(
  open: boolean,
  close: () => void,
  opener: RefObject<HTMLElement | null>,
  firstFocus: RefObject<HTMLElement | null>,
) {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (!open) return;
    const back = opener.current;
    firstFocus.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      back?.focus();
    };
  }, [open, opener, firstFocus]);
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
  const accountClose = useRef<HTMLButtonElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuClose = useRef<HTMLButtonElement>(null);
  useScrollLock(menuOpen || accountOpen);
  useDrawerFocus(accountOpen && loggedIn, () => setAccountOpen(false), accountButton, accountClose);
  useDrawerFocus(menuOpen, () => setMenuOpen(false), menuButton, menuClose);

  return (
    <div className="flex items-center gap-1 md:hidden">
      {loggedIn ? (
        <button
          ref={accountButton}
          type="button"
          aria-label="账户"
          aria-expanded={accountOpen}
          data-testid="mobile-account-button"
          className="rounded-full p-2"
          onClick={() => {
            setMenuOpen(false);
            setDrawerTop(headerBottom());
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
        ref={menuButton}
        type="button"
        aria-label="菜单"
        aria-expanded={menuOpen}
        data-testid="mobile-menu-button"
        className="rounded p-2"
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
            <a href="/" className="border-b border-slate-100 px-4 py-3 font-medium">
              首页
            </a>
            {SECTIONS.map((s) => (
              <div key={s.title} className="border-b border-slate-100">
                <button
                  type="button"
                  className="flex w-full items-center justify-between px-4 py-3 font-medium"
                  aria-expanded={expanded === s.title}
                  onClick={() => setExpanded(expanded === s.title ? null : s.title)}
                >
                  {s.title}
                  <span className={`transition-transform ${expanded === s.title ? 'rotate-180' : ''}`}>⌄</span>
                </button>
                {expanded === s.title && (
                  <ul className="grid grid-cols-2 gap-1 px-3 pb-3">
                    {s.links.map((l) => (
                      <li key={l.href}>
                        <a href={l.href} className="block rounded-lg bg-slate-50 px-3 py-2 text-sm">
                          {l.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
                {expanded === s.title && s.title === '获取代理' && (
                  <div className="px-3 pb-3">
                    <SellerContact />
                  </div>
                )}
              </div>
            ))}
            <a href="/firmsServer" className="border-b border-slate-100 px-4 py-3 font-medium">
              企业服务
            </a>
            {!loggedIn && (
              <div className="mt-auto grid grid-cols-2 gap-3 p-4">
                <a href="/login" className="btn-outline">
                  登录
                </a>
                <a href="/login?type=sms" className="btn-primary">
                  注册
                </a>
              </div>
            )}
          </nav>
        </div>
      )}

      {accountOpen && loggedIn && (
        // Below the header (which stays visible, its person icon toggles the drawer), above the page.
        <div className="fixed inset-x-0 bottom-0 z-50" style={{ top: drawerTop }} data-testid="account-drawer">
          {/* The backdrop closes on a tap; keyboards and screen readers use the named close button instead. */}
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setAccountOpen(false)}
          />
          <div
            role="dialog"
            aria-label="我的账户"
            className="absolute inset-x-0 top-0 max-h-full overflow-y-auto rounded-b-2xl border-t border-slate-100 bg-white p-4 text-slate-800 shadow-xl"
          >
            <div className="mb-2 flex items-center justify-between">
              <span className="text-sm font-semibold text-ink">我的账户</span>
              <button
                ref={accountClose}
                type="button"
                aria-label="关闭账户面板"
                className="-mr-2 rounded-full p-2 text-slate-500 hover:bg-slate-100"
                onClick={() => setAccountOpen(false)}
              >
                <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
                  <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="1.8" />
                </svg>
              </button>
            </div>
            <LazyAccountPanel />
          </div>
        </div>
      )}
    </div>
  );
}
