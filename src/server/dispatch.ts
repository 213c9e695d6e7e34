// The action dispatcher: who may call (access), who is calling (the session), the input, the context and the handler.
// Its two callers speak to it directly: the edge's POST /api (src/edge/routes/api.ts: decode, dispatch, encode) and
// the server components' client (src/server/api-server.ts), which resolves the page request's session once for all
// the calls of its render (docs/decisions/211).
import 'server-only';
import type { z } from 'zod';
import type { ActionInput, ActionName, ApiClient, ApiError, CallOptions } from '../lib/api-core';
import { AppError, asAppError } from '../lib/errors';
import { isRealNameVerified } from '../lib/identity';
import { messages } from '../lib/messages';
import { readCookie, TOKEN_COOKIE } from '../lib/mine-info';
import { roleAllows } from '../lib/operator-roles';
import { type AnyAction, type BaseContext, type CookieOptions, isOperatorAccess } from './actions/define';
import { registry } from './actions/registry';
import { OPERATOR_COOKIE, type OperatorPrincipal, resolveOperatorSession } from './domain/operators';
import { resolveSession } from './domain/session';
import { type AppConfig, type Bindings, readConfig } from './env';

type Session = Awaited<ReturnType<typeof resolveSession>>;

/**
 * Who is calling: the request's cookies and, read at most once each and only when an action asks, the customer's
 * and the operator's session behind them. A failed read is not kept (the next call tries again).
 */
export interface Principal {
  readonly cookieHeader: string | undefined;
  customer(): Promise<Session>;
  operator(): Promise<OperatorPrincipal | null>;
}

function once<T>(read: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | null = null;
  return () => {
    if (!kept) {
      const reading = read();
      kept = reading;
      reading.catch(() => {
        if (kept === reading) kept = null;
      });
    }
    return kept;
  };
}

/** The principal behind a request's Cookie header. */
export function principalOf(db: D1Database, cookieHeader: string | undefined, now: () => number = Date.now): Principal {
  return {
    cookieHeader,
    customer: once(async () => {
      const token = readCookie(cookieHeader, TOKEN_COOKIE);
      return token ? resolveSession(db, token, now()) : null;
    }),
    operator: once(async () => {
      const token = readCookie(cookieHeader, OPERATOR_COOKIE);
      return token ? resolveOperatorSession(db, token, now()) : null;
    }),
  };
}

/** A cookie an action set or cleared; the edge writes it as Set-Cookie, a page render has no answer to carry it. */
export interface CookieWrite extends CookieOptions {
  name: string;
  value: string;
}

/** The request an action is dispatched for. */
export interface Caller {
  env: Bindings;
  config: AppConfig;
  principal: Principal;
  ip: string;
  sourceType: 1 | 2;
  userAgent: string;
  requestId: string;
  /** The portal origin the request reached (PORTAL_ORIGIN when configured). */
  origin: string;
  /** Keeps deferred work (logs, counters) alive after the answer. */
  waitUntil(promise: Promise<unknown>): void;
  /** Where the cookies the action sets go. */
  cookies: CookieWrite[];
}

/** The caller of a request (the edge's /api request or a page's), with the parts the request itself does not say. */
export function callerOf(
  env: Bindings,
  req: Request,
  o: { sourceType: 1 | 2; requestId?: string; waitUntil(promise: Promise<unknown>): void },
): Caller {
  const config = readConfig(env);
  const cookieHeader = req.headers.get('cookie') ?? undefined;
  return {
    env,
    config,
    principal: principalOf(env.DB, cookieHeader),
    ip: req.headers.get('cf-connecting-ip') ?? '127.0.0.1',
    sourceType: o.sourceType,
    userAgent: req.headers.get('user-agent') ?? '',
    requestId: o.requestId ?? crypto.randomUUID(),
    origin: config.portalOrigin ?? new URL(req.url).origin,
    waitUntil: o.waitUntil,
    cookies: [],
  };
}

/** What an action answered: {P} with 200, or {E} with the status of a refused input. */
export type Answer = { status: 200; body: { P: unknown } } | { status: number; body: ApiError };

/** A refusal of the call itself (unknown action, access): the catalogue text with its HTTP status. */
const refused = (
  status: number,
  code: 'unknownAction' | 'forbidden' | 'operatorLoginRequired' | 'operatorForbidden' | 'loginExpired',
  detail?: string,
) => new AppError(code, { status, ...(detail ? { detail } : {}) });

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

