// Helpers for edge responses: headers that can be changed after next(), and cookie strings.
import type { Context } from 'hono';
import { readConfig } from '../server/env';

/** Make c.res headers writable (responses from fetch/assets have immutable headers). */
export function writableHeaders(c: Context): Headers {
  try {
    c.res.headers.set('X-Edge', '1');
    c.res.headers.delete('X-Edge');
  } catch {
    c.res = new Response(c.res.body, c.res);
  }
  return c.res.headers;
}

/**
 * Whether cookies set on this request carry Secure: always in production (the configuration's secureCookies; a
 * configuration that does not read fails closed), and on any https request.
 */
export function secureCookiesFor(c: Context): boolean {
  let configured: boolean;
  try {
    configured = readConfig(c.env).secureCookies;
  } catch {
    configured = true;
  }
  return configured || new URL(c.req.url).protocol === 'https:';
}

export interface CookieSpec {
  name: string;
  value: string;
  maxAgeSeconds?: number;
  httpOnly?: boolean;
  secure: boolean;
  sameSite?: 'Lax' | 'Strict';
}

/** A Set-Cookie value: Path=/, SameSite=Lax (or Strict), optional HttpOnly/Secure/Max-Age. */
export function serializeCookie(s: CookieSpec): string {
  const parts = [`${s.name}=${s.value}`, 'Path=/', `SameSite=${s.sameSite ?? 'Lax'}`];
  if (s.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(s.maxAgeSeconds))}`);
  if (s.httpOnly) parts.push('HttpOnly');
  if (s.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Set-Cookie values that delete the session cookies. */
export function clearSessionCookies(secure: boolean): string[] {
  return ['token', 'Mine_Info'].map((name) =>
    serializeCookie({ name, value: '', maxAgeSeconds: 0, httpOnly: name === 'token', secure }),
  );
}
