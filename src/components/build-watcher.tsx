'use client';
// Checks /builds/latest.json every hour and reloads the current route when a new build is live (seed section 4).
import { useEffect } from 'react';
import { HOUR_MS } from '../lib/time';

declare const __BUILD_ID__: string;
export const BUILD_CHECK_MS = HOUR_MS;

export function BuildWatcher() {
  useEffect(() => {
    const ours = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
    const check = async () => {
      try {
        const res = await fetch('/builds/latest.json', { cache: 'no-store' });
        if (!res.ok) return;
        const { buildId } = (await res.json()) as { buildId?: string };
        if (buildId && buildId !== ours) window.location.reload();
      } catch {
        // Offline or deploying: try again next hour.
      }
    };
    const timer = setInterval(check, BUILD_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return null;
}
