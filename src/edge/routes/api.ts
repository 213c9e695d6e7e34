// POST /api: the action dispatcher. Decodes the envelope (AES text/plain or JSON), checks origin, source type, size,
// action, access and input, runs the handler and answers {P} or {E} in the request's envelope mode.
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { contentTypeFor, decodeEnvelope, type EnvelopeMode, encodeEnvelope } from '../../lib/envelope';
import { AppError } from '../../lib/errors';
import { isRealNameVerified } from '../../lib/identity';
import { type MessageCode, messages } from '../../lib/messages';
import { readCookie, TOKEN_COOKIE } from '../../lib/mine-info';
import { roleAllows } from '../../lib/operator-roles';
import { type AnyAction, type BaseContext, isOperatorAccess } from '../../server/actions/define';
import { registry } from '../../server/actions/registry';
import { OPERATOR_COOKIE, type OperatorPrincipal, resolveOperatorSession } from '../../server/domain/operators';
import { resolveSession } from '../../server/domain/session';
import { type AppConfig, readConfig } from '../../server/env';
import { errorResponse } from '../error-response';
import { clientIp, deferWork, executionContextOf, isSameSite, readTextLimited } from '../request-guards';
import { serializeCookie } from '../response';
import type { EdgeEnv } from '../types';

/** Largest request body /api accepts (bytes of the wire body). */
export const MAX_API_BODY_BYTES = 64 * 1024;

const requestShape = z.object({
  A: z.string().regex(/^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/),
  P: z.unknown().optional(),
});

/** A refusal of the request itself (envelope, origin, access): the catalogue text with its HTTP status. */
const refused = (status: number, code: MessageCode, detail?: string) =>
  new AppError(code, { status, ...(detail ? { detail } : {}) });

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

/** The first zod issue as a Chinese sentence (schemas carry their own messages). */
function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return messages.invalidParams;
  const custom = issue.message;
  // zod's own English defaults are replaced by the generic Chinese text with the field path.
  if (/[\u4e00-\u9fff]/.test(custom)) return custom;
  const field = issue.path.join('.');
  return field ? `${messages.invalidParams}：${field}` : messages.invalidParams;
}

type Session = Awaited<ReturnType<typeof resolveSession>>;

/**
 * What was resolved under one execution context, by kind and token (docs/decisions/192). A page's server components
 * make their in-process calls under the one context their render was given (src/server/api-server.ts), so a render
 * reads its session once, not once per action. A browser's request has a context of its own, so nothing is shared
 * between requests or users; a failed read is not kept.
 */
const resolvedByContext = new WeakMap<object, Map<string, Promise<unknown>>>();

function oncePerContext<T>(c: Context<EdgeEnv>, key: string, resolve: () => Promise<T>): Promise<T> {
  const scope = executionContextOf(c);
  if (!scope) return resolve();
  const kept = resolvedByContext.get(scope) ?? new Map<string, Promise<unknown>>();
  resolvedByContext.set(scope, kept);
  const found = kept.get(key) as Promise<T> | undefined;
  if (found) return found;
  const resolving = resolve();
  kept.set(key, resolving);
  resolving.catch(() => kept.delete(key));
  return resolving;
}

