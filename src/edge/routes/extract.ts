// GET /extract: the extraction API (contract in docs/extraction-api.md). Answers in the requested format with the
// stable error codes of src/server/domain/extract-params.ts through the one error path; never a stack trace.
import { Hono } from 'hono';
import { extract } from '../../server/domain/extract';
import { extractCodeOf, formatSuccess, requestedFormat } from '../../server/domain/extract-params';
import { readConfig } from '../../server/env';
import { EXTRACT_CONTENT_TYPES, errorResponse } from '../error-response';
import { clientIp, deferWork } from '../request-guards';
import type { EdgeEnv } from '../types';

/** Build the Hono sub-app that serves GET /extract. */
export function extractRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.get('/extract', async (c) => {
    const query = new URL(c.req.url).searchParams;
    const format = requestedFormat(query);
    const now = Date.now();
    try {
      const { params, ips } = await extract(
        c.env.DB,
        { query, callerIp: clientIp(c), now, keyHex: readConfig(c.env).nodeSecretKey, records: c.env.CUSTOMER_RECORDS },
        deferWork(c, 'extract-log'),
      );
      return new Response(formatSuccess(params, ips, now), {
        status: 200,
        headers: { 'Content-Type': EXTRACT_CONTENT_TYPES[format], 'Cache-Control': 'no-store' },
      });
    } catch (err) {
      if (extractCodeOf(err) === 1001) {
        console.warn(JSON.stringify({ level: 'warn', where: 'extract', code: 1001, ip: clientIp(c) }));
      }
      return errorResponse(err, c, { surface: 'extract', format });
    }
  });
  return app;
}
