// POST /api: decode, dispatch, encode. Checks what belongs to the wire (method, origin, source type, size, envelope),
// hands the action's name and input to the dispatcher (src/server/dispatch.ts: access, session, input, context,
// handler) and answers {P} or {E} in the request's envelope mode, with the cookies the action set.
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { contentTypeFor, decodeEnvelope, type EnvelopeMode, encodeEnvelope } from '../../lib/envelope';
import { AppError } from '../../lib/errors';
import type { MessageCode } from '../../lib/messages';
import type { AnyAction } from '../../server/actions/define';
import { registry } from '../../server/actions/registry';
import { callerOf, dispatch } from '../../server/dispatch';
import { type AppConfig, readConfig } from '../../server/env';
import { errorResponse } from '../error-response';
import { executionContextOf, isSameSite, readTextLimited } from '../request-guards';
import { serializeCookie } from '../response';
import type { EdgeEnv } from '../types';

/** Largest request body /api accepts (bytes of the wire body). */
export const MAX_API_BODY_BYTES = 64 * 1024;

const requestShape = z.object({
  A: z.string().regex(/^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/),
  P: z.unknown().optional(),
});

/** A refusal of the request itself (envelope, origin): the catalogue text with its HTTP status. */
const refused = (status: number, code: MessageCode) => new AppError(code, { status });

function envelopeModeOf(c: Context, config: AppConfig): EnvelopeMode {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const mode: EnvelopeMode = type.startsWith('text/plain') ? 'aes' : 'json';
  if (config.envelope === 'aes' && mode !== 'aes') throw refused(400, 'envelopeRequired');
  if (config.envelope === 'json' && mode !== 'json') throw refused(400, 'badEnvelope');
  return mode;
}

async function readBodyLimited(req: Request, limit: number): Promise<string> {
  const text = await readTextLimited(req, limit);
  if (text === null) throw refused(413, 'bodyTooLarge');
  return text;
}

function parseSourceType(value: string | undefined): 1 | 2 {
  if (value === undefined || value === '' || value === '1') return 1;
  if (value === '2') return 2;
  throw refused(400, 'badSourceType');
}

/** Build the Hono sub-app that serves POST /api. */
export function apiRoutes(actions: Record<string, AnyAction> = registry): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.all('/api', async (c) => {
    const config = readConfig(c.env);
    let mode: EnvelopeMode = 'json';
    const caller = callerOf(c.env, c.req.raw, {
      sourceType: 1,
      requestId: c.get('requestId'),
      waitUntil: (p) => executionContextOf(c)?.waitUntil(p),
    });
    const reply = async (status: number, body: unknown) => {
      const res = new Response(await encodeEnvelope(body, mode, config.transportKey), {
        status,
        headers: { 'Content-Type': contentTypeFor(mode), 'Cache-Control': 'no-store' },
      });
      for (const cookie of caller.cookies) {
        res.headers.append('Set-Cookie', serializeCookie({ ...cookie, secure: config.secureCookies }));
      }
      return res;
    };
    try {
      if (c.req.method !== 'POST') throw refused(405, 'badEnvelope');
      if (!isSameSite(c, config.portalOrigin)) throw refused(403, 'crossSite');
      mode = envelopeModeOf(c, config);
      caller.sourceType = parseSourceType(c.req.header('source-type'));
      const raw = await readBodyLimited(c.req.raw, MAX_API_BODY_BYTES);
      let decoded: unknown;
      try {
        decoded = await decodeEnvelope(raw, mode, config.transportKey);
      } catch {
        throw refused(400, 'badEnvelope');
      }
      const shape = requestShape.safeParse(decoded);
      if (!shape.success) throw refused(400, 'badEnvelope');
      const { status, body } = await dispatch(shape.data.A, shape.data.P, caller, actions);
      return reply(status, body);
    } catch (err) {
      return errorResponse(err, c, { surface: 'api', reply });
    }
  });

  return app;
}
