// Request facts and checks shared by the edge routes: the client's IP, a streaming byte limit (Content-Length is only
// a hint; chunked bodies are counted as they arrive), the same-site origin rule for browser-facing endpoints, and
// work deferred past the response.
import type { Context } from 'hono';

/** Read at most `limit` bytes of a body; null when it is larger (the rest is never buffered). */
export async function readBytesLimited(req: Request, limit: number): Promise<Uint8Array | null> {
  if (Number(req.headers.get('content-length') ?? '0') > limit) return null;
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) {
    all.set(ch, at);
    at += ch.byteLength;
  }
  return all;
}

/** Read at most `limit` bytes as UTF-8 text; null when larger. */
export async function readTextLimited(req: Request, limit: number): Promise<string | null> {
  const bytes = await readBytesLimited(req, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/**
 * True unless a browser says the request is cross-site: Sec-Fetch-Site "cross-site", or an Origin that is neither
 * this host nor the configured portal origin. Non-browser callers (server components, curl) send no Origin.
 */
export function isSameSite(c: Context, portalOrigin: string | undefined): boolean {
  if (c.req.header('sec-fetch-site') === 'cross-site') return false;
  const origin = c.req.header('origin');
  if (!origin) return true;
  return origin === new URL(c.req.url).origin || origin === portalOrigin;
}

/** The client's IP as Cloudflare reports it (set by the edge; clients cannot forge it there). */
export function clientIp(c: Context): string {
  return c.req.header('cf-connecting-ip') ?? '127.0.0.1';
}

/** The request's execution context, or undefined where there is none (app.request() in the test suites). */
export function executionContextOf(c: Context): Context['executionCtx'] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

/**
 * Run work after the response (logs, counters) through the request's execution context. Failures are logged.
 */
export function deferWork(c: Context, where: string, fields: Record<string, unknown> = {}) {
  return (p: Promise<unknown>): void => {
    const logged = p.catch((err: unknown) =>
      console.error(JSON.stringify({ level: 'error', where, ...fields, error: String(err) })),
    );
    // Only app.request() in the test suites has no execution context; the promise still runs to its end there.
    executionContextOf(c)?.waitUntil(logged);
  };
}
