// The one error path of the edge. Every thrown error becomes an AppError (anything that is not one is logged with the
// request id and its stack, and answers "服务繁忙" 500), and the answer takes the surface's own format:
//   /api            {E: text} in the request's envelope (the route supplies its encoder and cookies)
//   /extract        the extraction codes: {"code":n,"msg":...} or "ERROR n ..." (docs/extraction-api.md)
//   /pay/notify/    WeChat Pay's {"code":"FAIL","message":...} with a 4xx/5xx status
//   /node/          the node API's {"code":status,"msg":...} (docs/node-api.md)
//   anything else   a small Chinese HTML page with the request id
// No answer ever carries a stack trace or an internal message.
import type { Context } from 'hono';
import { type AppError, asAppError, isAppError } from '../lib/errors';
import { formatError, requestedFormat } from '../server/domain/extract-params';
import { notifyFailure } from '../server/providers/pay/wechat';

export type ErrorSurface =
  | { surface: 'api'; reply: (status: number, body: { E: string }) => Response | Promise<Response> }
  | { surface: 'extract'; format: 'txt' | 'json' }
  | { surface: 'pay-notify' }
  | { surface: 'node' }
  | { surface: 'page' };

/** The Content-Type of /extract answers per requested format. */
export const EXTRACT_CONTENT_TYPES = {
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

/** The surface a path belongs to, for errors raised outside a route's own handling. */
export function surfaceOf(c: Context): ErrorSurface {
  const url = new URL(c.req.url);
  const path = url.pathname;
  if (path === '/api' || path.startsWith('/api/')) {
    return { surface: 'api', reply: (status, body) => c.json(body, status as 500, { 'Cache-Control': 'no-store' }) };
  }
  if (path === '/extract') return { surface: 'extract', format: requestedFormat(url.searchParams) };
  if (path.startsWith('/pay/notify/')) return { surface: 'pay-notify' };
  if (path.startsWith('/node/')) return { surface: 'node' };
  return { surface: 'page' };
}

/** The error as an AppError: itself, or "internal" (500) after logging what it really was. */
export function toAppError(err: unknown, c: Context, where: string): AppError {
  const requestId = c.get('requestId');
  return asAppError(
    err,
    isAppError(err) ? { requestId, where } : { requestId, where, path: new URL(c.req.url).pathname },
  );
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

const statusOr500 = (status: number) => (status >= 400 && status <= 599 ? status : 500);

/** Answer a thrown error in the surface's own format (by default the surface of the request's path). */
export function errorResponse(
  err: unknown,
  c: Context,
  format: ErrorSurface = surfaceOf(c),
): Response | Promise<Response> {
  const e = toAppError(err, c, format.surface);
  switch (format.surface) {
    case 'api':
      return format.reply(e.status, { E: e.message });
    case 'extract':
      return new Response(formatError(format.format, e), {
        status: statusOr500(e.status),
        headers: { 'Content-Type': EXTRACT_CONTENT_TYPES[format.format], 'Cache-Control': 'no-store' },
      });
    case 'pay-notify':
      return notifyFailure(e.message, statusOr500(e.status));
    case 'node': {
      const status = statusOr500(e.status);
      return c.json({ code: status, msg: e.message }, status as 500);
    }
    case 'page': {
      const requestId = String(c.get('requestId') ?? '').replace(/[^\w-]/g, '');
      const title = e.code === 'internal' ? '服务繁忙' : e.message;
      return c.html(
        `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><body style="font-family:sans-serif;text-align:center;padding:4rem 1rem"><h1>${escapeHtml(e.message)}</h1><p>请求编号：${requestId}</p><p><a href="/">返回首页</a></p></body></html>`,
        statusOr500(e.status) as 500,
      );
    }
  }
}
