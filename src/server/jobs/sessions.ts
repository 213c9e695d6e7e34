// Daily: delete sessions past their idle or absolute expiry, and SMS codes older than a day (kept 24 h for limits).
import { purgeExpiredSessions } from '../db/sessions';
import { purgeOldCodes } from '../db/sms';
import { SESSION_IDLE_MS } from '../domain/session';
import type { Job } from './index';

export const purgeSessionsJob: Job = {
  name: 'purge-sessions-and-codes',
  async run(env, now) {
    return {
      sessions: await purgeExpiredSessions(env.DB, now, SESSION_IDLE_MS),
      codes: await purgeOldCodes(env.DB, now - 2 * 86_400_000),
    };
  },
};
