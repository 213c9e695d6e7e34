// A page's server components call several actions in process under the one execution context of their render
// (src/server/api-server.ts): the render reads its session once, and nothing is shared between contexts or tokens
// (docs/decisions/192).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEndpointApp } from '../../src/edge/app';
import { messages } from '../../src/lib/messages';
import { BASE, loginBySms, resetDb } from '../helpers/api';
import { operatorCookie } from '../helpers/operators';

beforeEach(resetDb);

/** The test's bindings with a D1 that counts the statements reading a sessions table (customers' or operators'). */
function countingEnv() {
  let sessionReads = 0;
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare') {
        return (sql: string) => {
          if (/\bFROM (operator_)?sessions\b/.test(sql)) sessionReads++;
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { bindings: { ...env, DB: db }, sessionReads: () => sessionReads };
}

const renderContext = () => ({ waitUntil() {}, passThroughOnException() {}, props: {} }) as unknown as ExecutionContext;

async function call<T>(
  A: string,
  app: ReturnType<typeof createEndpointApp>,
  bindings: unknown,
  ctx: ExecutionContext,
  cookie: string,
): Promise<{ P?: T; E?: string }> {
  const res = await app.fetch(
    new Request(`${BASE}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'cf-connecting-ip': '198.51.100.10' },
      body: JSON.stringify({ A, P: {} }),
    }),
    bindings as never,
    ctx,
  );
  return res.json();
}

const mineInfo = (...a: [ReturnType<typeof createEndpointApp>, unknown, ExecutionContext, string]) =>
  call<{ phone?: string }>('User.GetMineInfo', ...a);

describe('the session of one render', () => {
  it('is read once for all the calls made under one execution context, and again under another', async () => {
    const cookie = await loginBySms('13800000001');
    const app = createEndpointApp();
    const { bindings, sessionReads } = countingEnv();
    const render = renderContext();
    const [a, b, c] = await Promise.all([
      mineInfo(app, bindings, render, cookie),
      mineInfo(app, bindings, render, cookie),
      mineInfo(app, bindings, render, cookie),
    ]);
    for (const r of [a, b, c]) expect(r.P?.phone).toMatch(/^138\*{4}0001$/);
    expect(sessionReads()).toBe(1);
    const next = await mineInfo(app, bindings, renderContext(), cookie);
    expect(next.P?.phone).toMatch(/^138\*{4}0001$/);
    expect(sessionReads()).toBe(2);
  });

  it('is kept per token: another cookie under the same context is resolved on its own', async () => {
    const first = await loginBySms('13800000001');
    const second = await loginBySms('13800000002');
    const app = createEndpointApp();
    const { bindings } = countingEnv();
    const render = renderContext();
    expect((await mineInfo(app, bindings, render, first)).P?.phone).toMatch(/0001$/);
    expect((await mineInfo(app, bindings, render, second)).P?.phone).toMatch(/0002$/);
    const forged = first.replace(/=([^;]+)/, '=not-a-session-token');
    expect((await mineInfo(app, bindings, render, forged)).E).toBe(messages.loginExpired);
  });

  it("is read once per render for an operator's console too", async () => {
    const cookie = await operatorCookie('admin');
    const app = createEndpointApp();
    const { bindings, sessionReads } = countingEnv();
    const render = renderContext();
    const pages = await Promise.all([1, 2].map(() => call<object>('Admin.Dashboard', app, bindings, render, cookie)));
    for (const r of pages) expect(r).toEqual({ P: expect.any(Object) });
    expect(sessionReads()).toBe(1);
  });
});
