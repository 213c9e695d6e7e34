// Security headers on every response. The CSP restricts framing, base URIs, plugins and form targets; scripts are
// left to the framework's inline RSC payload (a nonce-based script policy is recorded as future work in decisions).
import type { MiddlewareHandler } from 'hono';
import { writableHeaders } from '../response';

export interface SecurityHeadersOptions {
  hsts?: boolean;
}

/** Add defensive headers without overriding ones a route set deliberately. */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    const h = writableHeaders(c);
    const set = (k: string, v: string) => {
      if (!h.has(k)) h.set(k, v);
    };
    set('X-Content-Type-Options', 'nosniff');
    set('X-Frame-Options', 'SAMEORIGIN');
    set('Referrer-Policy', 'strict-origin-when-cross-origin');
    set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    set('Cross-Origin-Opener-Policy', 'same-origin');
    set('Content-Security-Policy', "frame-ancestors 'self'; base-uri 'self'; object-src 'none'; form-action 'self'");
    if (options.hsts) set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
