'use client';
// The console's navigation links, marking the current screen (the router knows the path on both render sides). On a
// phone the links are a strip that scrolls sideways: the current one is brought into view.
import { useEffect, useRef } from 'react';
import { useRouter } from 'waku/router/client';
import type { ConsoleNavItem } from './console-nav';

export function AdminNavLinks({ items }: { items: ConsoleNavItem[] }) {
  const { path } = useRouter();
  const nav = useRef<HTMLElement>(null);
  const current = (href: string) => (href === '/admin' ? path === '/admin' : path.startsWith(href));
  const activeHref = items.find((i) => current(i.href))?.href;
  useEffect(() => {
    const strip = nav.current;
    const active = activeHref ? strip?.querySelector<HTMLElement>(`a[href="${activeHref}"]`) : null;
    if (!strip || !active || strip.scrollWidth <= strip.clientWidth) return;
    // Only the strip scrolls (scrollIntoView would move the page too).
    strip.scrollLeft = active.offsetLeft - (strip.clientWidth - active.offsetWidth) / 2;
  }, [activeHref]);
  return (
    <nav
      ref={nav}
      aria-label="运营后台"
      className="relative flex gap-1 overflow-x-auto px-2 pb-2 md:flex-col md:px-2 md:pb-0"
    >
      {items.map((item) => (
        <a
          key={item.href}
          href={item.href}
          aria-current={current(item.href) ? 'page' : undefined}
          className="shrink-0 rounded-md px-3 py-2 text-sm hover:bg-slate-800 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
        >
          {item.label}
        </a>
      ))}
    </nav>
  );
}
