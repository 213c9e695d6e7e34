// A page's server components call several actions through the one client of their request (src/server/api-server.ts,
// a direct dispatch as the page request's caller): the render reads its session once, and nothing is shared between
// requests or tokens (docs/decisions/192, 211).
import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, directClient } from '../../src/server/dispatch';
import type { Bindings } from '../../src/server/env';
import { BASE, countingSessionReads, loginBySms, resetDb } from '../helpers/api';
import { operatorCookie } from '../helpers/operators';

beforeEach(resetDb);

/** The client one page render gets: the page request's cookie, IP and agent. */
const renderClient = (bindings: Bindings, cookie: string) =>
  directClient(
    callerOf(
      bindings,
      new Request(`${BASE}/personalCenter`, { headers: { cookie, 'cf-connecting-ip': '198.51.100.10' } }),
      {
        sourceType: 1,
        waitUntil() {},
      },
    ),
  );

describe('the session of one render', () => {
  it('is read once for all the calls of one render, and again in the next render', async () => {
    const cookie = await loginBySms('13800000001');
    const { bindings, sessionReads } = countingSessionReads();
    const render = renderClient(bindings, cookie);
    const [a, b, c] = await Promise.all([
      render.call('User.GetMineInfo', {}, { silent: true }),
      render.call('User.GetMineInfo', {}, { silent: true }),
      render.call('User.GetMineInfo', {}, { silent: true }),
    ]);
    for (const r of [a, b, c]) expect(r ? r.phone : null).toMatch(/^138\*{4}0001$/);
    expect(sessionReads()).toBe(1);
    const next = await renderClient(bindings, cookie).call('User.GetMineInfo', {}, { silent: true });
    expect(next ? next.phone : null).toMatch(/^138\*{4}0001$/);
    expect(sessionReads()).toBe(2);
  });

  it("is each request's own: another cookie gets its own customer, a forged token gets nothing", async () => {
    const first = await loginBySms('13800000001');
    const second = await loginBySms('13800000002');
    const { bindings } = countingSessionReads();
    const one = await renderClient(bindings, first).call('User.GetMineInfo', {}, { silent: true });
    const two = await renderClient(bindings, second).call('User.GetMineInfo', {}, { silent: true });
    expect(one ? one.phone : null).toMatch(/0001$/);
    expect(two ? two.phone : null).toMatch(/0002$/);
    const forged = first.replace(/=([^;]+)/, '=not-a-session-token');
    expect(await renderClient(bindings, forged).call('User.GetMineInfo', {}, { silent: true })).toBe(false);
  });

  it("is read once per render for an operator's console too", async () => {
    const cookie = await operatorCookie('admin');
    const { bindings, sessionReads } = countingSessionReads();
    const render = renderClient(bindings, cookie);
    const pages = await Promise.all([1, 2].map(() => render.call('Admin.Dashboard', {}, { silent: true })));
    for (const r of pages) expect(r).toEqual(expect.any(Object));
    expect(sessionReads()).toBe(1);
  });
});
