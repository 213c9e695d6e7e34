// The one error handler: logs with the request id and answers without internals (JSON {E} for API paths, a small
// Chinese HTML page otherwise).
import type { Context, MiddlewareHandler } from 'hono';
import { isAppError } from '../../lib/errors';
import { messages } from '../../lib/messages';

/** Turn any thrown error into a safe response. */
export function handleError(err: unknown, c: Context): Response {
  const requestId = c.get('requestId') ?? '';
  if (isAppError(err)) return c.json({ E: err.message }, err.status as 400);
  console.error(
    JSON.stringify({
      level: 'error',
      requestId,
      path: new URL(c.req.url).pathname,
      error: String(err),
      stack: (err as Error)?.stack,
    }),
  );
  const path = new URL(c.req.url).pathname;
  if (path.startsWith('/api') || path.startsWith('/node/') || path.startsWith('/extract')) {
    return c.json({ E: messages.internal }, 500);
  }
  return c.html(
    `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>服务繁忙</title><body style="font-family:sans-serif;text-align:center;padding:4rem 1rem"><h1>${messages.internal}</h1><p>请求编号：${requestId.replace(/[^\w-]/g, '')}</p><p><a href="/">返回首页</a></p></body></html>`,
    500,
  );
}

/** Catch errors raised below this middleware (Hono records them on c.error) and answer safely. */
export function errorBoundary(): MiddlewareHandler {
  return async function errorBoundaryMiddleware(c, next) {
    try {
      await next();
    } catch (err) {
      c.res = handleError(err, c);
      return;
    }
    if (c.error) c.res = handleError(c.error, c);
  };
}
