// Desktop navigation with hover panels (pure CSS): product order, get proxy (with the assigned seller's phone),
// help centre (with news), business scenarios.
import type { ReactNode } from 'react';
import { GET_PROXY_LINKS, HELP_LINKS, type NavLink, PRODUCT_LINKS, SCENARIOS } from '../../lib/site';
import { SellerContact } from '../trust/seller-contact';

function Panel({
  links,
  columns = 2,
  news,
  aside,
}: {
  links: NavLink[];
  columns?: number;
  news?: NavLink[];
  aside?: ReactNode;
}) {
  return (
    <div className="invisible fixed inset-x-0 top-[var(--dropdown-top)] z-30 border-t border-slate-100 bg-white text-slate-800 opacity-0 shadow-lg transition-opacity duration-150 group-hover/item:visible group-hover/item:opacity-100 group-focus-within/item:visible group-focus-within/item:opacity-100">
      <div className="container-page flex gap-8 py-6">
        <ul className={`grid flex-1 gap-2 ${columns === 4 ? 'grid-cols-4' : 'grid-cols-2 lg:grid-cols-4'}`}>
          {links.map((l) => (
            <li key={l.href}>
              <a href={l.href} className="block rounded-lg p-3 hover:bg-brand-50">
                <span className="block font-medium text-ink">{l.label}</span>
                {l.desc && <span className="mt-1 block text-xs text-slate-500">{l.desc}</span>}
              </a>
            </li>
          ))}
        </ul>
        {aside && <div className="w-72 shrink-0 self-start">{aside}</div>}
        {news && news.length > 0 && (
          <div className="w-80 shrink-0 border-l border-slate-100 pl-6" data-testid="header-news">
            <p className="mb-2 text-xs font-semibold tracking-wider text-slate-500">最新动态</p>
            <ul className="space-y-2 text-sm">
              {news.map((n) => (
                <li key={n.href}>
                  <a href={n.href} className="line-clamp-1 text-slate-700 hover:text-brand-600">
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

function Item({
  label,
  href,
  links,
  news,
  aside,
}: {
  label: string;
  href: string;
  links?: NavLink[];
  news?: NavLink[];
  aside?: ReactNode;
}) {
  return (
    <li className="group/item flex h-full items-center">
      <a
        href={href}
        className="flex h-full items-center gap-1 px-3 text-[15px] font-medium hover:text-brand-600"
        aria-haspopup={links ? 'true' : undefined}
      >
        {label}
        {links && (
          <svg
            viewBox="0 0 20 20"
            className="h-4 w-4 opacity-60 transition-transform group-hover/item:rotate-180"
            aria-hidden="true"
          >
            <path d="M5.5 7.5 10 12l4.5-4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          </svg>
        )}
      </a>
      {links && <Panel links={links} {...(news ? { news } : {})} {...(aside ? { aside } : {})} />}
    </li>
  );
}

export function DesktopNav({ news = [] }: { news?: NavLink[] }) {
  const scenarioLinks = SCENARIOS.map((s) => ({ label: s.label, href: `/businessScen/${s.type}`, desc: s.desc }));
  return (
    <nav aria-label="主导航" className="hidden h-full md:block">
      <ul className="flex h-full items-center">
        <Item label="首页" href="/" />
        <Item label="产品订购" href="/buy?type=10" links={PRODUCT_LINKS} />
        <Item label="获取代理" href="/getProxy/10" links={GET_PROXY_LINKS} aside={<SellerContact />} />
        <Item label="业务场景" href="/businessScen/dataCrawl" links={scenarioLinks} />
        <Item label="帮助中心" href="/help" links={HELP_LINKS} news={news} />
        <Item label="企业服务" href="/firmsServer" />
      </ul>
    </nav>
  );
}
