// The retention purge: rows older than the retention (never below 180 days) go, in batches, newer rows and live
// leases stay, and each run is recorded and shown on the dashboard.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { purgeRetained, retentionDays } from '../../src/server/jobs/retention';
import { loginAttemptsAt, loginAttemptsFrom } from '../helpers/accounts';
import { callApi, resetDb } from '../helpers/api';
import {
  addExtractLogs,
  addLease,
  addUsageRollups,
  historyCounts,
  latestRetentionRun,
  usageRollupsOf,
} from '../helpers/delivery';
import { operatorLogin } from '../helpers/operators';
import { DAY_MS } from '../../src/lib/time';

beforeEach(resetDb);

describe('retention purge', { timeout: 30_000 }, () => {
  it('never keeps less than 180 days', () => {
    expect(retentionDays({ ...env, RETENTION_DAYS: '30' })).toBe(180);
    expect(retentionDays({ ...env, RETENTION_DAYS: 'x' })).toBe(180);
    expect(retentionDays({ ...env })).toBe(180);
    expect(retentionDays({ ...env, RETENTION_DAYS: '365' })).toBe(365);
  });

  it('deletes old rows in batches, keeps recent ones and live leases, and records the run', async () => {
    const now = Date.now();
    // A lease of user 1's package 1 on exit 1, as an extraction writes it.
    const lease = { userId: 1, packageId: 1, ipId: 1, ip: '203.0.113.9', port: 8000 };
    await addExtractLogs(1_150, now - 181 * DAY_MS); // more than two batches
    await addExtractLogs(3, now - 179 * DAY_MS);
    await addLease({ ...lease, from: now - 200 * DAY_MS, to: now - 199 * DAY_MS }); // history
    await addLease({ ...lease, from: now - 200 * DAY_MS, to: now + DAY_MS }); // a long lease still running
    await loginAttemptsAt(now - 181 * DAY_MS, now);

    const removed = await purgeRetained(env.DB, 30, now); // asks for 30 days: 180 are kept all the same
    // The 1,150 calls of one day leave one daily counter row with them (0024).
    expect(removed).toMatchObject({
      extract_logs: 1_150,
      extract_hour_counts: 1,
      ip_assignments: 1,
      login_attempts: 1,
    });
    const kept = await historyCounts();
    expect({ extractLogs: kept.calls, ipAssignments: kept.leases, loginAttempts: await loginAttemptsFrom() }).toEqual({
      extractLogs: 3,
      ipAssignments: 1,
      loginAttempts: 1,
    });
    const run = await latestRetentionRun();
    expect(run).toMatchObject({ retentionDays: 180, rowsRemoved: 1_153 });
    expect(run?.finishedAt).toBeGreaterThanOrEqual(now);

    const admin = await operatorLogin('admin');
    const d = await callApi('Admin.Dashboard', {}, { cookie: admin.cookie });
    expect(d.body.P?.lastRetention).toMatchObject({ rowsRemoved: 1_153, retentionDays: 180 });
  });

  it('drops the hourly bandwidth roll-up past the retention and keeps the daily one, which the long charts read', async () => {
    const now = Date.now();
    const hour = (at: number) => Math.floor(at / 3_600_000) * 3_600_000;
    const old = hour(now - 181 * DAY_MS);
    const recent = hour(now - 179 * DAY_MS);
    await addUsageRollups(1, { hours: [old, recent], days: ['2000-01-01'] });
    const removed = await purgeRetained(env.DB, 180, now);
    expect(removed).toMatchObject({ usage_hourly: 1 });
    expect(await usageRollupsOf(1)).toEqual({ hours: [recent], days: ['2000-01-01'] });
  });
});
