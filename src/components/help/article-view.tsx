// One help or news article: breadcrumb, title, date and views, the sanitised body, neighbours and related articles,
// with per-page SEO tags and Article structured data.

import type { ActionOutput } from '../../lib/api-core';
import { formatDate } from '../../lib/format';
import { articlePath } from '../../lib/help-paths';
import { SITE } from '../../lib/site';
import { siteOrigin } from '../../server/page-meta';
import { Breadcrumb } from '../breadcrumb';
import { PageMeta } from '../page-meta';

export type ArticlePayload = ActionOutput<'HelpRenovation.GetArticleById'>;

export async function ArticleView({ data }: { data: ArticlePayload }) {
  const { article: a, newer, older, related } = data;
  const origin = await siteOrigin();
  const path = articlePath(a.url);
  const crumbs = [
    { label: '首页', href: '/' },
    { label: '帮助中心', href: '/help' },
    a.category ? { label: a.category.type, href: a.category.path } : { label: '新闻动态', href: '/help#news' },
    { label: a.Title },
  ];
  return (
    <article className="card p-5 md:p-8" data-testid="help-article">
      <PageMeta
        title={a.Title}
        description={a.description}
        path={path}
        type="article"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': a.kind === 'news' ? 'NewsArticle' : 'Article',
          headline: a.Title,
          description: a.description,
          datePublished: new Date(a.publishedAt).toISOString(),
          dateModified: new Date(a.updatedAt).toISOString(),
          mainEntityOfPage: `${origin}${path}`,
          inLanguage: 'zh-CN',
          keywords: a.keywords.join(','),
          author: { '@type': 'Organization', name: SITE.companyName },
          publisher: {
            '@type': 'Organization',
            name: SITE.name,
            logo: { '@type': 'ImageObject', url: `${origin}/favicon.svg` },
          },
        }}
      />
      <Breadcrumb items={crumbs} />
      <h1 className="mt-4 text-2xl leading-snug font-bold text-ink md:text-3xl">{a.Title}</h1>
      <p className="mt-3 flex flex-wrap gap-x-4 text-sm text-slate-500">
        <time dateTime={new Date(a.publishedAt).toISOString()}>发布于 {formatDate(a.publishedAt)}</time>
        <span>阅读 {a.views.toLocaleString('zh-CN')}</span>
        {a.category && (
          <a href={a.category.path} className="text-brand-700 hover:underline">
            {a.category.type}
          </a>
        )}
      </p>
      {a.summary && (
        <p className="mt-5 rounded-lg bg-slate-50 px-4 py-3 text-sm leading-6 text-slate-600">{a.summary}</p>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: body is sanitised by the allow-list sanitiser on the server */}
      <div className="prose-help mt-4" dangerouslySetInnerHTML={{ __html: a.content }} />
      <nav
        aria-label="上一篇与下一篇"
        className="mt-10 grid gap-3 border-t border-slate-100 pt-6 text-sm md:grid-cols-2"
      >
        {newer ? (
          <a href={newer.Url} className="rounded-lg border border-slate-200 p-3 hover:border-brand-300">
            <span className="block text-xs text-slate-500">上一篇</span>
            {newer.Title}
          </a>
        ) : (
          <span />
        )}
        {older && (
          <a href={older.Url} className="rounded-lg border border-slate-200 p-3 text-right hover:border-brand-300">
            <span className="block text-xs text-slate-500">下一篇</span>
            {older.Title}
          </a>
        )}
      </nav>
      {related.length > 0 && (
        <section className="mt-8">
          <h2 className="text-base font-semibold text-ink">相关文章</h2>
          <ul className="mt-3 grid gap-2 text-sm md:grid-cols-2">
            {related.map((r) => (
              <li key={r.id}>
                <a href={r.Url} className="text-slate-700 hover:text-brand-700">
                  · {r.Title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
