import { createScheduledController, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../src/edge/worker';
import { runScheduledJobs } from '../../src/server/jobs';
import { loginBySms, resetDb } from '../helpers/api';
import { ageSmsCodes, expireSessions, sessionCount, smsCodeCount, userId } from '../helpers/commerce';

beforeEach(resetDb);

describe('scheduled jobs', () => {
  it('the daily purge removes expired sessions and old codes but keeps live ones', async () => {
    await loginBySms('13800000101');
    await loginBySms('13800000102');
    await expireSessions(await userId('13800000101'));
    await ageSmsCodes('13800000101');
    await runScheduledJobs('17 3 * * *', env as never);
    expect(await sessionCount()).toBe(1);
    expect(await smsCodeCount()).toBe(1);
  });

  it('is reachable through the Worker scheduled handler', async () => {
    await loginBySms('13800000103');
    await expireSessions();
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
