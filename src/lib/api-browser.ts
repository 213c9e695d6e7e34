// The browser's API client: the shared core over fetch('/api'), with toasts for E and the login-expired flow.

import { mineInfoAtom } from '../state/session';
import { browserStore } from '../state/store';
import { pushToast } from '../state/toast';
import { isCacheableAction } from './actions';
import { type ApiClient, createApiClient, onceWithin } from './api-core';
import { DEV_TRANSPORT_IV_HEX, DEV_TRANSPORT_KEY_HEX, type EnvelopeMode, transportKeyFromHex } from './envelope';
import { webEnvelopeCodec } from './envelope-web';
import { shellMessages as messages } from './messages-shell';
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

function cookieUserId(): string {
  if (typeof document === 'undefined') return 'anon';
  return String(decodeMineInfoCookie(readCookie(document.cookie, MINE_INFO_COOKIE))?.id ?? 'anon');
}

/** Clear the session on this device: server session and cookies, client state and cache. */
export async function logoutLocally(): Promise<void> {
  await api.call('User.Logout', {}, { silent: true });
  api.clearCache();
  browserStore?.set(mineInfoAtom, null);
}

const expired = onceWithin(3000, () => {
  pushToast('error', messages.loginExpired);
  void logoutLocally().finally(() => {
    // The login page repeats the notice, so it is not lost with the navigation.
    if (window.location.pathname !== '/login') window.location.assign('/login?expired=1');
  });
});

export const api: ApiClient = createApiClient({
  transport: async (req) => {
    const res = await fetch(API_URL, {
      method: 'POST',
      headers: { 'content-type': req.contentType, 'source-type': String(req.sourceType) },
      body: req.body,
      signal: req.signal,
      credentials: 'same-origin',
    });
    return { status: res.status, text: await res.text() };
  },
  mode: MODE,
  codec: webEnvelopeCodec(MODE, KEY),
  sourceType: currentSourceType,
  cacheScope: cookieUserId,
  isCacheable: isCacheableAction,
  onError: (text) => pushToast('error', text),
  onAuthExpired: expired,
});
