'use client';
// Keeps the narrow-screen flag (viewport below 1366 px) in the store for components that adapt their layout.
import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { isNarrowScreenAtom, NARROW_SCREEN_MAX_WIDTH } from '../../state/ui';

export function ViewportWatcher() {
  const setNarrow = useSetAtom(isNarrowScreenAtom);
  useEffect(() => {
    const mq = window.matchMedia(`(max-width: ${NARROW_SCREEN_MAX_WIDTH}px)`);
    const sync = () => {
      setNarrow(mq.matches);
      document.documentElement.toggleAttribute('data-narrow', mq.matches);
    };
    sync();
    mq.addEventListener('change', sync);
    return () => mq.removeEventListener('change', sync);
  }, [setNarrow]);
  return null;
}
