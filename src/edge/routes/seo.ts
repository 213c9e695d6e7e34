// GET /sitemap.xml (every public page, help category and article) and GET /robots.txt (personal centre, API and
// payment paths kept out). Addresses are absolute on the configured portal origin, else the request's own.
import { Hono } from 'hono';
import { STATIC_PUBLIC_PATHS } from '../../lib/public-pages';
import { listAllTitles, listCategories } from '../../server/db/help';
import { articlePath, categoryPath } from '../../server/domain/help';
import { readConfig } from '../../server/env';
import type { EdgeEnv } from '../types';

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Routes for /sitemap.xml and /robots.txt. */
export function seoRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  const originOf = (c: { env: EdgeEnv['Bindings']; req: { url: string } }) =>
    (readConfig(c.env).portalOrigin ?? new URL(c.req.url).origin).replace(/\/$/, '');

  app.get('/sitemap.xml', async (c) => {
    const origin = originOf(c);
    const [cats, titles] = await Promise.all([listCategories(c.env.DB), listAllTitles(c.env.DB)]);
    const entries: { loc: string; lastmod?: string; priority: string }[] = [
      ...STATIC_PUBLIC_PATHS.map((p) => ({ loc: p, priority: p === '/' ? '1.0' : '0.8' })),
      ...cats.filter((cat) => cat.articleCount > 0).map((cat) => ({ loc: categoryPath(cat.url), priority: '0.6' })),
      ...titles.map((t) => ({ loc: articlePath(t.url), lastmod: isoDate(t.updatedAt), priority: '0.5' })),
    ];
    const body = entries
      .map(
        (e) =>
          `  <url><loc>${xmlEscape(origin + e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}<priority>${e.priority}</priority></url>`,
      )
      .join('\n');
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`,
      200,
      { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
    );
  });

  app.get('/robots.txt', (c) => {
    const origin = originOf(c);
    const lines = [
      'User-agent: *',
      'Allow: /',
      'Disallow: /personalCenter',
      'Disallow: /RSC/R/personalCenter',
      'Disallow: /api',
      'Disallow: /extract',
      'Disallow: /payPage',
      'Disallow: /pay/',
      'Disallow: /dev/',
      'Disallow: /help/search/',
      '',
      `Sitemap: ${origin}/sitemap.xml`,
      '',
    ];
    return c.text(lines.join('\n'), 200, { 'Cache-Control': 'public, max-age=86400' });
  });
  return app;
}
