// The normal layout: header and footer without the floating sidebar (login, payment, legal pages).
import type { ReactNode } from 'react';
import { Footer } from '../../components/shell/footer';
import { Header } from '../../components/shell/header';
import { currentMineInfo } from '../../server/api-server';

export default async function NormalLayout({ children }: { children: ReactNode }) {
  const mineInfo = await currentMineInfo();
  return (
    <div className="flex min-h-screen flex-col">
      <Header mineInfo={mineInfo} />
      <main className="flex-1">{children}</main>
      <Footer />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
