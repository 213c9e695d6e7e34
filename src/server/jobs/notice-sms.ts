// Every five minutes: auto-renew notice SMS that failed with an error worth retrying are tried again after their
// backoff (1, 5, 30 minutes), once each whatever runs at the same time, and dropped when their notice no longer applies
// (docs/decisions/242).
import { retryNoticeSms } from '../domain/notice-sms';
import { noticeSmsProvider } from '../providers/sms';
import { type Job, runSteps } from './job';

export const noticeSmsJob: Job = {
  name: 'notice-sms',
  run: (env, now) => runSteps('notice-sms', { retried: () => retryNoticeSms(env.DB, noticeSmsProvider(env), now) }),
};
