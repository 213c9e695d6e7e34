// The browser's API client setup, shared by the portal (src/state/api.ts) and the operator console
// (src/pages/admin/_components/console-api.ts): fetch('/api') with the public envelope mode, key and codec, and the
// source type. What to do on E and on an expired session is injected by the caller (state imports lib, never the
// other way round).
import { type ApiClient, type ApiClientOptions, createApiClient } from './api-core';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  type EnvelopeMode,
  envelopeCodec,
  transportKeyFromHex,
} from './envelope';
import { decodeMineInfoCookie, MINE_INFO_COOKIE, readCookie } from './mine-info';

const env = import.meta.env as Record<string, string | undefined>;
const MODE: EnvelopeMode = env.WAKU_PUBLIC_API_ENVELOPE === 'aes' ? 'aes' : 'json';
const KEY = transportKeyFromHex(
  env.WAKU_PUBLIC_API_AES_KEY ?? DEV_TRANSPORT_KEY_HEX,
  env.WAKU_PUBLIC_API_AES_IV ?? DEV_TRANSPORT_IV_HEX,
);
const API_URL = `${env.WAKU_PUBLIC_API_BASE_URL ?? ''}/api`;

/** 1 for PC (wider than 768 px), 2 for mobile. */
export const currentSourceType = (): 1 | 2 => (typeof window !== 'undefined' && window.innerWidth <= 768 ? 2 : 1);

/** The signed-in customer's id from the Mine_Info cookie ('anon' without one): the cache scope. */
export function cookieUserId(): string {
  if (typeof document === 'undefined') return 'anon';
  return String(decodeMineInfoCookie(readCookie(document.cookie, MINE_INFO_COOKIE))?.id ?? 'anon');
}

export interface BrowserApiOptions
  extends Pick<ApiClientOptions, 'cacheScope' | 'isCacheable' | 'onError' | 'onAuthExpired'> {
  /** Map the HTTP status before the core reads it (the console treats 403 as an answer, not an expired login). */
  mapStatus?: (status: number) => number;
}

/** A browser client over fetch('/api'), typed by the action registry. */
export function createBrowserApi({ mapStatus = (s) => s, ...handlers }: BrowserApiOptions): ApiClient {
  return createApiClient({
    transport: async (req) => {
      const res = await fetch(API_URL, {
        method: 'POST',
        headers: { 'content-type': req.contentType, 'source-type': String(req.sourceType) },
        body: req.body,
        signal: req.signal,
        credentials: 'same-origin',
      });
      return { status: mapStatus(res.status), text: await res.text() };
    },
    mode: MODE,
    codec: envelopeCodec(MODE, KEY),
    sourceType: currentSourceType,
    ...handlers,
  });
}
