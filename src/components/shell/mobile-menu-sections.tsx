'use client';
// The opened phone menu's body (loaded the first time the menu opens, to keep it off the home page's first load): the desktop
// sections as accordions, the assigned seller's phone under 获取代理, and login/register for visitors. The drawer
// itself (backdrop, close button, Esc, focus return) stays in mobile-nav.tsx, so it works from the first tap.
import { GET_PROXY_LINKS, HELP_LINKS, PRODUCT_LINKS, SCENARIOS } from '../../lib/site-links';
import { SellerContact } from '../trust/seller-contact';

const SECTIONS = [
  { title: '产品订购', links: PRODUCT_LINKS },
  { title: '获取代理', links: GET_PROXY_LINKS },
  { title: '业务场景', links: SCENARIOS.map((s) => ({ label: s.label, href: `/businessScen/${s.type}` })) },
  { title: '帮助中心', links: HELP_LINKS },
];

export function MobileMenuSections({
  loggedIn,
  expanded,
  setExpanded,
}: {
  loggedIn: boolean;
  /** The open section (kept by the drawer, so it survives closing and reopening). */
  expanded: string | null;
  setExpanded: (title: string | null) => void;
}) {
  return (
    <>
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
    </>
  );
}
