// Test helpers: call /api through the Worker as a browser or curl would, read the outbox, keep cookies.
import { env, SELF } from 'cloudflare:test';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  type EnvelopeMode,
  transportKeyFromHex,
} from '../../src/lib/envelope';
import type { ActionInput, ActionName, ActionOutput } from '../../src/lib/api-core';
import type { Bindings } from '../../src/server/env';
import { decodeEnvelope, encodeEnvelope } from './envelope-reference';

export const tk = transportKeyFromHex(DEV_TRANSPORT_KEY_HEX, DEV_TRANSPORT_IV_HEX);
export const BASE = 'https://portal.test';

export interface CallOptions {
  mode?: EnvelopeMode;
  cookie?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: { P?: T; E?: string };
  setCookies: string[];
  headers: Headers;
}

/**
 * POST /api with {A, P} in the chosen envelope mode, typed from the action registry: P is the action's input, the
 * answer's P its handler's result. Calls that send what no action accepts on purpose use `callApiUntyped`.
 */
export function callApi<N extends ActionName>(
  A: N,
  P?: ActionInput<N>,
  o?: CallOptions,
): Promise<CallResult<ActionOutput<N>>> {
  return callApiUntyped(A, P ?? {}, o) as Promise<CallResult<ActionOutput<N>>>;
}

/** POST /api with any name and any P (unknown actions, malformed input): the answer is untyped. */
export async function callApiUntyped(A: string, P: unknown = {}, o: CallOptions = {}): Promise<CallResult> {
  const mode = o.mode ?? 'json';
  const res = await SELF.fetch(`${BASE}/api`, {
    method: 'POST',
    headers: {
      'content-type': mode === 'aes' ? 'text/plain;charset=UTF-8' : 'application/json',
      'cf-connecting-ip': o.ip ?? '198.51.100.10',
      ...(o.cookie ? { cookie: o.cookie } : {}),
      ...o.headers,
    },
    body: encodeEnvelope({ A, P }, mode, tk),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: decodeEnvelope(text, mode, tk) as { P?: unknown; E?: string },
    setCookies: res.headers.getSetCookie(),
    headers: res.headers,
  };
}

/** Cookie header built from Set-Cookie values (later values win, empty values drop the cookie). */
export function cookieJar(setCookies: string[], previous = ''): string {
  const jar = new Map<string, string>();
  for (const part of previous
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    jar.set(part.slice(0, eq), part.slice(eq + 1));
  }
  for (const sc of setCookies) {
    const [pair] = sc.split(';');
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (value === '' || /Max-Age=0/.test(sc)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** The newest code in the development outbox for a phone. */
export async function latestCode(phone: string): Promise<string> {
  const row = await env.DB.prepare('SELECT params FROM sms_outbox WHERE phone = ? ORDER BY id DESC LIMIT 1')
    .bind(phone)
    .first<{ params: string }>();
  if (!row) throw new Error(`no SMS for ${phone}`);
  return (JSON.parse(row.params) as { code: string }).code;
}

/** Register (or log in) a phone by SMS and return its cookie header. */
export async function loginBySms(phone: string, ip = '198.51.100.10'): Promise<string> {
  const sent = await callApi('User.GetCode', { phone }, { ip });
  if (sent.body.E) throw new Error(sent.body.E);
  const res = await callApi('User.LoginRegister', { phone, code: await latestCode(phone) }, { ip });
  if (res.body.E) throw new Error(res.body.E);
  return cookieJar(res.setCookies);
}

/** Empty every application table (per-file storage is shared by the tests in that file). */
export async function resetDb(): Promise<void> {
  const { results } = await env.DB.prepare(
    // Newest tables first: later migrations reference earlier tables, never the other way round.
    // The audit log is append-only (a trigger refuses DELETE): its rows stay, and tests select theirs by operator id.
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'audit_log') ORDER BY rowid DESC",
  ).all<{ name: string }>();
  // FTS5 keeps its index in shadow tables (<name>_data, _idx, ...): empty the virtual table itself, never those.
  const virtual = results.filter((r) => r.name.endsWith('_fts')).map((r) => r.name);
  const tables = results.filter((r) => !virtual.some((v) => r.name.startsWith(`${v}_`)));
  // Foreign keys are checked at commit, when every table is empty, so the deletion order does not matter.
  await env.DB.batch([
    env.DB.prepare('PRAGMA defer_foreign_keys = ON'),
    ...tables.map((r) => env.DB.prepare(`DELETE FROM "${r.name}"`)),
  ]);
}

/** The Worker's bindings with a D1 that counts the statements reading a sessions table (customers' or operators'). */
export function countingSessionReads() {
  let sessionReads = 0;
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare') {
        return (sql: string) => {
          if (/\bFROM (operator_)?sessions\b/.test(sql)) sessionReads++;
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { bindings: { ...env, DB: db } as unknown as Bindings, sessionReads: () => sessionReads };
}
