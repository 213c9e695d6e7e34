// The retention purge: rows older than the retention (never below 180 days) go, in batches, newer rows and live
// leases stay, and each run is recorded and shown on the dashboard.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { purgeRetained, retentionDays } from '../../src/server/jobs/retention';
import { callApi } from '../helpers/api';
import { resetAll, scalar } from '../helpers/delivery';
import { operatorLogin } from '../helpers/operators';
import { DAY_MS } from '../../src/lib/time';

beforeEach(resetAll);

async function logs(n: number, at: number) {
  const stmts = Array.from({ length: n }, () =>
    env.DB.prepare(
      "INSERT INTO extract_logs (user_id, client_ip, requested, returned, code, created_at) VALUES (1, '192.0.2.1', 1, 1, 0, ?)",
    ).bind(at),
  );
  for (let i = 0; i < stmts.length; i += 100) await env.DB.batch(stmts.slice(i, i + 100));
}

async function assignment(assignedAt: number, expiresAt: number) {
  await env.DB.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day, assigned_at, expires_at)
     VALUES (1, 1, 1, 10, '203.0.113.9', 8000, 'http', 'x', '电信', '2026-01-01', ?, ?)`,
  )
    .bind(assignedAt, expiresAt)
    .run();
}

describe('retention purge', { timeout: 30_000 }, () => {
  it('never keeps less than 180 days', () => {
    expect(retentionDays({ ...env, RETENTION_DAYS: '30' })).toBe(180);
    expect(retentionDays({ ...env, RETENTION_DAYS: 'x' })).toBe(180);
    expect(retentionDays({ ...env })).toBe(180);
    expect(retentionDays({ ...env, RETENTION_DAYS: '365' })).toBe(365);
  });

  it('deletes old rows in batches, keeps recent ones and live leases, and records the run', async () => {
    const now = Date.now();
    await logs(1_150, now - 181 * DAY_MS); // more than two batches
    await logs(3, now - 179 * DAY_MS);
    await assignment(now - 200 * DAY_MS, now - 199 * DAY_MS); // history
    await assignment(now - 200 * DAY_MS, now + DAY_MS); // a long lease still running
    await env.DB.prepare("INSERT INTO login_attempts (client_ip, created_at) VALUES ('192.0.2.1', ?), ('192.0.2.1', ?)")
      .bind(now - 181 * DAY_MS, now)
      .run();

    const removed = await purgeRetained(env.DB, 30, now); // asks for 30 days: 180 are kept all the same
    // The 1,150 calls of one day leave one daily counter row with them (0024).
    expect(removed).toMatchObject({
      extract_logs: 1_150,
      extract_hour_counts: 1,
      ip_assignments: 1,
      login_attempts: 1,
    });
    expect(await scalar('SELECT count(*) AS n FROM extract_logs')).toBe(3);
    expect(await scalar('SELECT count(*) AS n FROM ip_assignments')).toBe(1);
    expect(await scalar('SELECT count(*) AS n FROM login_attempts')).toBe(1);
    const run = await env.DB.prepare('SELECT * FROM retention_runs ORDER BY id DESC').first<Record<string, unknown>>();
    expect(run).toMatchObject({ retention_days: 180, rows_removed: 1_153 });
    expect(run?.finished_at).toBeGreaterThanOrEqual(now);

    const admin = await operatorLogin('admin');
    const d = await callApi('Admin.Dashboard', {}, { cookie: admin.cookie });
    expect(d.body.P?.lastRetention).toMatchObject({ rowsRemoved: 1_153, retentionDays: 180 });
  });
});
