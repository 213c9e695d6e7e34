// Daily: delete customer and operator sessions past their idle or absolute expiry, SMS codes older than a day (kept 24 h for limits) and
// password-login attempts past their 15-minute window, and lapsed password counters of phones without an account.
import { purgeExpiredSessions } from '../db/sessions';
import { purgeOldCodes } from '../db/sms';
import { purgeOldLoginAttempts, purgePhoneFailures } from '../db/users';
import { OPERATOR_IDLE_MS } from '../domain/operators';
import { SESSION_IDLE_MS } from '../domain/session';
import type { Job } from './job';

export const purgeSessionsJob: Job = {
  name: 'purge-sessions-and-codes',
  async run(env, now) {
    return {
      sessions: await purgeExpiredSessions(env.DB, 'sessions', now, SESSION_IDLE_MS),
      operatorSessions: await purgeExpiredSessions(env.DB, 'operator_sessions', now, OPERATOR_IDLE_MS),
      codes: await purgeOldCodes(env.DB, now - 2 * 86_400_000),
      loginAttempts: await purgeOldLoginAttempts(env.DB, now - 2 * 86_400_000),
      phoneFailures: await purgePhoneFailures(env.DB, now - 2 * 86_400_000, now),
    };
  },
};
