'use client';
// The opened mobile menu (links of every section, seller contact): loaded when the menu is first opened, not with every
// page (issue 12: home-page JavaScript budget). ./mobile-nav.tsx renders it.
import { useState } from 'react';
import { GET_PROXY_LINKS, HELP_LINKS, PRODUCT_LINKS, SCENARIOS } from '../../lib/site';
import { Logo } from '../logo';
import { SellerContact } from '../trust/seller-contact';

const SECTIONS = [
  { title: '产品订购', links: PRODUCT_LINKS },
  { title: '获取代理', links: GET_PROXY_LINKS },
  { title: '业务场景', links: SCENARIOS.map((s) => ({ label: s.label, href: `/businessScen/${s.type}` })) },
  { title: '帮助中心', links: HELP_LINKS },
];

export function MobileMenuPanel({ loggedIn, onClose }: { loggedIn: boolean; onClose: () => void }) {
  const [expanded, setExpanded] = useState<string | null>('产品订购');
  return (
    <nav
      aria-label="移动端导航"
      className="absolute inset-y-0 left-0 flex w-[82%] max-w-xs flex-col overflow-y-auto bg-white text-slate-800 shadow-xl"
    >
      <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
        <Logo />
        <button type="button" aria-label="关闭" className="p-2 text-slate-500" onClick={onClose}>
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
  );
}
