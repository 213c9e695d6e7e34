// The default layout: header, floating sidebar, footer.
import type { ReactNode } from 'react';
import { Footer } from '../../components/shell/footer';
import { Header } from '../../components/shell/header';
import { SideToolbar } from '../../components/side-toolbar';
import { currentMineInfo } from '../../server/api-server';

export default async function DefaultLayout({ children }: { children: ReactNode }) {
  const mineInfo = await currentMineInfo();
  return (
    <div className="flex min-h-screen flex-col">
      <Header mineInfo={mineInfo} />
      <main className="flex-1">{children}</main>
      <SideToolbar />
      <Footer />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
