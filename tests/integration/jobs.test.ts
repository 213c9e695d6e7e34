import { createScheduledController, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../src/edge/worker';
import { runScheduledJobs } from '../../src/server/jobs';
import { loginBySms, resetDb } from '../helpers/api';

beforeEach(resetDb);

describe('scheduled jobs', () => {
  it('the daily purge removes expired sessions and old codes but keeps live ones', async () => {
    await loginBySms('13800000101');
    await loginBySms('13800000102');
    await env.DB.prepare(
      "UPDATE sessions SET expires_at = 1 WHERE user_id = (SELECT id FROM users WHERE phone = '13800000101')",
    ).run();
    await env.DB.prepare("UPDATE sms_codes SET created_at = 1 WHERE phone = '13800000101'").run();
    await runScheduledJobs('17 3 * * *', env as never);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>())?.n).toBe(1);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM sms_codes').first<{ n: number }>())?.n).toBe(1);
  });

  it('is reachable through the Worker scheduled handler', async () => {
    await loginBySms('13800000103');
    await env.DB.prepare('UPDATE sessions SET expires_at = 1').run();
    const ctl = createScheduledController({ scheduledTime: Date.now(), cron: '17 3 * * *' });
    const waits: Promise<unknown>[] = [];
    await worker.scheduled(
      ctl,
      env as never,
      { waitUntil: (p: Promise<unknown>) => waits.push(p), passThroughOnException() {}, props: {} } as never,
    );
    await Promise.all(waits);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>())?.n).toBe(0);
  });
});
