'use client';
// The promotional top banner (seed: shown when a centre image is set and the viewer is on desktop). Rendered inside the
// header; CSS hides it at 768 px and below and moves the dropdowns to 150 px while it is present. Re-fetched when the
// session changes (Activity.GetActivityMarketingImg may target guests or users differently).
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'waku/router/client';
import type { MarketingImageDto } from '../../lib/marketing';
import { api } from '../../state/api';
import { mineInfoAtom } from '../../state/session';

export type MarketingImage = MarketingImageDto;

export function TopBanner({ initial }: { initial: MarketingImage | null }) {
  // The server applies the safe-URL rule before sending an image (src/server/domain/marketing-image.ts).
  const [image, setImage] = useState(initial);
  const userId = useAtomValue(mineInfoAtom)?.id ?? null;
  const lastUser = useRef(userId);
  useEffect(() => {
    if (lastUser.current === userId) return;
    lastUser.current = userId;
    void api
      .call('Activity.GetActivityMarketingImg', {}, { fresh: true, silent: true })
      .then((r) => setImage(r ? (r.imges?.centerImg ?? null) : null));
  }, [userId]);
  useEffect(() => {
    const root = document.documentElement;
    const desktop = window.matchMedia('(min-width: 769px)');
    const sync = () => {
      if (image && desktop.matches) root.dataset.topBanner = '1';
      else delete root.dataset.topBanner;
    };
    sync();
    desktop.addEventListener('change', sync);
    return () => {
      desktop.removeEventListener('change', sync);
      delete root.dataset.topBanner;
    };
  }, [image]);
  if (!image) return null;
  const picture = (
    <img src={image.img} alt={image.alt} width={1920} height={70} className="h-[70px] w-full object-cover" />
  );
  const body = !image.isClick ? (
    picture
  ) : image.inOrOut === 1 ? (
    <Link to={image.clickUrl as '/'}>{picture}</Link>
  ) : (
    <a href={image.clickUrl} target="_blank" rel="noopener noreferrer">
      {picture}
    </a>
  );
  return (
    <div
      data-top-banner-slot=""
      data-testid="top-banner"
      className="hidden h-[70px] overflow-hidden bg-brand-800 md:block"
    >
      {body}
    </div>
  );
}
