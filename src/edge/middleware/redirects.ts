// Redirects: the seed's 301 table, then operator rules (D1, cached in KV) for page-like GET/HEAD paths.
import type { MiddlewareHandler } from 'hono';
import { lookupRedirect, redirectLocation, STATIC_REDIRECTS } from '../../server/domain/redirects';
import type { EdgeEnv } from '../types';

export interface RedirectsOptions {
  /** Paths under these prefixes never consult the dynamic table (APIs, assets, RSC payloads). */
  skipPrefixes?: string[];
}

const DEFAULT_SKIP = ['/api', '/extract', '/node/', '/pay/', '/assets/', '/RSC/', '/builds/', '/code/', '/dev/'];

/** Answer 301s from the static table and operator rules before any page renders. */
export function redirects(options: RedirectsOptions = {}): MiddlewareHandler<EdgeEnv> {
  const skip = options.skipPrefixes ?? DEFAULT_SKIP;
  return async function redirectsMiddleware(c, next) {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    const url = new URL(c.req.url);
    const path = url.pathname;
    const fixed = STATIC_REDIRECTS[path];
    if (fixed) return c.redirect(redirectLocation(fixed, url.search), 301);
    if (path.length > 512 || skip.some((p) => path.startsWith(p))) return next();
    const rule = await lookupRedirect(c.env.DB, c.env.KV, path);
    if (rule) return c.redirect(redirectLocation(rule.to, url.search), rule.status as 301);
    return next();
  };
}
