// Security headers on every response (docs/decisions/097). The CSP restricts framing, base URIs, plugins and form
// targets, and scripts: HTML pages get a fresh nonce per response, written into every executable <script> and module
// preload the page carries (React's bootstrap, Waku's inline RSC payload chunks, module preloads: the server renders
// no other script, since operator HTML is stored sanitised and React escapes all text), with 'strict-dynamic' so the
// modules and the chat widget those scripts load are trusted while injected markup (handlers, javascript: URLs,
// foreign <script src>) is not. Production adds HSTS. The same pass moves the page's module loading after the first
// paint (../paint-first.ts, docs/decisions/175).
import type { MiddlewareHandler } from 'hono';
import { readConfig } from '../../server/env';
import { paintFirstScripts } from '../paint-first';
import { writableHeaders } from '../response';
import type { EdgeEnv } from '../types';

const BASE_CSP = "frame-ancestors 'self'; base-uri 'self'; object-src 'none'; form-action 'self'";
/** Script types a browser executes (a data block such as application/ld+json needs no nonce). */
const EXECUTABLE = new Set(['', 'module', 'text/javascript', 'application/javascript']);
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The script policy for a nonce ('self' https: 'unsafe-inline' only matter to browsers without CSP 3). */
export const scriptPolicy = (nonce: string): string =>
  `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https: 'unsafe-inline'`;

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** HSTS as the configuration says (production); a configuration that does not read fails closed (HSTS on). */
function wantsHsts(env: EdgeEnv['Bindings']): boolean {
  try {
    return readConfig(env).hsts;
  } catch {
    return true;
  }
}

/** Add defensive headers without overriding ones a route set deliberately. */
export function securityHeaders(): MiddlewareHandler<EdgeEnv> {
  return async function securityHeadersMiddleware(c, next) {
    await next();
    let csp = BASE_CSP;
    const html = (c.res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/html');
    // HTMLRewriter exists in workerd (wrangler dev, production), not under `waku dev` in Node.
    if (html && c.res.body && typeof HTMLRewriter !== 'undefined' && !c.res.headers.has('Content-Security-Policy')) {
      const nonce = newNonce();
      c.res = paintFirstScripts(new HTMLRewriter())
        .on('script', {
          element(el) {
            if (EXECUTABLE.has((el.getAttribute('type') ?? '').trim().toLowerCase())) el.setAttribute('nonce', nonce);
          },
        })
        .on('link[rel="modulepreload"]', {
          element(el) {
            el.setAttribute('nonce', nonce);
          },
        })
        .transform(c.res);
      csp = `${BASE_CSP}; ${scriptPolicy(nonce)}`;
    } else if (!html) {
      // Nothing else the Worker serves may run as a page script (JSON, text, images, SVG opened directly).
      csp = `${BASE_CSP}; script-src 'none'`;
    }
    const h = writableHeaders(c);
    const set = (k: string, v: string) => {
      if (!h.has(k)) h.set(k, v);
    };
    set('X-Content-Type-Options', 'nosniff');
    set('X-Frame-Options', 'SAMEORIGIN');
    set('Referrer-Policy', 'strict-origin-when-cross-origin');
    set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    set('Cross-Origin-Opener-Policy', 'same-origin');
    set('Content-Security-Policy', csp);
    if (wantsHsts(c.env)) set('Strict-Transport-Security', HSTS);
  };
}
