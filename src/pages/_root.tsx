// The HTML document shared by every page (Waku adds charset and viewport itself).
import type { ReactNode } from 'react';

export default async function Root({ children }: { children: ReactNode }) {
  return (
    <html lang="zh-CN">
      <head>
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
        <meta name="theme-color" content="#1d54f5" />
      </head>
      <body id="top">{children}</body>
    </html>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
