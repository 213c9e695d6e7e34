// The records list's total and the charts read whole hours from the hourly counters (extract_hour_counts, kept by a
// trigger on the log; docs/decisions/185, 187) and only the window's partial hours from the log. A customer sees the same
// numbers as counting the log itself: calls on the window's first (partial) day, whole days, today, refused calls, and
// after the retention purge has removed what lies before the window.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { insertExtractLog } from '../../src/server/db/extract';
import { purgeRetained } from '../../src/server/jobs/retention';
import { userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { DAY_MS, HOUR_MS, shanghaiMidnight } from '../../src/lib/time';

beforeEach(resetDb);

const hourOf = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

/** A call of 10 IPs by a user at `at` that returned `returned` (code 0, or the refusal's code). */
const log = (userId: number, at: number, returned: number, code = 0) =>
  insertExtractLog(env.DB, {
    userId,
    packageId: null,
    productType: 10,
    clientIp: '192.0.2.1',
    requested: 10,
    returned,
    code,
    query: 'num=10',
    now: at,
  });

describe('records and charts over the hourly counters', () => {
  it('count every call of the window, partial first hour, whole hours and days, and today included, as the log itself does', async () => {
    const phone = '13800007777';
    const cookie = await loginBySms(phone);
    const me = await userIdOf(phone);
    const other = me + 1000;
    const now = Date.now();
    const logged: { at: number; returned: number }[] = [];
    const add = async (at: number, returned: number, code = 0, user = me) => {
      await log(user, at, returned, code);
      if (user === me) logged.push({ at, returned });
    };
    await add(now - 180 * DAY_MS - HOUR_MS, 10); // before the 180-day window
    await add(now - 180 * DAY_MS + 60_000, 2); // the window's first, partial hour: read from the log
    await add(now - 180 * DAY_MS + HOUR_MS, 10); // the window's first, partial day
    await add(now - 40 * DAY_MS, 7);
    for (let i = 0; i < 3; i++) await add(now - 29 * DAY_MS + i * 60_000, 10);
    await add(now - 3 * DAY_MS, 0, 1007); // a refused call is a call with no IPs
    await add(now - 3 * DAY_MS + 1000, 4);
    await add(now - 60_000, 10); // today
    await add(now - 2 * HOUR_MS - 1000, 3); // earlier in the last 24 hours
    await add(now - 2 * HOUR_MS, 5);
    await add(now - 23 * HOUR_MS, 1, 0);
    await add(now - 2 * DAY_MS, 10, 0, other); // someone else's call

    const inWindow = logged.filter((l) => l.at >= now - 180 * DAY_MS);
    const list = await callApi('ProxyRPC.GetList', { range: '180d', pageSize: 20 }, { cookie });
    expect(list.body.P?.total).toBe(inWindow.length);
    expect(list.body.P?.list.map((l) => l.createdAt)).toEqual(inWindow.map((l) => l.at).sort((a, b) => b - a));

    const chart = await callApi('ProxyRPC.GetCharts', { range: '30d' }, { cookie });
    const from = chart.body.P?.from ?? 0;
    expect(from).toBe(shanghaiMidnight(now) - 29 * DAY_MS);
    const expected = new Map<number, { at: number; calls: number; ips: number }>();
    for (const l of logged.filter((x) => x.at >= from)) {
      const at = shanghaiMidnight(l.at);
      const p = expected.get(at) ?? { at, calls: 0, ips: 0 };
      expected.set(at, { at, calls: p.calls + 1, ips: p.ips + l.returned });
    }
    expect(chart.body.P?.points).toEqual([...expected.values()].sort((a, b) => a.at - b.at));

    const day = await callApi('ProxyRPC.GetCharts', { range: '24h' }, { cookie });
    const dayFrom = day.body.P?.from ?? 0;
    const hours = new Map<number, { at: number; calls: number; ips: number }>();
    for (const l of logged.filter((x) => x.at >= dayFrom)) {
      const p = hours.get(hourOf(l.at)) ?? { at: hourOf(l.at), calls: 0, ips: 0 };
      hours.set(p.at, { at: p.at, calls: p.calls + 1, ips: p.ips + l.returned });
    }
    expect(hours.size).toBeGreaterThan(0);
    expect(day.body.P?.points).toEqual([...hours.values()].sort((a, b) => a.at - b.at));

    // The purge removes the log and the counters before the cutoff; the window's numbers do not move.
    const purgeAt = Date.now();
    const cutoff = purgeAt - 180 * DAY_MS;
    const hoursBefore = new Set(logged.map((l) => hourOf(l.at)).filter((h) => h < cutoff)).size;
    const removed = await purgeRetained(env.DB, 180, purgeAt);
    expect(removed).toMatchObject({ extract_logs: 1, extract_hour_counts: hoursBefore });
    expect(hoursBefore).toBeGreaterThan(0);
    const after = await callApi('ProxyRPC.GetList', { range: '180d' }, { cookie });
    expect(after.body.P?.total).toBe(inWindow.length);
    const week = await callApi('ProxyRPC.GetCharts', { range: '7d' }, { cookie });
    const weekDays = new Map<number, number>();
    for (const l of logged.filter((x) => x.at >= (week.body.P?.from ?? 0))) {
      weekDays.set(shanghaiMidnight(l.at), (weekDays.get(shanghaiMidnight(l.at)) ?? 0) + 1);
    }
    expect(week.body.P?.points.map((p) => [p.at, p.calls])).toEqual([...weekDays].sort((a, b) => a[0] - b[0]));
    expect([...weekDays.values()].reduce((a, b) => a + b, 0)).toBe(6);
  });
});
