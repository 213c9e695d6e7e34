import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { createApiClient, LruCache, onceWithin, type Transport } from '../../src/lib/api-core';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  envelopeCodec,
  transportKeyFromHex,
} from '../../src/lib/envelope';
import { decodeEnvelope, encodeEnvelope } from '../helpers/envelope-reference';

const key = transportKeyFromHex(DEV_TRANSPORT_KEY_HEX, DEV_TRANSPORT_IV_HEX);

/** The core's behaviour does not depend on the registry: these tests call made-up actions with any input. */
type AnyContract = Record<string, { input: z.ZodUnknown; handler: () => Promise<unknown> }>;

function setup(reply: (A: string, P: unknown) => { status: number; body: unknown }, mode: 'json' | 'aes' = 'json') {
  const seen: { A: string; P: unknown; sourceType: number; contentType: string }[] = [];
  const transport: Transport = async (req) => {
    const { A, P } = decodeEnvelope(req.body, mode, key) as { A: string; P: unknown };
    seen.push({ A, P, sourceType: req.sourceType, contentType: req.contentType });
    const r = reply(A, P);
    return { status: r.status, text: encodeEnvelope(r.body, mode, key) };
  };
  let scope = 'u1';
  let t = 1_000;
  const onError = vi.fn();
  const onAuthExpired = vi.fn();
  const client = createApiClient<AnyContract>({
    transport,
    mode,
    codec: envelopeCodec(mode, key),
    sourceType: () => 2,
    cacheScope: () => scope,
    isCacheable: (a) => a.startsWith('Help.'),
    onError,
    onAuthExpired,
    now: () => t,
  });
  return {
    client,
    seen,
    onError,
    onAuthExpired,
    setScope: (s: string) => (scope = s),
    advance: (ms: number) => (t += ms),
  };
}

describe('api client core', () => {
  it('returns P, sends A/P in the envelope and the source type, in both modes', async () => {
    for (const mode of ['json', 'aes'] as const) {
      const { client, seen } = setup(() => ({ status: 200, body: { P: { ok: 1 } } }), mode);
      expect(await client.call('User.GetMineInfo', { a: 1 })).toEqual({ ok: 1 });
      expect(seen[0]).toMatchObject({ A: 'User.GetMineInfo', P: { a: 1 }, sourceType: 2 });
      expect(seen[0]?.contentType).toContain(mode === 'aes' ? 'text/plain' : 'application/json');
    }
  });

  it('on E shows a toast and returns false, or the whole response when asked', async () => {
    const { client, onError } = setup(() => ({ status: 200, body: { E: '验证码错误' } }));
    expect(await client.call('User.Login')).toBe(false);
    expect(onError).toHaveBeenCalledWith('验证码错误');
    expect(await client.call('User.Login', {}, { raw: true })).toEqual({ E: '验证码错误' });
    await client.call('User.Login', {}, { silent: true });
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('on 401 and 403 runs the login-expired flow and returns false', async () => {
    for (const status of [401, 403]) {
      const { client, onAuthExpired, onError } = setup(() => ({ status, body: { E: '登录已过期，请重新登录' } }));
      expect(await client.call('User.GetMineInfo')).toBe(false);
      expect(onAuthExpired).toHaveBeenCalledTimes(1);
      expect(onError).not.toHaveBeenCalled();
    }
  });

  it('caches only cacheable actions, per scope, for 5 minutes', async () => {
    let n = 0;
    const { client, seen, setScope, advance } = setup(() => ({ status: 200, body: { P: ++n } }));
    expect(await client.call('Help.List', { p: 1 })).toBe(1);
    expect(await client.call('Help.List', { p: 1 })).toBe(1);
    expect(await client.call('Help.List', { p: 2 })).toBe(2);
    expect(await client.call('User.GetMineInfo')).toBe(3);
    expect(await client.call('User.GetMineInfo')).toBe(4);
    setScope('u2');
    expect(await client.call('Help.List', { p: 1 })).toBe(5);
    setScope('u1');
    advance(5 * 60_000);
    expect(await client.call('Help.List', { p: 1 })).toBe(6);
    expect(seen.length).toBe(6);
  });

  it('does not cache E answers and clears on demand', async () => {
    let fail = true;
    const { client, seen } = setup(() => ({ status: 200, body: fail ? { E: 'x' } : { P: 'ok' } }));
    expect(await client.call('Help.List', {}, { silent: true })).toBe(false);
    fail = false;
    expect(await client.call('Help.List')).toBe('ok');
    client.clearCache();
    expect(await client.call('Help.List')).toBe('ok');
    expect(seen.length).toBe(3);
  });

  it('times out after the configured time with the timeout toast', async () => {
    const onError = vi.fn();
    const client = createApiClient<AnyContract>({
      transport: (req) =>
        new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new Error('aborted')))),
      mode: 'json',
      codec: envelopeCodec('json', key),
      sourceType: () => 1,
      cacheScope: () => 'a',
      isCacheable: () => false,
      onError,
      timeoutMs: 20,
    });
    expect(await client.call('User.GetMineInfo')).toBe(false);
    expect(onError).toHaveBeenCalledWith('请求超时，请检查网络后重试');
  });
});

describe('LruCache', () => {
  it('keeps at most 100 entries, evicting the least recently used', () => {
    const c = new LruCache<number>(100, 1000);
    for (let i = 0; i < 100; i++) c.set(`k${i}`, i, 0);
    c.get('k0', 1);
    c.set('k100', 100, 1);
    expect(c.size).toBe(100);
    expect(c.get('k0', 2)).toBe(0);
    expect(c.get('k1', 2)).toBeUndefined();
  });
});

describe('onceWithin', () => {
  it('runs at most once per 3 seconds', () => {
    let t = 0;
    const fn = vi.fn();
    const guarded = onceWithin(3000, fn, () => t);
    guarded();
    t = 2999;
    guarded();
    t = 3000;
    guarded();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
