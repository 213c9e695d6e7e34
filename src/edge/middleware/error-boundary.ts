// Catches whatever the middleware and routes below it throw and answers through the one error path
// (src/edge/error-response.ts): the surface of the request's path decides the format, never a stack trace.
import type { Context, MiddlewareHandler } from 'hono';
import { errorResponse } from '../error-response';

/** Turn any thrown error into a safe response in the format of the request's surface. */
export const handleError = (err: unknown, c: Context): Response | Promise<Response> => errorResponse(err, c);

/** Catch errors raised below this middleware (Hono records them on c.error) and answer safely. */
export function errorBoundary(): MiddlewareHandler {
  return async function errorBoundaryMiddleware(c, next) {
    try {
      await next();
    } catch (err) {
      c.res = await handleError(err, c);
      return;
    }
    if (c.error) c.res = await handleError(c.error, c);
  };
}
