// What an action is: a registry entry with its zod input, who may call it, whether clients may cache its result,
// and a handler. The dispatcher (src/edge/routes/api.ts) is the only caller of handlers.
import 'server-only';
import type { z } from 'zod';
import type { OperatorRole } from '../../lib/operator-roles';
import type { UserRecord } from '../db/users';
import type { OperatorPrincipal } from '../domain/operators';
import type { AppConfig, Bindings } from '../env';

/** Operator actions name the roles that may call them; admin passes every check (docs/decisions/101). */
export interface OperatorAccess {
  operator: readonly OperatorRole[];
}

export type Access = 'public' | 'user' | 'verified' | OperatorAccess;

/** True for operator actions (served only to operator sessions, never to customers). */
export const isOperatorAccess = (a: Access): a is OperatorAccess => typeof a === 'object' && a !== null;

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
  /** Lax unless said otherwise (the operator cookie is Strict). */
  sameSite?: 'Lax' | 'Strict';
}

export interface BaseContext {
  env: Bindings;
  config: AppConfig;
  db: D1Database;
  now: number;
  ip: string;
  sourceType: 1 | 2;
  userAgent: string;
  requestId: string;
  /** The session's user, when a valid token came with the request. */
  user: UserRecord | null;
  sessionId: number | null;
  /** The operator session's operator (operator actions only; customer sessions are never operators). */
  operator: OperatorPrincipal | null;
  /** The portal origin the request reached (PORTAL_ORIGIN when configured), for links back to the portal. */
  origin: string;
  /** A request cookie's raw value (e.g. the promotion cookies read at registration). */
  getCookie(name: string): string | undefined;
  setCookie(name: string, value: string, options?: CookieOptions): void;
  clearCookie(name: string, options?: CookieOptions): void;
  waitUntil(promise: Promise<unknown>): void;
}

export interface UserContext extends BaseContext {
  user: UserRecord;
  sessionId: number;
}

/** What operator actions receive: the operator and their session; no customer session is resolved. */
export interface OperatorContext extends BaseContext {
  operator: OperatorPrincipal;
}

type ContextFor<A extends Access> = A extends OperatorAccess
  ? OperatorContext
  : A extends 'public'
    ? BaseContext
    : UserContext;

export interface ActionDef<S extends z.ZodType = z.ZodType, R = unknown, A extends Access = Access> {
  /** One line for docs/api.md. */
  summary: string;
  input: S;
  access: A;
  /** Clients may keep the result in their 5-minute cache (never for mutations). */
  cacheable: boolean;
  handler: (ctx: ContextFor<A>, input: z.infer<S>) => Promise<R>;
}

/** Declare an action; the generic keeps the handler's input and context typed. */
export function defineAction<S extends z.ZodType, R, const A extends Access>(
  def: ActionDef<S, R, A>,
): ActionDef<S, R, A> {
  return def;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds actions of every input and output type
export type AnyAction = ActionDef<any, any, Access>;
export type ActionGroup = Record<string, AnyAction>;
