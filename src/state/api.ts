// The portal's browser API client: the shared browser setup (src/lib/api-browser.ts) with this side's reactions:
// an error toast on E, and on 401/403 one login-expired notice per 3 s, local logout and the way to /login.
import { isCacheableAction } from '../lib/actions';
import { cookieUserId, createBrowserApi } from '../lib/api-browser';
import { onceWithin } from '../lib/api-core';
import { shellMessages as messages } from '../lib/messages-shell';
import { mineInfoAtom } from './session';
import { browserStore } from './store';
import { pushToast } from './toast';

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

export const api = createBrowserApi({
  cacheScope: cookieUserId,
  isCacheable: isCacheableAction,
  onError: (text) => pushToast('error', text),
  onAuthExpired: expired,
});
