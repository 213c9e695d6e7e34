// The console's browser API client: the shared browser setup (src/lib/api-browser.ts). A missing or expired operator
// session (401) goes to /admin/login; a role refusal (403) is shown as an error toast instead of ending the session.
import { createBrowserApi } from '../../../lib/api-browser';
import { onceWithin } from '../../../lib/api-core';
import { messages } from '../../../lib/messages';
import { pushToast } from '../../../state/toast';

const expired = onceWithin(3000, () => {
  pushToast('error', messages.operatorLoginRequired);
  window.location.assign('/admin/login');
});

export const consoleApi = createBrowserApi({
  // 403 here means "not your role": its {E} becomes a toast (the core would treat it as an expired login).
  mapStatus: (status) => (status === 403 ? 200 : status),
  cacheScope: () => 'admin',
  // Nothing is cached: every console screen shows the database as it is.
  isCacheable: () => false,
  onError: (text) => pushToast('error', text),
  onAuthExpired: expired,
});
