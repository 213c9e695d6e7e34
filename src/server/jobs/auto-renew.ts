// Hourly: packages with auto-renew on get their notice before renewal, and are renewed from balance within the window
// before they expire (docs/decisions/225).
import { runAutoRenew } from '../domain/auto-renew';
import { readConfig } from '../env';
import { smsProviderFor } from '../providers/sms';
import type { SmsProvider } from '../providers/sms/types';
import type { Job } from './job';

export const autoRenewJob: Job = {
  name: 'auto-renew',
  run: (env, now) => {
    // A deployment without SMS configured still renews and writes its 站内通知.
    let sms: SmsProvider | null = null;
    try {
      sms = smsProviderFor(env, readConfig(env), Date.now);
    } catch {
      sms = null;
    }
    return runAutoRenew(env.DB, now, sms);
  },
};
