// The one API client core, shared by the browser and server components: envelope encoding, the 120 s timeout, the
// 100-entry / 5-minute cache for cacheable actions (scoped per user), and the seed's return conventions:
// P when present; on E a toast and false (or the whole response when the caller asks); on 401/403 the
// login-expired flow. The browser's transport is fetch; server components
// dispatch directly (src/server/dispatch.ts, the same conventions) unless API_BASE_URL names a backend to fetch from.
// The action registry is the contract: `call(name, input)` checks the input against the action's zod input type and
// returns its handler's result type, through a type-only import (no server code reaches the client bundle).
import type { z } from 'zod';
import type { registry } from '../server/actions/registry';
import type { EnvelopeCodec, EnvelopeMode } from './envelope';
import { shellMessages as messages } from './messages-shell';
import { MINUTE_MS } from './time';

export const API_TIMEOUT_MS = 120_000;
export const CACHE_MAX_ENTRIES = 100;
export const CACHE_TTL_MS = 5 * MINUTE_MS;

/** What a contract needs of an action: its zod input and its handler (the registry's entries have both). */
export interface ActionShape {
  input: z.ZodType;
  handler: (...args: never[]) => unknown;
}
export type Contract = Record<string, ActionShape>;

/** The portal's contract: every action in the server registry. */
export type Registry = typeof registry;

/** An action's name in a contract. */
export type ActionName<C extends Contract = Registry> = keyof C & string;
/** What a caller may send: the zod input type (before defaults and transforms). */
export type ActionInput<N extends ActionName<C>, C extends Contract = Registry> = z.input<C[N]['input']>;
/** What the action answers in P: its handler's result. */
export type ActionOutput<N extends ActionName<C>, C extends Contract = Registry> = Awaited<ReturnType<C[N]['handler']>>;

/** A business error's answer, returned in place of false when the caller asks with `raw`. */
export interface ApiError {
  E: string;
}

/** Tells a `raw` call's {E} from the action's output. */
export const isApiError = (r: unknown): r is ApiError =>
  typeof r === 'object' && r !== null && typeof (r as { E?: unknown }).E === 'string';

/** The raw wire answer. */
export interface ApiResponse<T = unknown> {
  P?: T;
  E?: string;
}

export interface TransportRequest {
  body: string;
  contentType: string;
  sourceType: 1 | 2;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  text: string;
}

export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export interface ApiClientOptions {
  transport: Transport;
  mode: EnvelopeMode;
  /** Encodes requests and decodes responses in `mode` (api-core itself ships no cipher to the browser). */
  codec: EnvelopeCodec;
  sourceType: () => 1 | 2;
  /** Who the cache belongs to (user id or 'anon'); entries never cross scopes. */
  cacheScope: () => string;
  /** Names of actions whose results may be cached. */
  isCacheable: (action: string) => boolean;
  onError?: (message: string) => void;
  onAuthExpired?: () => void;
  now?: () => number;
  timeoutMs?: number;
}

export interface CallOptions {
  /** Return the whole response ({E}) instead of false when the server answers E. */
  raw?: boolean;
  /** Skip the cache for this call (the fresh answer still refreshes it). */
  fresh?: boolean;
  /** Do not toast E (the caller shows it inline). */
  silent?: boolean;
}

/** A small LRU with expiry. */
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}
  get(key: string, now: number): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    if (hit.expires <= now) return undefined;
    this.map.set(key, hit);
    return hit.value;
  }
  set(key: string, value: V, now: number): void {
    this.map.delete(key);
    this.map.set(key, { value, expires: now + this.ttlMs });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

/** The arguments after the name: the input (optional when the action takes none) and the call options. */
export type CallArgs<N extends ActionName<C>, O extends CallOptions, C extends Contract = Registry> =
  // biome-ignore lint/complexity/noBannedTypes: {} is "an action whose input has no required field"
  {} extends ActionInput<N, C> ? [input?: ActionInput<N, C>, options?: O] : [input: ActionInput<N, C>, options?: O];

/** What a call resolves to: the output; false on E or failure; with `raw` (unless known false), also {E}. */
export type CallResult<N extends ActionName<C>, O extends CallOptions, C extends Contract = Registry> = O extends {
  raw: infer R;
}
  ? [R] extends [false | undefined]
    ? ActionOutput<N, C> | false
    : ActionOutput<N, C> | ApiError | false
  : ActionOutput<N, C> | false;

export interface ApiClient<C extends Contract = Registry> {
  /** Call an action: P on success; false (or {E} with raw) on E; false on failure. */
  // biome-ignore lint/complexity/noBannedTypes: no options means neither raw nor silent
  call<N extends ActionName<C>, const O extends CallOptions = {}>(
    action: N,
    ...args: CallArgs<N, O, C>
  ): Promise<CallResult<N, O, C>>;
  /** Forget every cached answer (on login and logout). */
  clearCache(): void;
}

/** Build a client over a transport (typed by the registry unless a test gives its own contract). */
export function createApiClient<C extends Contract = Registry>(o: ApiClientOptions): ApiClient<C> {
  const cache = new LruCache<unknown>(CACHE_MAX_ENTRIES, CACHE_TTL_MS);
  const now = o.now ?? Date.now;

  async function call(action: string, params: unknown = {}, options: CallOptions = {}): Promise<unknown> {
    const cacheable = o.isCacheable(action);
    const key = `${o.cacheScope()}|${action}|${JSON.stringify(params)}`;
    if (cacheable && !options.fresh) {
      const hit = cache.get(key, now());
      if (hit !== undefined) return hit;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs ?? API_TIMEOUT_MS);
    let res: TransportResponse;
    try {
      res = await o.transport({
        body: await o.codec.encode({ A: action, P: params }),
        contentType: o.mode === 'aes' ? 'text/plain;charset=UTF-8' : 'application/json;charset=UTF-8',
        sourceType: o.sourceType(),
        signal: controller.signal,
      });
    } catch {
      if (!options.silent) o.onError?.(controller.signal.aborted ? messages.timeout : messages.network);
      return false as const;
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 401 || res.status === 403) {
      o.onAuthExpired?.();
      return false as const;
    }
    let body: ApiResponse;
    try {
      body = (await o.codec.decode(res.text)) as ApiResponse;
    } catch {
      if (!options.silent) o.onError?.(messages.internal);
      return false as const;
    }
    if (typeof body?.E === 'string') {
      if (!options.silent) o.onError?.(body.E);
      return options.raw ? body : (false as const);
    }
    if (res.status >= 400) {
      if (!options.silent) o.onError?.(messages.internal);
      return false as const;
    }
    if (body && 'P' in body) {
      if (cacheable) cache.set(key, body.P, now());
      return body.P;
    }
    return body;
  }

  return { call: call as ApiClient<C>['call'], clearCache: () => cache.clear() };
}

/** Throttle: run fn at most once per windowMs (the login-expired notice guard is 3 s). */
export function onceWithin(windowMs: number, fn: () => void, now: () => number = Date.now): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < windowMs) return;
    last = t;
    fn();
  };
}
