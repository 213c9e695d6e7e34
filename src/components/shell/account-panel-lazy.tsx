'use client';
// The account panel is only seen after a click (desktop dropdown, mobile drawer): its code (meal counts, key copy,
// seller contact) loads then, not with every page (the home-page JavaScript budget).
import { lazy, Suspense } from 'react';

const load = () => import('./account-panel');
const Panel = lazy(() => load().then((m) => ({ default: m.AccountPanel })));

/** Start fetching the panel's code early (hover, focus) so it is usually ready when opened. */
export const preloadAccountPanel = () => {
  void load();
};

export function LazyAccountPanel() {
  return (
    <Suspense fallback={<p className="py-6 text-center text-sm text-slate-400">加载中…</p>}>
      <Panel />
    </Suspense>
  );
}
