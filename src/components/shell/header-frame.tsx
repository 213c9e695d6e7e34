'use client';
// The header's frame: sticky, transparent over the hero of home-like pages while at scroll top with no menu open.
import { useAtomValue } from 'jotai';
import { type ReactNode, useEffect, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { isHomeLikePath } from '../../lib/site';
import { anyMenuOpenAtom } from '../../state/ui';

export function HeaderFrame({ children }: { children: ReactNode }) {
  const homeLike = isHomeLikePath(useRouter().path);
  const [atTop, setAtTop] = useState(true);
  const menuOpen = useAtomValue(anyMenuOpenAtom);
  useEffect(() => {
    if (!homeLike) return;
    const onScroll = () => setAtTop(window.scrollY < 8);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [homeLike]);
  const transparent = homeLike && atTop && !menuOpen;
  return (
    <header
      data-testid="site-header"
      data-transparent={transparent ? '1' : '0'}
      className={`group/header top-0 z-40 w-full transition-colors duration-200 ${homeLike ? 'fixed' : 'sticky'} ${
        transparent
          ? 'bg-transparent text-white max-md:bg-ink/70 hover:bg-white hover:text-slate-800 hover:shadow-sm'
          : 'bg-white text-slate-800 shadow-[0_1px_0_rgba(15,27,61,0.08)]'
      }`}
    >
      {children}
    </header>
  );
}
