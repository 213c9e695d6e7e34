// Applies a status chosen by the page being rendered (see src/server/page-status.ts) to the HTML response.
import type { MiddlewareHandler } from 'hono';
import { unstable_getContextData as getContextData } from 'waku/server';

const KEY = 'pageStatus';

/** After rendering, replace the response status with the one the page set, if any. */
export function pageStatus(): MiddlewareHandler {
  return async function pageStatusMiddleware(c, next) {
    await next();
    const status = (getContextData() as Record<string, unknown>)[KEY];
    if (typeof status !== 'number' || status === c.res.status || status < 200 || status > 599) return;
    c.res = new Response(c.res.body, { status, statusText: '', headers: c.res.headers });
  };
}
