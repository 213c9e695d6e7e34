// The layout every page shares: global styles and the client providers. The three page layouts sit below it.
import '../styles/global.css';
import type { ReactNode } from 'react';
import { Providers } from '../components/providers';

export default async function RootLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
