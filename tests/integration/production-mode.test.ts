// The same edge app under production configuration: AES-only /api, no development endpoints, no SMS outbox.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEdgeApp } from '../../src/edge/app';
import { transportKeyFromHex } from '../../src/lib/envelope';
import { resetDb } from '../helpers/api';
import { rateWindows } from '../helpers/delivery';
import { decryptText, encryptText } from '../helpers/envelope-reference';
import { readConfig } from '../../src/server/env';
import { listOutbox } from '../../src/server/db/sms';

beforeEach(resetDb);

const KEY = 'a1'.repeat(32);
const IV = 'b2'.repeat(16);
const prodEnv = {
  ...env,
  APP_ENV: 'production',
  API_AES_KEY: KEY,
  API_AES_IV: IV,
  SESSION_SECRET: 'p'.repeat(40),
  CHAT_SIGN_SECRET: 'c'.repeat(40),
};
const tk = transportKeyFromHex(KEY, IV);
const app = createEdgeApp();

describe('production mode', () => {
  it('refuses plain JSON bodies and answers encrypted requests with its own key', async () => {
    const plain = await app.request(
      '/api',
      { method: 'POST', body: '{"A":"User.Logout"}', headers: { 'content-type': 'application/json' } },
      prodEnv,
    );
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({ E: '请使用加密请求' });

    const enc = await app.request(
      '/api',
      {
        method: 'POST',
        body: encryptText('{"A":"User.Logout","P":{}}', tk),
        headers: { 'content-type': 'text/plain' },
      },
      prodEnv,
    );
    expect(enc.status).toBe(200);
    expect(JSON.parse(decryptText(await enc.text(), tk))).toEqual({ P: { loggedOut: true } });
  });

  it('hides the development outbox', async () => {
    expect((await app.request('/dev/sms-outbox', {}, prodEnv)).status).toBe(404);
  });

  it('hides the benchmark D1 floor and writes nothing through it', async () => {
    for (const op of ['read', 'write']) {
      expect((await app.request(`/dev/d1-floor?op=${op}`, {}, prodEnv)).status).toBe(404);
    }
    expect((await rateWindows()).filter((c) => c.userId === 0)).toHaveLength(0);
  });

  it('fails closed: a missing or unknown APP_ENV is production', async () => {
    for (const APP_ENV of [undefined, '', 'staging', 'Development']) {
      const res = await app.request('/dev/sms-outbox', {}, { ...prodEnv, APP_ENV });
      expect(res.status, String(APP_ENV)).toBe(404);
    }
  });

  it('never uses the outbox: without Aliyun configuration sending fails and nothing is stored', async () => {
    const res = await app.request(
      '/api',
      {
        method: 'POST',
        body: encryptText('{"A":"User.GetCode","P":{"phone":"13800000001"}}', tk),
        headers: { 'content-type': 'text/plain', 'cf-connecting-ip': '198.51.100.1' },
      },
      { ...prodEnv, SMS_PROVIDER: 'outbox' },
    );
    expect(res.status).toBe(500);
    expect(JSON.parse(decryptText(await res.text(), tk))).toEqual({ E: '服务繁忙，请稍后再试' });
    expect(await listOutbox(env.DB, null, 10)).toHaveLength(0);
  });

  it('refuses to start without its secrets', async () => {
    const res = await app.request(
      '/api',
      { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
      { ...env, APP_ENV: 'production' },
    );
    expect(res.status).toBe(500);
  });

  it('requires its own CHAT_SIGN_SECRET (the customer-service signature key) in production only', async () => {
    expect(() => readConfig({ ...prodEnv, CHAT_SIGN_SECRET: '' })).toThrow(/CHAT_SIGN_SECRET/);
    expect(readConfig(prodEnv).chatSignSecret).toBe('c'.repeat(40));
    const dev = readConfig({ ...prodEnv, APP_ENV: 'development', CHAT_SIGN_SECRET: '' });
    expect(dev.chatSignSecret.length).toBeGreaterThanOrEqual(32);
    expect(dev.chatSignSecret).not.toBe(dev.sessionSecret);
  });

  it('sets Secure on session cookies', async () => {
    const res = await app.request(
      '/api',
      { method: 'POST', body: encryptText('{"A":"User.Logout"}', tk), headers: { 'content-type': 'text/plain' } },
      prodEnv,
    );
    expect(res.headers.getSetCookie().every((c) => c.includes('Secure'))).toBe(true);
  });
});

describe('production security headers (docs/decisions/097)', () => {
  const PAGE = `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js">
<link rel="modulepreload" href="/assets/index.js">
<script type="application/ld+json">{"@type":"WebSite"}</script></head><body><div id="root">x</div>
<script id="_R_">globalThis.__WAKU_HYDRATE__ = true;
  import("/assets/index.js")</script><script>(self.__FLIGHT_DATA||=[]).push("0:[]")</script>
<link rel="modulepreload" href="/assets/late.js">
<script type="module" src="/assets/b.js"></script></body></html>`;
  const pages = createEdgeApp((c) => c.html(PAGE));

  it('sends HSTS and a nonce-based script-src, with the nonce on every executable script of the page', async () => {
    const res = await pages.request('/help', {}, prodEnv);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]{24})' 'strict-dynamic'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    const html = await res.text();
    expect(html.match(/<script[^>]*>/g)).toEqual([
      '<script type="application/ld+json">',
      `<script id="_R_" nonce="${nonce}">`,
      `<script nonce="${nonce}">`,
      `<script type="module" src="/assets/b.js" nonce="${nonce}">`,
    ]);
    expect(html).toContain(`<link rel="modulepreload" href="/assets/late.js" nonce="${nonce}">`);
    // A fresh nonce per response.
    const again = (await pages.request('/help', {}, prodEnv)).headers.get('content-security-policy');
    expect(again).not.toBe(csp);
  });

  it('moves the module preloads of <head> into the bootstrap, which loads them after the first paint (decision 175)', async () => {
    const html = await (await pages.request('/help', {}, prodEnv)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('modulepreload');
    const bootstrap = /<script id="_R_"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(bootstrap).toContain('globalThis.__WAKU_HYDRATE__ = true;');
    expect(bootstrap).not.toMatch(/^\s*import\(/m);
    expect(bootstrap).toContain('"first-contentful-paint"');
    expect(bootstrap.endsWith('})("/assets/index.js",["/assets/a.js"])')).toBe(true);
    // A preload streamed after the bootstrap stays where it is.
    expect(html).toMatch(/<link rel="modulepreload" href="\/assets\/late.js" nonce="/);
  });

  it('leaves a bootstrap of another shape alone', async () => {
    const other = createEdgeApp((c) =>
      c.html('<html><head></head><body><script id="_R_">start()</script></body></html>'),
    );
    const html = await (await other.request('/help', {}, prodEnv)).text();
    expect(html).toMatch(/<script id="_R_" nonce="[^"]+">start\(\)<\/script>/);
  });

  it('lets nothing run from non-HTML responses and keeps HSTS out of development', async () => {
    const api = await app.request(
      '/api',
      { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
      prodEnv,
    );
    expect(api.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(api.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const dev = await pages.request('/help', {}, { ...prodEnv, APP_ENV: 'development' });
    expect(dev.headers.get('strict-transport-security')).toBeNull();
    expect(dev.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
  });
});