/** Build the Hono sub-app that serves POST /api. */
export function apiRoutes(actions: Record<string, AnyAction> = registry): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.all('/api', async (c) => {
    const config = readConfig(c.env);
    let mode: EnvelopeMode = 'json';
    const cookies: string[] = [];
    const reply = async (status: number, body: unknown) => {
      const res = new Response(await encodeEnvelope(body, mode, config.transportKey), {
        status,
        headers: { 'Content-Type': contentTypeFor(mode), 'Cache-Control': 'no-store' },
      });
      for (const cookie of cookies) res.headers.append('Set-Cookie', cookie);
      return res;
    };
    try {
      if (c.req.method !== 'POST') throw refused(405, 'badEnvelope');
      if (!isSameSite(c, config.portalOrigin)) throw refused(403, 'crossSite');
      mode = envelopeModeOf(c, config);
      const sourceType = parseSourceType(c.req.header('source-type'));
      const raw = await readBodyLimited(c.req.raw, MAX_API_BODY_BYTES);
      let decoded: unknown;
      try {
        decoded = await decodeEnvelope(raw, mode, config.transportKey);
      } catch {
        throw refused(400, 'badEnvelope');
      }
      const shape = requestShape.safeParse(decoded);
      if (!shape.success) throw refused(400, 'badEnvelope');
      const { A: name, P: params } = shape.data;
      const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
      if (!action) throw refused(404, 'unknownAction', name);

      const now = Date.now();
      const cookieHeader = c.req.header('cookie');
      let session: Session = null;
      let operator: OperatorPrincipal | null = null;
      if (isOperatorAccess(action.access)) {
        // Operator actions see only the operator session (docs/decisions/101): a customer session is refused (403),
        // no session at all asks for the console login (401), a role outside the action's list is refused (403).
        const token = readCookie(cookieHeader, OPERATOR_COOKIE);
        operator = token
          ? await oncePerContext(c, `operator:${token}`, () => resolveOperatorSession(c.env.DB, token, now))
          : null;
        if (!operator) {
          const customer = readCookie(cookieHeader, TOKEN_COOKIE);
          throw customer ? refused(403, 'forbidden') : refused(401, 'operatorLoginRequired');
        }
        if (!roleAllows(operator.role, action.access.operator)) throw refused(403, 'operatorForbidden');
      } else {
        const token = readCookie(cookieHeader, TOKEN_COOKIE);
        session = token
          ? await oncePerContext(c, `customer:${token}`, () => resolveSession(c.env.DB, token, now))
          : null;
        if (action.access !== 'public' && !session) throw refused(401, 'loginExpired');
      }
      if (action.access === 'verified' && session && !isRealNameVerified(session.user)) {
        throw new AppError('realNameRequired');
      }
      const input = action.input.safeParse(params ?? {});
      if (!input.success) return reply(400, { E: describeZodError(input.error) });

      const secure = config.secureCookies;
      const ctx: BaseContext = {
        env: c.env,
        config,
        db: c.env.DB,
        now,
        ip: clientIp(c),
        sourceType,
        userAgent: c.req.header('user-agent') ?? '',
        requestId: c.get('requestId') ?? crypto.randomUUID(),
        user: session?.user ?? null,
        sessionId: session?.sessionId ?? null,
        operator,
        origin: config.portalOrigin ?? new URL(c.req.url).origin,
        getCookie: (cookieName) => readCookie(cookieHeader, cookieName),
        setCookie: (cookieName, value, opts = {}) =>
          cookies.push(
            serializeCookie({
              name: cookieName,
              value,
              secure,
              ...(opts.maxAgeSeconds !== undefined ? { maxAgeSeconds: opts.maxAgeSeconds } : {}),
              ...(opts.httpOnly !== undefined ? { httpOnly: opts.httpOnly } : {}),
              ...(opts.sameSite !== undefined ? { sameSite: opts.sameSite } : {}),
            }),
          ),
        clearCookie: (cookieName, opts = {}) =>
          cookies.push(
            serializeCookie({
              name: cookieName,
              value: '',
              maxAgeSeconds: 0,
              httpOnly: opts.httpOnly ?? cookieName === TOKEN_COOKIE,
              secure,
              ...(opts.sameSite !== undefined ? { sameSite: opts.sameSite } : {}),
            }),
          ),
        waitUntil: deferWork(c, 'waitUntil', { action: name }),
      };
      // biome-ignore lint/suspicious/noExplicitAny: the registry erases each action's own context type
      const result = await action.handler(ctx as any, input.data);
      return reply(200, { P: result === undefined ? null : result });
    } catch (err) {
      return errorResponse(err, c, { surface: 'api', reply });
    }
  });

  return app;
}
