import { SELF } from 'cloudflare:test';
import QRCode from 'qrcode';
import { beforeEach, describe, expect, it } from 'vitest';
import { BASE } from '../helpers/api';
import { resetWithContent } from '../helpers/content';

beforeEach(resetWithContent);

const get = (path: string) => SELF.fetch(`${BASE}${path}`, { redirect: 'manual' });

describe('sitemap.xml and robots.txt', () => {
  it('lists every public page, scenario, category with articles and article', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/xml');
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const p of [
      '/',
      '/buy?type=10',
      '/getProxy/40',
      '/businessScen/websiteTesting',
      '/region/data',
      '/privacyPolicy',
      '/help/faq.html',
      '/helpDetails/extract-parameters.html',
      '/helpDetails/news-help-center-revamp.html',
    ]) {
      expect(locs).toContain(`${BASE}${p.replace('&', '&amp;')}`);
    }
    expect(locs.some((l) => l?.includes('video-tutorials'))).toBe(false); // empty category
    expect(locs.some((l) => l?.includes('personalCenter'))).toBe(false);
    expect(locs).toHaveLength(new Set(locs).size);
    expect(locs.length).toBeGreaterThanOrEqual(24 + 8 + 33 + 8);
  });

  it('keeps the personal centre out of robots and points at the sitemap', async () => {
    const res = await get('/robots.txt');
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toMatch(/^Disallow: \/personalCenter$/m);
    expect(text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});

describe('promotion capture', () => {
  it('stores did/from/keyword in 30-day cookies and marks seller traffic', async () => {
    const res = await get('/?did=u8842&from=seller&keyword=%E4%BB%A3%E7%90%86');
    const cookies = res.headers.getSetCookie();
    expect(cookies).toContain('did=u8842; Path=/; SameSite=Lax; Max-Age=2592000; Secure');
    expect(cookies).toContain('from=seller; Path=/; SameSite=Lax; Max-Age=2592000; Secure');
    expect(cookies).toContain(`keyword=${encodeURIComponent('代理')}; Path=/; SameSite=Lax; Max-Age=2592000; Secure`);
    expect(res.headers.get('x-traffic-source')).toBe('seller');
  });

  it('sets nothing for a malformed link or outside pages', async () => {
    expect((await get('/?did=%3Cx%3E')).headers.getSetCookie()).toEqual([]);
    expect((await get('/?from=seller')).headers.getSetCookie()).toEqual([]);
    const plain = await get('/?did=abc');
    expect(plain.headers.getSetCookie().filter((c) => c.startsWith('from='))).toEqual([
      'from=; Path=/; SameSite=Lax; Max-Age=0; Secure',
    ]);
    expect(plain.headers.get('x-traffic-source')).toBeNull();
  });
});

describe('the business WeChat QR code (docs/decisions/175)', () => {
  it('is served as a cacheable SVG image that encodes the business WeChat address', async () => {
    const res = await get('/qr/business-wechat.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const expected = await QRCode.toString('https://u.wechat.com/yunshu-proxy', {
      type: 'svg',
      margin: 1,
      errorCorrectionLevel: 'M',
    });
    expect(await res.text()).toBe(expected);
  });
});
