// Helpers for edge responses: headers that can be changed after next(), and cookie strings.
import type { Context } from 'hono';

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
