// The site footer: logo and QR code, business contacts, service links, navigation columns, use cases, friend links
// (home page only), the disclaimer, the operator notice and filings.
import type { ReactNode } from 'react';
import type { ActionOutput } from '../../lib/api-core';
import { GET_PROXY_LINKS, HELP_LINKS, type NavLink, PRODUCT_LINKS, SCENARIOS, SITE } from '../../lib/site';
import { Logo } from '../logo';

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-3 text-sm font-semibold text-white">{title}</h3>
      <ul className="space-y-2 text-sm">{children}</ul>
    </div>
  );
}

const linkClass = 'text-slate-400 hover:text-white';

const FOOTER_COLUMNS: { title: string; links: NavLink[] }[] = [
  { title: '产品服务', links: PRODUCT_LINKS },
  { title: '获取代理', links: GET_PROXY_LINKS },
  { title: '使用场景', links: SCENARIOS.map((s) => ({ label: s.label, href: `/businessScen/${s.type}` })) },
  {
    title: '服务支持',
    links: [
      ...HELP_LINKS,
      { label: '用户协议', href: '/userAgreement' },
      { label: '隐私政策', href: '/privacyPolicy' },
    ],
  },
];

export type FriendLink = ActionOutput<'Link.queryLinks'>['list'][number];

export async function Footer({ friendLinks }: { friendLinks?: FriendLink[] }) {
  return (
    <footer className="bg-ink text-slate-400" data-testid="site-footer">
      <div className="container-page grid gap-10 py-12 md:grid-cols-[1.2fr_2fr]">
        <div className="space-y-4">
          <div className="text-white">
            <Logo light />
          </div>
          <p className="max-w-xs text-sm leading-6">
            {SITE.slogan}，覆盖全国300+城市，为企业数据业务提供稳定、合规的网络出口。
          </p>
          <div className="flex items-center gap-4">
            <img
              src={SITE.businessWechatQr}
              width={96}
              height={96}
              loading="lazy"
              decoding="async"
              alt="扫码添加商务微信"
              className="rounded-lg bg-white p-1"
            />
            <div className="space-y-1 text-sm">
              <div>
                客服热线：<span className="text-white">{SITE.hotline}</span>
              </div>
              <div>
                商务合作：<span className="text-white">{SITE.businessPhone}</span>
              </div>
              <div>邮箱：{SITE.email}</div>
              <div className="text-xs">扫码添加商务微信</div>
            </div>
          </div>
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {FOOTER_COLUMNS.map((col) => (
            <Column key={col.title} title={col.title}>
              {col.links.map((l) => (
                <li key={l.href}>
                  <a className={linkClass} href={l.href}>
                    {l.label}
                  </a>
                </li>
              ))}
            </Column>
          ))}
        </div>
      </div>
      {friendLinks && friendLinks.length > 0 && (
        <div className="container-page border-t border-white/10 py-4 text-sm" data-testid="friend-links">
          <span className="mr-3 text-slate-300">友情链接：</span>
          {friendLinks.map((l) => (
            <a
              key={l.linkUrl}
              href={l.linkUrl}
              target={l.linkTarget || '_blank'}
              rel={[l.noFollow ? 'nofollow' : '', 'noopener'].filter(Boolean).join(' ')}
              className={`${linkClass} mr-4`}
            >
              {l.linkName}
            </a>
          ))}
        </div>
      )}
      <div className="border-t border-white/10">
        <div className="container-page space-y-2 py-6 text-xs leading-5">
          <p>
            免责声明：本平台仅提供合法合规的网络代理服务，严禁用于任何违反中华人民共和国法律法规的用途。用户须完成实名认证，使用记录依法留存不少于6个月。
          </p>
          <p>
            {SITE.companyName} · {SITE.operatorLicence} ·{' '}
            <a className={linkClass} href="https://beian.miit.gov.cn/" target="_blank" rel="noopener nofollow">
              {SITE.icp}
            </a>{' '}
            · {SITE.police} ·{' '}
            <a className={linkClass} href={SITE.overseasDynamicUrl} target="_blank" rel="noopener">
              海外动态代理
            </a>{' '}
            ·{' '}
            <a className={linkClass} href={SITE.overseasStaticUrl} target="_blank" rel="noopener">
              海外静态代理
            </a>{' '}
            ·{' '}
            <a className={linkClass} href={SITE.operatorConventionUrl} target="_blank" rel="noopener">
              网站运营者约定
            </a>{' '}
            ·{' '}
            <a className={linkClass} href="/sitemap.xml">
              网站地图
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
