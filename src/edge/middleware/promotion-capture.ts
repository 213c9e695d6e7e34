// Promotion-link capture: a page request carrying did (and optionally from, keyword) gets 30-day cookies for each, so
// registration can credit the promoter even if local storage is cleared; from=seller traffic is marked with a
// seller_traffic cookie and the X-Traffic-Source response header. Malformed links set nothing (the page's client leaf
// shows 推广链接有误，请联系客服).
import type { MiddlewareHandler } from 'hono';
import { isSellerTraffic, PROMOTION_COOKIE_DAYS, PROMOTION_KEYS, parsePromotion } from '../../lib/promotion';
import { secureCookiesFor, serializeCookie, writableHeaders } from '../response';
import type { EdgeEnv } from '../types';

export interface PromotionCaptureOptions {
  secureCookies?: boolean;
  /** Paths under these prefixes are not pages and never capture. */
  skipPrefixes?: string[];
}

const DEFAULT_SKIP = ['/api', '/extract', '/node/', '/pay/', '/assets/', '/RSC/', '/builds/', '/code/', '/dev/'];

/** Store valid promotion parameters in 30-day cookies. */
export function promotionCapture(options: PromotionCaptureOptions = {}): MiddlewareHandler<EdgeEnv> {
  const skip = options.skipPrefixes ?? DEFAULT_SKIP;
  return async function promotionCaptureMiddleware(c, next) {
    await next();
    if (c.req.method !== 'GET') return;
    const url = new URL(c.req.url);
    if (!url.searchParams.has('did') || skip.some((p) => url.pathname.startsWith(p))) return;
    const parsed = parsePromotion(url.searchParams);
    if (parsed.kind !== 'ok') return;
    const secure = options.secureCookies ?? secureCookiesFor(c);
    const maxAgeSeconds = PROMOTION_COOKIE_DAYS * 86_400;
    const h = writableHeaders(c);
    for (const k of PROMOTION_KEYS) {
      const v = parsed.params[k];
      // A new link replaces the whole attribution: keys it lacks are cleared.
      h.append(
        'Set-Cookie',
        serializeCookie({
          name: k,
          value: v ? encodeURIComponent(v) : '',
          maxAgeSeconds: v ? maxAgeSeconds : 0,
          secure,
        }),
      );
    }
    const seller = isSellerTraffic(parsed.params);
    h.append(
      'Set-Cookie',
      serializeCookie({
        name: 'seller_traffic',
        value: seller ? '1' : '',
        maxAgeSeconds: seller ? maxAgeSeconds : 0,
        secure,
      }),
    );
    if (seller) h.set('X-Traffic-Source', 'seller');
  };
}
