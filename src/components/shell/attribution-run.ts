// The work behind <Attribution/> (./attribution.tsx), loaded only on page views that have some to do.

import { computeFingerprint } from '../../lib/fingerprint';
import { shellMessages as messages } from '../../lib/messages-shell';
import { adClickIds, PROMOTION_KEYS, parsePromotion } from '../../lib/promotion';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';

function safeStorage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage disabled (private mode, policies)
  }
}

async function fingerprint(local: Storage | null): Promise<string> {
  const stored = local?.getItem('fingerPrint');
  if (stored && /^[0-9a-f]{32}$/.test(stored)) return stored;
  const fp = await computeFingerprint();
  local?.setItem('fingerPrint', fp);
  return fp;
}

/** Store promotion parameters and ad click ids, then report the click ids with the fingerprint when idle. */
export function runAttribution(): void {
  const search = new URLSearchParams(window.location.search);
  const local = safeStorage('local');
  const session = safeStorage('session');
  const promo = parsePromotion(search);
  if (promo.kind === 'invalid') pushToast('error', messages.promotionLinkInvalid);
  if (promo.kind === 'ok') {
    try {
      for (const k of PROMOTION_KEYS) {
        const v = promo.params[k];
        if (v) local?.setItem(k, v);
        else local?.removeItem(k);
      }
      if (!local) throw new Error('no storage');
    } catch {
      pushToast('error', messages.promotionLinkInvalid);
    }
  }
  const ids = adClickIds(search);
  if (ids.bdVid) session?.setItem('bdVid', ids.bdVid);
  if (ids.qhclickid) session?.setItem('qhclickid', ids.qhclickid);
  const idle = (cb: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(cb, { timeout: 3000 }) : setTimeout(cb, 1500);
  idle(() => {
    void fingerprint(local).then((fp) => {
      const common = {
        page: window.location.pathname.slice(0, 200),
        did: local?.getItem('did') ?? '',
        from: local?.getItem('from') ?? '',
        fingerPrint: fp,
      };
      if (ids.bdVid) void api.call('Buried.buriedPoint', { bdVid: ids.bdVid, ...common }, { silent: true });
      if (ids.qhclickid)
        void api.call('Buried.buriedPoint360', { qhclickid: ids.qhclickid, ...common }, { silent: true });
    });
  });
}
