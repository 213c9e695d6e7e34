'use client';
// Client-wide providers: the jotai store (one per browser; one per server render), toasts and the build watcher.
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { browserStore } from '../state/store';
import { BuildWatcher } from './build-watcher';
import { Toaster } from './toaster';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <Provider {...(browserStore ? { store: browserStore } : {})}>
      {children}
      <Toaster />
      <BuildWatcher />
    </Provider>
  );
}
