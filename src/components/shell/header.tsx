// The site header (server component): the promotional top banner, logo, navigation with hover panels (news in the help
// panel), login/register or the account menu, and the mobile controls. Interactive parts are small client leaves; the
// online-chat loader and the attribution capture ride along here because every layout renders the header.
import { maskPhone } from '../../lib/format';
import type { MineInfo } from '../../server/domain/accounts';
import { load } from '../../server/page-data';
import { latestNews } from '../../server/public-data';
import { Logo } from '../logo';
// Issue 6: the real-name gate, the notice bell and the red-packet launcher.
import { NoticeBell } from '../trust/notice-bell';
import { RealNameGate } from '../trust/real-name-gate';
import { RedPacketWidget } from '../trust/red-packet-widget';
import { AccountMenu, SessionSync } from './account-menu';
import { Attribution } from './attribution';
import { DesktopNav } from './desktop-nav';
import { HeaderFrame } from './header-frame';
import { MobileNav } from './mobile-nav';
import { OnlineChat } from './online-chat';
import { TopBanner } from './top-banner';

/** Header news shows 4 items (seed section 9). */
const HEADER_NEWS = 4;

export async function Header({ mineInfo }: { mineInfo: MineInfo | null }) {
  const [news, marketing] = await Promise.all([latestNews(), load('Activity.GetActivityMarketingImg', {}, null)]);
  return (
    <>
      <SessionSync mineInfo={mineInfo} />
      <Attribution />
      <OnlineChat />
      <RealNameGate />
      <HeaderFrame>
        <TopBanner initial={marketing?.imges?.centerImg ?? null} />
        <div className="container-page flex h-14 items-center justify-between gap-4 md:h-20">
          <a href="/" aria-label="云枢代理 返回首页" className="shrink-0">
            <Logo light={false} />
          </a>
          <div className="flex h-full flex-1 items-center justify-end gap-3 md:justify-between md:gap-4">
            {/* In the bar on phones, never over the content; from md up it floats at the left edge. */}
            <RedPacketWidget />
            <DesktopNav news={news.slice(0, HEADER_NEWS).map((n) => ({ label: n.Title, href: n.Url }))} />
            {mineInfo ? (
              <div className="flex h-full items-center gap-1">
                <NoticeBell />
                <AccountMenu phone={maskPhone(mineInfo.phone)} />
              </div>
            ) : (
              <div className="hidden items-center gap-2 md:flex">
                <a href="/login" className="btn text-current hover:bg-slate-900/5" data-testid="login-button">
                  登录
                </a>
                <a href="/login?type=sms" className="btn-primary" data-testid="register-button">
                  免费注册
                </a>
              </div>
            )}
            <MobileNav loggedIn={mineInfo !== null} />
          </div>
        </div>
      </HeaderFrame>
    </>
  );
}
