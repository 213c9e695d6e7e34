// Daily: delete customer and operator sessions past their idle or absolute expiry, SMS codes older than a day (kept
// 24 h for limits) and password-login attempts past their 15-minute window, lapsed password counters of phones without
// an account and of operator names that are not operators, and notice SMS rows 30 days past their period.
import { purgeOperatorNameFailures } from '../db/operators';
import { purgeExpiredSessions } from '../db/sessions';
import { purgeNoticeSms } from '../db/notice-sms';
import { purgeOldCodes } from '../db/sms';
import { purgeOldLoginAttempts, purgePhoneFailures } from '../db/users';
import { OPERATOR_IDLE_MS } from '../domain/operators';
import { SESSION_IDLE_MS } from '../domain/session';
import { type Job, runSteps } from './job';
import { DAY_MS } from '../../lib/time';

export const purgeSessionsJob: Job = {
  name: 'purge-sessions-and-codes',
  async run(env, now) {
    return runSteps('purge-sessions-and-codes', {
      sessions: () => purgeExpiredSessions(env.DB, 'sessions', now, SESSION_IDLE_MS),
      operatorSessions: () => purgeExpiredSessions(env.DB, 'operator_sessions', now, OPERATOR_IDLE_MS),
      codes: () => purgeOldCodes(env.DB, now - 2 * DAY_MS),
      loginAttempts: () => purgeOldLoginAttempts(env.DB, now - 2 * DAY_MS),
      phoneFailures: () => purgePhoneFailures(env.DB, now - 2 * DAY_MS, now),
      operatorNameFailures: () => purgeOperatorNameFailures(env.DB, now - 2 * DAY_MS, now),
      // Notice SMS rows are kept 30 days past the period they spoke of (to see what was sent, retried or given up).
      noticeTexts: () => purgeNoticeSms(env.DB, now - 30 * DAY_MS),
    });
  },
};
