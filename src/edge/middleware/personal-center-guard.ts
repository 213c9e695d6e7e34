// The personal-centre guard (seed section 5): a page or RSC request under /personalCenter needs a Mine_Info cookie
// holding an id; otherwise both session cookies are cleared and the browser goes to /login. The token itself is
// checked by every action and by the personal-centre layout; this guard only keeps logged-out visitors out early.
import type { MiddlewareHandler } from 'hono';
import { decodeMineInfoCookie, MINE_INFO_COOKIE, readCookie } from '../../lib/mine-info';
import { clearSessionCookies, secureCookiesFor, writableHeaders } from '../response';
import type { EdgeEnv } from '../types';

export interface GuardOptions {
  secureCookies?: boolean;
}

const PAGE = /^\/personalCenter(\/|$)/;
const RSC = /^\/RSC\/R\/personalCenter[/.]/;

/** True for personal-centre pages and their client-navigation payloads. */
export const isPersonalCenterPath = (path: string): boolean => PAGE.test(path) || RSC.test(path);

/** Redirect logged-out visitors away from the personal centre. */
export function personalCenterGuard(options: GuardOptions = {}): MiddlewareHandler<EdgeEnv> {
  return async function personalCenterGuardMiddleware(c, next) {
    const path = new URL(c.req.url).pathname;
    if (!isPersonalCenterPath(path)) return next();
    const info = decodeMineInfoCookie(readCookie(c.req.header('cookie'), MINE_INFO_COOKIE));
    if (info) return next();
    const clear = clearSessionCookies(options.secureCookies ?? secureCookiesFor(c));
    if (RSC.test(path)) {
      // Client navigation: the layout answers with a router redirect; the cookies are cleared here.
      await next();
      const h = writableHeaders(c);
      for (const v of clear) h.append('Set-Cookie', v);
      return;
    }
    const target = `/login?redirect=${encodeURIComponent(path + new URL(c.req.url).search)}`;
    const res = c.redirect(target, 302);
    for (const v of clear) res.headers.append('Set-Cookie', v);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  };
}
