import { createScheduledController, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../src/edge/worker';
import { runScheduledJobs } from '../../src/server/jobs';
import { ageSmsCodes, sessionCount, setSessionsExpiry, smsCodeCount, userIdOf } from '../helpers/accounts';
import { loginBySms, resetDb } from '../helpers/api';
import { DAY_MS } from '../../src/lib/time';

beforeEach(resetDb);

describe('scheduled jobs', () => {
  it('the daily purge removes expired sessions and old codes but keeps live ones', async () => {
    await loginBySms('13800000101');
    await loginBySms('13800000102');
    await setSessionsExpiry(1, await userIdOf('13800000101'));
    await ageSmsCodes(7 * DAY_MS, '13800000101');
    await runScheduledJobs('17 3 * * *', env as never);
    expect(await sessionCount()).toBe(1);
    expect(await smsCodeCount()).toBe(1);
  });

  it('is reachable through the Worker scheduled handler', async () => {
    await loginBySms('13800000103');
    await setSessionsExpiry(1);
    const ctl = createScheduledController({ scheduledTime: Date.now(), cron: '17 3 * * *' });
    const waits: Promise<unknown>[] = [];
    await worker.scheduled(
      ctl,
      env as never,
      { waitUntil: (p: Promise<unknown>) => waits.push(p), passThroughOnException() {}, props: {} } as never,
    );
    await Promise.all(waits);
    expect(await sessionCount()).toBe(0);
  });
});
