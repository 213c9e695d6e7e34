// The console's browser API client: the shared core over fetch('/api'). A missing or expired operator session (401)
// goes to /admin/login; a role refusal (403) is shown as an error toast instead of ending the session.
import { type ApiClient, createApiClient, onceWithin } from '../../../lib/api-core';
import { currentSourceType } from '../../../lib/api-browser';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  type EnvelopeMode,
  transportKeyFromHex,
} from '../../../lib/envelope';
import { webEnvelopeCodec } from '../../../lib/envelope-web';
import { messages } from '../../../lib/messages';
import { pushToast } from '../../../state/toast';

const env = import.meta.env as Record<string, string | undefined>;
const MODE: EnvelopeMode = env.WAKU_PUBLIC_API_ENVELOPE === 'aes' ? 'aes' : 'json';
const KEY = transportKeyFromHex(
  env.WAKU_PUBLIC_API_AES_KEY ?? DEV_TRANSPORT_KEY_HEX,
  env.WAKU_PUBLIC_API_AES_IV ?? DEV_TRANSPORT_IV_HEX,
);

const expired = onceWithin(3000, () => {
  pushToast('error', messages.operatorLoginRequired);
  window.location.assign('/admin/login');
});

export const adminApi: ApiClient = createApiClient({
  transport: async (req) => {
    const res = await fetch('/api', {
      method: 'POST',
      headers: { 'content-type': req.contentType, 'source-type': String(req.sourceType) },
      body: req.body,
      signal: req.signal,
      credentials: 'same-origin',
    });
    // 403 here means "not your role": its {E} becomes a toast (the core would treat it as an expired login).
    return { status: res.status === 403 ? 200 : res.status, text: await res.text() };
  },
  mode: MODE,
  codec: webEnvelopeCodec(MODE, KEY),
  sourceType: currentSourceType,
  cacheScope: () => 'admin',
  // Nothing is cached: every console screen shows the database as it is.
  isCacheable: () => false,
  onError: (text) => pushToast('error', text),
  onAuthExpired: expired,
});
