// The server components' API client: the same core as the browser's, over an in-process transport (the endpoint app
// the entry provides, src/server/in-process-api.ts, no network hop) or, with API_BASE_URL set, over fetch to another backend speaking the protocol.
// One client per request (React cache), so nothing is shared between requests or users.
import 'server-only';
import { cache } from 'react';
import { unstable_getContext as getContext } from 'waku/server';
import { isCacheableAction } from '../lib/actions';
import { type ApiClient, createApiClient } from '../lib/api-core';
import { envelopeCodec } from '../lib/envelope';
import { decodeMineInfoCookie, MINE_INFO_COOKIE, readCookie } from '../lib/mine-info';
import type { MineInfo } from './domain/accounts';
import { type Bindings, readConfig } from './env';
import { inProcessApi } from './in-process-api';

function incomingRequest(): Request | null {
  try {
    return getContext().req;
  } catch {
    return null;
  }
}

/** The API client for the current request, carrying its cookies and client IP. */
export const serverApi = cache(async (): Promise<ApiClient> => {
  // Imported lazily: the build's prerender step runs in Node, where this module does not exist.
  const { env: workerEnv, waitUntil } = await import('cloudflare:workers');
  const bindings = workerEnv as unknown as Bindings;
  const config = readConfig(bindings);
  const req = incomingRequest();
  const cookie = req?.headers.get('cookie') ?? '';
  const ip = req?.headers.get('cf-connecting-ip') ?? '127.0.0.1';
  const userAgent = req?.headers.get('user-agent') ?? '';
  const base = config.apiBaseUrl ?? null;
  // In-process calls carry the page request's origin, so actions that build links from it (the invitation link) name
  // the portal rather than a placeholder host when PORTAL_ORIGIN is not configured.
  const selfOrigin = req ? new URL(req.url).origin : 'http://in-process';
  // In-process calls may use JSON outside production; production always speaks AES, like the browser.
  const mode = config.envelope === 'aes' ? 'aes' : 'json';
  // Work an action defers (logs, counters) outlives the page render through the Worker's own waitUntil.
  const executionContext = { waitUntil, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return createApiClient({
    transport: async (t) => {
      const init: RequestInit = {
        method: 'POST',
        headers: {
          'content-type': t.contentType,
          'source-type': String(t.sourceType),
          cookie,
          'cf-connecting-ip': ip,
          'user-agent': userAgent,
        },
        body: t.body,
        signal: t.signal,
      };
      const res = base
        ? await fetch(`${base}/api`, init)
        : await inProcessApi()(new Request(`${selfOrigin}/api`, init), bindings, executionContext);
      return { status: res.status, text: await res.text() };
    },
    mode,
    codec: envelopeCodec(mode, config.transportKey),
    sourceType: () => (/Mobile|Android|iPhone/i.test(userAgent) ? 2 : 1),
    cacheScope: () => String(decodeMineInfoCookie(readCookie(cookie, MINE_INFO_COOKIE))?.id ?? 'anon'),
    isCacheable: isCacheableAction,
    onError: (text) => console.warn(JSON.stringify({ level: 'warn', where: 'serverApi', error: text })),
  });
});

/** The logged-in user's mineInfo for this request, or null (no DB work for visitors without Mine_Info). */
export const currentMineInfo = cache(async (): Promise<MineInfo | null> => {
  const cookie = incomingRequest()?.headers.get('cookie');
  if (!decodeMineInfoCookie(readCookie(cookie, MINE_INFO_COOKIE))) return null;
  const info = await (await serverApi()).call('User.GetMineInfo', {}, { silent: true });
  return info ? info : null;
});
