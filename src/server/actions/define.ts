// What an action is: a registry entry with its zod input, who may call it, whether clients may cache its result,
// and a handler. The dispatcher (src/edge/routes/api.ts) is the only caller of handlers.
import type { z } from 'zod';
import type { UserRecord } from '../db/users';
import type { AppConfig, Bindings } from '../env';

export type Access = 'public' | 'user' | 'verified' | 'operator';

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
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
  /** The portal origin the request reached (PORTAL_ORIGIN when configured), for links back to the portal. */
  origin: string;
  /** A request cookie's raw value (e.g. the promotion cookies read at registration). */
  getCookie(name: string): string | undefined;
  setCookie(name: string, value: string, options?: CookieOptions): void;
  clearCookie(name: string): void;
  waitUntil(promise: Promise<unknown>): void;
}

export interface UserContext extends BaseContext {
  user: UserRecord;
  sessionId: number;
}

type ContextFor<A extends Access> = A extends 'public' ? BaseContext : UserContext;

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
export function defineAction<S extends z.ZodType, R, A extends Access>(def: ActionDef<S, R, A>): ActionDef<S, R, A> {
  return def;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds actions of every input and output type
export type AnyAction = ActionDef<any, any, Access>;
export type ActionGroup = Record<string, AnyAction>;
