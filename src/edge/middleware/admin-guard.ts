// The operator console's edge guard: /admin pages and their client-navigation payloads are never indexed or cached,
// and a visitor without the operator cookie goes to /admin/login (the cookie is HttpOnly, so this checks only that it
// is there; the console layout checks the session itself, and every operator action checks it again).
import type { MiddlewareHandler } from 'hono';
import { readCookie } from '../../lib/mine-info';
import { writableHeaders } from '../response';
import type { EdgeEnv } from '../types';

export interface AdminGuardOptions {
  /** The operator session cookie (domain/operators OPERATOR_COOKIE). */
  cookieName?: string;
  loginPath?: string;
}

const PAGE = /^\/admin(\/|$)/;
const RSC = /^\/RSC\/R\/admin([/.]|$)/;

/** True for console pages and their client-navigation payloads. */
export const isAdminPath = (path: string): boolean => PAGE.test(path) || RSC.test(path);

/** Keep the console out of indexes and caches and send visitors without an operator cookie to its login. */
export function adminGuard(options: AdminGuardOptions = {}): MiddlewareHandler<EdgeEnv> {
  const cookieName = options.cookieName ?? 'admin_token';
  const loginPath = options.loginPath ?? '/admin/login';
  return async function adminGuardMiddleware(c, next) {
    const path = new URL(c.req.url).pathname;
    if (!isAdminPath(path)) return next();
    const isLogin = path === loginPath || path.startsWith('/RSC/R/admin/login');
    if (!isLogin && !RSC.test(path) && !readCookie(c.req.header('cookie'), cookieName)) {
      const res = c.redirect(loginPath, 302);
      res.headers.set('Cache-Control', 'no-store');
      res.headers.set('X-Robots-Tag', 'noindex, nofollow');
      return res;
    }
    await next();
    const h = writableHeaders(c);
    h.set('X-Robots-Tag', 'noindex, nofollow');
    h.set('Cache-Control', 'no-store');
  };
}
