// The site header (server component): logo, navigation with hover panels, login/register or the account menu, and
// the mobile controls. Interactive parts are small client leaves.
import { maskPhone } from '../../lib/format';
import type { MineInfo } from '../../server/domain/accounts';
import { Logo } from '../logo';
import { AccountMenu, SessionSync } from './account-menu';
import { DesktopNav } from './desktop-nav';
import { HeaderFrame } from './header-frame';
import { MobileNav } from './mobile-nav';

export function Header({ mineInfo }: { mineInfo: MineInfo | null }) {
  return (
    <>
      <SessionSync mineInfo={mineInfo} />
      <HeaderFrame>
        <div className="container-page flex h-14 items-center justify-between gap-4 md:h-20">
          <a href="/" aria-label="返回首页" className="shrink-0">
            <Logo light={false} />
          </a>
          <div className="flex h-full flex-1 items-center justify-end gap-4 md:justify-between">
            <DesktopNav />
            {mineInfo ? (
              <AccountMenu phone={maskPhone(mineInfo.phone)} />
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
