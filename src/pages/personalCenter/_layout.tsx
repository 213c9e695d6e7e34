// The personal-center layout: header, the centre's menu and the page. A visitor without a live session is sent to
// /login (the edge guard already catches a missing Mine_Info; this catches an expired token too).
import type { ReactNode } from 'react';
import { unstable_redirect as redirect } from 'waku/router/server';
import { Header } from '../../components/shell/header';
import { readyNav } from '../../lib/personal-center-nav';
import { currentMineInfo } from '../../server/api-server';
import { PcSidebar } from './_components/pc-sidebar';

export default async function PersonalCenterLayout({ children }: { children: ReactNode }) {
  const mineInfo = await currentMineInfo();
  if (!mineInfo) redirect('/login');
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <meta name="robots" content="noindex" />
      <Header mineInfo={mineInfo} />
      <div className="container-page flex flex-1 flex-col gap-6 py-4 md:flex-row md:py-6">
        <PcSidebar nav={readyNav()} />
        <main className="min-w-0 flex-1">{children}</main>
      </div>
      <footer className="py-6 text-center text-xs text-slate-400">© 2026 云枢代理 · 使用记录依法留存不少于6个月</footer>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
