// The console's edge guard: /admin pages are never indexed or cached, and visitors without the operator cookie are
// sent to /admin/login; public pages are untouched.
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE } from '../helpers/api';

const get = (path: string, cookie?: string) =>
  SELF.fetch(`${BASE}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

describe('admin guard', () => {
  it('sends visitors without the operator cookie to the console login', async () => {
    for (const path of ['/admin', '/admin/orders', '/admin/customers/1']) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location')).toBe('/admin/login');
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
    // A customer session is not an operator session.
    expect((await get('/admin', 'token=abc; Mine_Info=x')).status).toBe(302);
  });

  it('serves the login page and, with the cookie, the console; never indexed, never cached', async () => {
    const login = await get('/admin/login');
    expect(login.status).toBe(200);
    expect(login.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const page = await get('/admin/orders', 'admin_token=anything');
    expect(page.status).toBe(200); // the layout checks the session itself
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect((await get('/RSC/R/admin/orders.txt')).headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('leaves public pages alone', async () => {
    const res = await get('/help');
    expect(res.headers.get('x-robots-tag')).toBeNull();
    expect((await get('/administrator')).status).not.toBe(302);
  });
});
