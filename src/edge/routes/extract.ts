// GET /extract: the extraction API (contract in docs/extraction-api.md). Answers in the requested format with the
// stable error codes of src/server/domain/extract-params.ts; never a stack trace.
import { Hono } from 'hono';
import { extract } from '../../server/domain/extract';
import {
  EXTRACT_ERRORS,
  ExtractError,
  formatError,
  formatSuccess,
  requestedFormat,
} from '../../server/domain/extract-params';
import type { EdgeEnv } from '../types';
import { clientIp } from './api';

const CONTENT_TYPE = { txt: 'text/plain; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/** Build the Hono sub-app that serves GET /extract. */
export function extractRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.get('/extract', async (c) => {
    const query = new URL(c.req.url).searchParams;
    const format = requestedFormat(query);
    const headers = { 'Content-Type': CONTENT_TYPE[format], 'Cache-Control': 'no-store' };
    const now = Date.now();
    const defer = (p: Promise<unknown>) => {
      const guarded = p.catch((err) =>
        console.error(JSON.stringify({ level: 'error', where: 'extract-log', error: String(err) })),
      );
      try {
        c.executionCtx.waitUntil(guarded);
      } catch {
        // no execution context (unit tests): the promise still runs
      }
    };
    try {
      const { params, ips } = await extract(c.env.DB, { query, callerIp: clientIp(c), now }, defer);
      return new Response(formatSuccess(params, ips, now), { status: 200, headers });
    } catch (err) {
      if (err instanceof ExtractError) {
        if (err.code === 1001) {
          console.warn(JSON.stringify({ level: 'warn', where: 'extract', code: 1001, ip: clientIp(c) }));
        }
        return new Response(formatError(format, err), { status: EXTRACT_ERRORS[err.code].status, headers });
      }
      console.error(
        JSON.stringify({ level: 'error', where: 'extract', error: String(err), stack: (err as Error)?.stack }),
      );
      const body =
        format === 'json'
          ? JSON.stringify({ code: 500, msg: '服务繁忙，请稍后再试' })
          : 'ERROR 500 服务繁忙，请稍后再试';
      return new Response(body, { status: 500, headers });
    }
  });
  return app;
}
