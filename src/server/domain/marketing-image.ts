// Marketing images (the top banner, bottomBtn2) as they may leave the server or be rendered: the picture must be a
// same-site path or an https URL, and a clickable image's link must match its kind (inOrOut 1 = a same-site path,
// 2 = an https URL), checked with the sanitiser's safeHref rule (as friend links are). Anything else drops the image.
// Pure, so the browser leaf (src/components/shell/top-banner.tsx) applies the same rule to what it fetches.

import type { MarketingImageDto } from '../../lib/marketing';
import { safeHref } from './html-sanitizer';

export type { MarketingImageDto };

/** The URL when safeHref keeps it as a same-site absolute path ("/..."), else null. */
function sitePath(raw: string): string | null {
  const link = safeHref(raw);
  return link && !link.external && link.href.startsWith('/') ? link.href : null;
}

/** The URL when safeHref keeps it as an external https URL, else null. */
function httpsUrl(raw: string): string | null {
  const link = safeHref(raw);
  return link?.external && /^https:\/\/[^/?#\s]/i.test(link.href) ? link.href : null;
}

/** The image as it may be shown, or null when its picture or link is not safe. */
export function safeMarketingImage(r: MarketingImageDto | null | undefined): MarketingImageDto | null {
  if (!r || typeof r.img !== 'string' || typeof r.clickUrl !== 'string') return null;
  const img = sitePath(r.img) ?? httpsUrl(r.img);
  if (!img) return null;
  const alt = typeof r.alt === 'string' ? r.alt : '';
  if (!r.isClick) return { img, isClick: false, clickUrl: '', inOrOut: r.inOrOut, alt };
  const clickUrl = r.inOrOut === 1 ? sitePath(r.clickUrl) : r.inOrOut === 2 ? httpsUrl(r.clickUrl) : null;
  if (!clickUrl) return null;
  return { img, isClick: true, clickUrl, inOrOut: r.inOrOut, alt };
}

/** Where uploaded marketing images are served from (the path a marketing image's img field holds). */
export const MARKETING_MEDIA_PREFIX = '/api/media/marketing/';
/** Where they are stored in R2 (binding FILES). */
export const MARKETING_R2_PREFIX = 'public/marketing/';
/** An uploaded file's name: a random UUID and the sniffed type. */
export const MARKETING_FILE_NAME = /^[0-9a-f-]{36}\.(jpg|png|webp)$/;

/** The R2 key of an uploaded marketing file named by its served path, or null for any other picture. */
export function marketingFileKey(img: string): string | null {
  if (!img.startsWith(MARKETING_MEDIA_PREFIX)) return null;
  const name = img.slice(MARKETING_MEDIA_PREFIX.length);
  return MARKETING_FILE_NAME.test(name) ? `${MARKETING_R2_PREFIX}${name}` : null;
}
