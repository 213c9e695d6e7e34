// Request id: taken from Cloudflare's ray id when present, else random; exposed as X-Request-Id on every response.
import type { MiddlewareHandler } from 'hono';
import { writableHeaders } from '../response';

export interface RequestIdOptions {
  header?: string;
}

/** Assign each request an id (c.var.requestId) and echo it in a response header. */
export function requestId(options: RequestIdOptions = {}): MiddlewareHandler {
  const header = options.header ?? 'X-Request-Id';
  return async function requestIdMiddleware(c, next) {
    const ray = c.req.header('cf-ray');
    const id = ray && /^[\w-]{1,64}$/.test(ray) ? ray : crypto.randomUUID();
    c.set('requestId', id);
    await next();
    writableHeaders(c).set(header, id);
  };
}
