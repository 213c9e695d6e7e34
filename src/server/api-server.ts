// The server components' API client, one per request (React cache): it dispatches straight to the actions
// (src/server/dispatch.ts) as the page request's caller, whose session is read once for all the calls of the render
// (docs/decisions/211); with API_BASE_URL set, it speaks the protocol over fetch to that backend instead.
// Pages load through `load` (src/server/page-data.ts); `serverApi().call(...)` is the same client, kept for the pages
// that still call it.
import 'server-only';
import { cache } from 'react';
import { unstable_getContext as getContext } from 'waku/server';
import { isCacheableAction } from '../lib/actions';
import { type ApiClient, createApiClient } from '../lib/api-core';
import { envelopeCodec } from '../lib/envelope';
import { decodeMineInfoCookie, MINE_INFO_COOKIE, readCookie } from '../lib/mine-info';
import type { MineInfo } from './domain/accounts';
import { callerOf, directClient } from './dispatch';
import { type Bindings, readConfig } from './env';

function incomingRequest(): Request | null {
  try {
    return getContext().req;
  } catch {
    return null;
  }
}

/** The device kind a page request's user agent names (1 computer, 2 phone), as the browser client reports it. */
export const sourceTypeOf = (userAgent: string): 1 | 2 => (/Mobile|Android|iPhone/i.test(userAgent) ? 2 : 1);

/** Over fetch to another backend speaking the protocol (API_BASE_URL), carrying the page request's cookies and IP. */
function remoteClient(base: string, bindings: Bindings, req: Request | null): ApiClient {
  const config = readConfig(bindings);
  const cookie = req?.headers.get('cookie') ?? '';
  const userAgent = req?.headers.get('user-agent') ?? '';
  const mode = config.envelope === 'aes' ? 'aes' : 'json';
  return createApiClient({
    transport: async (t) => {
      const res = await fetch(`${base}/api`, {
        method: 'POST',
        headers: {
          'content-type': t.contentType,
          'source-type': String(t.sourceType),
          cookie,
          'cf-connecting-ip': req?.headers.get('cf-connecting-ip') ?? '127.0.0.1',
          'user-agent': userAgent,
        },
        body: t.body,
        signal: t.signal,
      });
      return { status: res.status, text: await res.text() };
    },
    mode,
    codec: envelopeCodec(mode, config.transportKey),
    sourceType: () => sourceTypeOf(userAgent),
    cacheScope: () => String(decodeMineInfoCookie(readCookie(cookie, MINE_INFO_COOKIE))?.id ?? 'anon'),
    isCacheable: isCacheableAction,
    onError: (text) => console.warn(JSON.stringify({ level: 'warn', where: 'serverApi', error: text })),
  });
}

/** The API client for the current request. */
export const serverApi = cache(async (): Promise<ApiClient> => {
  // Imported lazily: the build's prerender step runs in Node, where this module does not exist.
  const { env: workerEnv, waitUntil } = await import('cloudflare:workers');
  const bindings = workerEnv as unknown as Bindings;
  const req = incomingRequest();
  const base = readConfig(bindings).apiBaseUrl;
  if (base) return remoteClient(base, bindings, req);
  // Without a page request (the build's prerender), the caller is a visitor of the portal's own origin.
  const page = req ?? new Request('http://in-process/');
  return directClient(
    callerOf(bindings, page, { sourceType: sourceTypeOf(page.headers.get('user-agent') ?? ''), waitUntil }),
  );
});

/** The logged-in user's mineInfo for this request, or null (no DB work for visitors without Mine_Info). */
export const currentMineInfo = cache(async (): Promise<MineInfo | null> => {
  const cookie = incomingRequest()?.headers.get('cookie');
  if (!decodeMineInfoCookie(readCookie(cookie, MINE_INFO_COOKIE))) return null;
  const info = await (await serverApi()).call('User.GetMineInfo', {}, { silent: true });
  return info ? info : null;
});
