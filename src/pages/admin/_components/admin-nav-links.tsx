'use client';
// The console's navigation links, marking the current screen (the router knows the path on both render sides).
import { useRouter } from 'waku/router/client';
import type { AdminNavItem } from './admin-nav';

export function AdminNavLinks({ items }: { items: AdminNavItem[] }) {
  const { path } = useRouter();
  const current = (href: string) => (href === '/admin' ? path === '/admin' : path.startsWith(href));
  return (
    <nav aria-label="运营后台" className="flex gap-1 overflow-x-auto px-2 pb-2 md:flex-col md:px-2 md:pb-0">
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
