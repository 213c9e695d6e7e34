import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeMineInfoCookie } from '../../src/lib/mine-info';
import { BASE, callApi, resetDb } from '../helpers/api';
import { rateWindows } from '../helpers/delivery';
import { operatorCookie } from '../helpers/operators';
import { listRedirects, upsertRedirect } from '../../src/server/db/redirects';

beforeEach(resetDb);

const get = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE}${path}`, { redirect: 'manual', headers });

const SEED_301: [string, string][] = [
  ['/getApi', '/getProxy/10'],
  ['/getApi/getApi.html', '/getProxy/10'],
  ['/doc', '/getProxy/10#api'],
  ['/doc/doc.html', '/getProxy/10#api'],
  ['/meal/buy.html', '/buy?type=10'],
  ['/buy/buy.html', '/buy?type=10'],
  ['/my/user/index', '/personalCenter'],
  ['/my/proxy/index', '/personalCenter/packageManager/10'],
  ['/my/longIp/index', '/personalCenter/ipManager/30'],
  ['/my/order/index', '/personalCenter/orderManager'],
  ['/my/proxy/rpc', '/personalCenter/getAgent/record'],
  ['/my/gift/index', '/personalCenter/couponManager'],
  ['/my/whiteIp/index', '/personalCenter/getAgent/whiteList'],
];

describe('seed 301 redirects', () => {
  it.each(SEED_301)('%s -> %s', async (from, to) => {
    const res = await get(from);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(to);
  });

  it('keeps the query string, before the fragment', async () => {
    expect((await get('/doc?utm=1')).headers.get('location')).toBe('/getProxy/10?utm=1#api');
    expect((await get('/my/order/index?page=2')).headers.get('location')).toBe('/personalCenter/orderManager?page=2');
    expect((await get('/meal/buy.html?x=1')).headers.get('location')).toBe('/buy?type=10');
  });
});

describe('operator path redirects (D1 + KV cache)', () => {
  it('redirects by a stored rule, caches the answer in KV, and sees changes at once', async () => {
    const cookie = await operatorCookie('ops');
    expect((await get('/old-activity')).status).toBe(200); // falls through to pages
    expect(await env.KV.get('redirect:v1:/old-activity', 'json')).toEqual({ to: null });

    const saved = await callApi(
      'Redirect.Save',
      { fromPath: '/old-activity', toPath: '/rebate', status: 301 },
      { cookie },
    );
    expect(saved.body).toEqual({ P: { saved: true } });
    const first = await get('/old-activity?from=ad');
    expect(first.status).toBe(301);
    expect(first.headers.get('location')).toBe('/rebate?from=ad');
    expect(await env.KV.get('redirect:v1:/old-activity', 'json')).toEqual({ to: '/rebate', status: 301 });

    // Served from KV even if D1 changes behind the cache's back...
    await upsertRedirect(env.DB, { fromPath: '/old-activity', toPath: '/help', status: 301, updatedAt: Date.now() });
    expect((await get('/old-activity')).headers.get('location')).toBe('/rebate');
    // ...while a change through the action invalidates it immediately.
    await callApi('Redirect.Save', { fromPath: '/old-activity', toPath: '/help', status: 302 }, { cookie });
    const changed = await get('/old-activity');
    expect(changed.status).toBe(302);
    expect(changed.headers.get('location')).toBe('/help');

    expect((await callApi('Redirect.Delete', { fromPath: '/old-activity' }, { cookie })).body).toEqual({
      P: { deleted: true },
    });
    expect((await get('/old-activity')).status).toBe(200);
  });

  it('refuses bad rules and the seed paths', async () => {
    const cookie = await operatorCookie('ops');
    const bad = await callApi('Redirect.Save', { fromPath: 'no-slash', toPath: '/x' }, { cookie });
    expect(bad.status).toBe(400);
    const offsite = await callApi('Redirect.Save', { fromPath: '/x', toPath: 'http://evil.example' }, { cookie });
    expect(offsite.body.E).toBe('目标必须是站内路径或 https 地址');
    const fixed = await callApi('Redirect.Save', { fromPath: '/getApi', toPath: '/x' }, { cookie });
    expect(fixed.body.E).toMatch(/固定跳转/);
    expect(await listRedirects(env.DB)).toHaveLength(0);
  });

  it('never consults the table for API and RSC paths', async () => {
    await upsertRedirect(env.DB, { fromPath: '/api', toPath: '/x', status: 301, updatedAt: 0 });
    expect((await callApi('User.Logout')).status).toBe(200);
  });
});

describe('personal-centre guard', () => {
  it('sends logged-out visitors to /login and clears both session cookies', async () => {
    for (const path of ['/personalCenter', '/personalCenter/orderManager', '/personalCenter/buy?type=10&tab=1']) {
      const res = await get(path);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location') ?? '', BASE);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('redirect')).toBe(path);
      const cookies = res.headers.getSetCookie();
      expect(cookies.some((c) => c.startsWith('token=;') && c.includes('Max-Age=0'))).toBe(true);
      expect(cookies.some((c) => c.startsWith('Mine_Info=;') && c.includes('Max-Age=0'))).toBe(true);
    }
  });

  it('treats a Mine_Info without an id, or garbage, as logged out', async () => {
    for (const value of ['%7B%7D', 'garbage', encodeURIComponent('{"id":"x"}')]) {
      expect((await get('/personalCenter', { cookie: `Mine_Info=${value}` })).status).toBe(302);
    }
  });

  it('lets a Mine_Info holding an id through', async () => {
    const info = encodeMineInfoCookie({
      id: 7,
      phone: '138****1234',
      isIdentityAuth: false,
      isCompanyAuth: false,
      companyState: 0,
    });
    const res = await get('/personalCenter/orderManager', { cookie: `Mine_Info=${info}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-page-stand-in')).toBe('1');
  });

  it('clears the cookies on client-navigation (RSC) requests without an id', async () => {
    const res = await get('/RSC/R/personalCenter/orderManager.txt');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('Mine_Info=;'))).toBe(true);
  });

  it('leaves other paths alone', async () => {
    expect((await get('/personalCenterX')).status).toBe(200);
    expect((await get('/help')).status).toBe(200);
  });
});

describe('headers and errors', () => {
  it('sets security headers and a request id on pages and API answers', async () => {
    for (const res of [await get('/'), await SELF.fetch(`${BASE}/api`, { method: 'POST', body: '{}' })]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    }
  });

  it('serves the build id', async () => {
    const res = await get('/builds/latest.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ buildId: expect.any(String) });
  });

  it('answers the benchmark D1 floor outside production: a read, and a write that counts only for user 0', async () => {
    const counter = rateWindows;
    const read = await get('/dev/d1-floor?op=read');
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ code: 0 });
    expect(await counter()).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await get('/dev/d1-floor?op=write')).status).toBe(200);
    const rows = await counter();
    expect(rows.map((r) => r.userId)).toEqual([0]);
    expect(rows[0]?.count).toBe(2);
  });

  it('exposes the development SMS outbox outside production only', async () => {
    await callApi('User.GetCode', { phone: '13800000050' });
    const res = await get('/dev/sms-outbox?phone=13800000050');
    const body = (await res.json()) as { messages: { params: { code: string } }[] };
    expect(body.messages[0]?.params.code).toMatch(/^\d{6}$/);
  });
});
