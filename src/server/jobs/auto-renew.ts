// Hourly: packages with auto-renew on get their notice before renewal, and are renewed from balance within the window
// before they expire (docs/decisions/225).
import { runAutoRenew } from '../domain/auto-renew';
import { noticeSmsProvider } from '../providers/sms';
import type { Job } from './job';

export const autoRenewJob: Job = {
  name: 'auto-renew',
  // A deployment without SMS configured still renews and writes its 站内通知.
  run: (env, now) => runAutoRenew(env.DB, now, noticeSmsProvider(env)),
};