/**
 * Run one action for a caller. Refusals (unknown action 404, no session 401, operator access 401/403) and the
 * handler's own errors are thrown as they are; the caller answers them on its surface.
 */
export async function dispatch(
  name: string,
  params: unknown,
  caller: Caller,
  actions: Record<string, AnyAction> = registry,
): Promise<Answer> {
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!action) throw refused(404, 'unknownAction', name);

  const { principal } = caller;
  let session: Session = null;
  let operator: OperatorPrincipal | null = null;
  if (isOperatorAccess(action.access)) {
    // Operator actions see only the operator session (docs/decisions/101): a customer session is refused (403),
    // no session at all asks for the console login (401), a role outside the action's list is refused (403).
    operator = await principal.operator();
    if (!operator) {
      throw readCookie(principal.cookieHeader, TOKEN_COOKIE)
        ? refused(403, 'forbidden')
        : refused(401, 'operatorLoginRequired');
    }
    if (!roleAllows(operator.role, action.access.operator)) throw refused(403, 'operatorForbidden');
  } else {
    session = await principal.customer();
    if (action.access !== 'public' && !session) throw refused(401, 'loginExpired');
  }
  if (action.access === 'verified' && session && !isRealNameVerified(session.user)) {
    throw new AppError('realNameRequired');
  }
  const input = action.input.safeParse(params ?? {});
  if (!input.success) return { status: 400, body: { E: describeZodError(input.error) } };

  const ctx: BaseContext = {
    env: caller.env,
    config: caller.config,
    db: caller.env.DB,
    now: Date.now(),
    ip: caller.ip,
    sourceType: caller.sourceType,
    userAgent: caller.userAgent,
    requestId: caller.requestId,
    user: session?.user ?? null,
    sessionId: session?.sessionId ?? null,
    operator,
    origin: caller.origin,
    getCookie: (cookieName) => readCookie(principal.cookieHeader, cookieName),
    setCookie: (cookieName, value, opts = {}) => caller.cookies.push({ name: cookieName, value, ...opts }),
    clearCookie: (cookieName, opts = {}) =>
      caller.cookies.push({
        name: cookieName,
        value: '',
        maxAgeSeconds: 0,
        httpOnly: opts.httpOnly ?? cookieName === TOKEN_COOKIE,
        ...(opts.sameSite !== undefined ? { sameSite: opts.sameSite } : {}),
      }),
    waitUntil: (p) =>
      caller.waitUntil(
        p.catch((err: unknown) =>
          console.error(JSON.stringify({ level: 'error', where: 'waitUntil', action: name, error: String(err) })),
        ),
      ),
  };
  // biome-ignore lint/suspicious/noExplicitAny: the registry erases each action's own context type
  const result = await action.handler(ctx as any, input.data);
  return { status: 200, body: { P: result === undefined ? null : result } };
}

/** The answer to a call, thrown errors included: {E} with the error's status (unexpected ones logged, 500). */
export async function answer(name: string, params: unknown, caller: Caller): Promise<Answer> {
  try {
    return await dispatch(name, params, caller);
  } catch (err) {
    const e = asAppError(err, { requestId: caller.requestId, where: 'dispatch', action: name });
    return { status: e.status, body: { E: e.message } };
  }
}

/**
 * A client that dispatches straight to the actions for one caller, with the browser client's return conventions
 * (src/lib/api-core.ts): P; false on E (or {E} with `raw`); false on 401/403. The page sees what the wire carries
 * (a JSON copy of the result), never an object a handler keeps.
 */
export function directClient(caller: Caller): ApiClient {
  async function call(action: ActionName, input: ActionInput<ActionName> = {}, options: CallOptions = {}) {
    const { status, body } = await answer(action, input, caller);
    if ('P' in body && status === 200) return JSON.parse(JSON.stringify(body.P));
    if (status === 401 || status === 403) return false;
    const E = 'E' in body ? body.E : messages.internal;
    if (!options.silent) console.warn(JSON.stringify({ level: 'warn', where: 'serverApi', action, error: E }));
    return options.raw ? { E } : false;
  }
  return { call: call as ApiClient['call'], clearCache() {} };
}
