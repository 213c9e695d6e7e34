'use client';
// The personal-centre menu: collapsible on desktop, a horizontal scroller on phones; marks the current page.
import { useAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useRouter } from 'waku/router/client';
import type { PcNavGroup } from '../../../lib/personal-center-nav';
import { pcMenuCollapsedAtom } from '../../../state/ui';

export function PcSidebar({ nav }: { nav: PcNavGroup[] }) {
  const { path } = useRouter();
  const [collapsed, setCollapsed] = useAtom(pcMenuCollapsedAtom);
  const isActive = (href: string) => href.split('?')[0] === path;
  const stripRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // On phones the menu is a horizontal strip: bring the current page's chip into view.
    const strip = stripRef.current;
    const active = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (strip && active) strip.scrollLeft = active.offsetLeft - 16;
  }, []);
  return (
    <>
      <nav
        ref={stripRef}
        aria-label="个人中心菜单"
        className="-mx-4 overflow-x-auto border-b border-slate-200 bg-white px-4 md:hidden"
      >
        <ul className="flex gap-1 py-2">
          {nav
            .flatMap((g) => g.items)
            .map((i) => (
              <li key={i.href}>
                <a
                  href={i.href}
                  aria-current={isActive(i.href) ? 'page' : undefined}
                  className={`block rounded-full px-3 py-1.5 text-sm whitespace-nowrap ${isActive(i.href) ? 'bg-brand-600 text-white' : 'text-slate-600'}`}
                >
                  {i.label}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <aside
        className={`hidden shrink-0 transition-[width] md:block ${collapsed ? 'w-16' : 'w-56'}`}
        aria-label="个人中心菜单"
      >
        <div className="card sticky top-24 overflow-hidden">
          <button
            type="button"
            className="flex w-full items-center justify-end p-2 text-slate-400 hover:text-slate-600"
            onClick={() => setCollapsed(!collapsed)}
            aria-label={collapsed ? '展开菜单' : '收起菜单'}
            aria-expanded={!collapsed}
          >
            <svg
              viewBox="0 0 20 20"
              className={`h-5 w-5 transition-transform ${collapsed ? 'rotate-180' : ''}`}
              aria-hidden="true"
            >
              <path d="M12.5 5 7.5 10l5 5" fill="none" stroke="currentColor" strokeWidth="1.8" />
            </svg>
          </button>
          {nav.map((g) => (
            <div key={g.title} className="pb-2">
              {!collapsed && (
                <div className="px-4 pt-2 pb-1 text-xs font-medium tracking-wider text-slate-400">{g.title}</div>
              )}
              <ul>
                {g.items.map((i) => (
                  <li key={i.href}>
                    <a
                      href={i.href}
                      title={i.label}
                      aria-current={isActive(i.href) ? 'page' : undefined}
                      className={`block truncate px-4 py-2 text-sm ${isActive(i.href) ? 'border-r-2 border-brand-600 bg-brand-50 font-medium text-brand-700' : 'text-slate-600 hover:bg-slate-50'}`}
                    >
                      {collapsed ? i.label.slice(0, 2) : i.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </aside>
    </>
  );
}
