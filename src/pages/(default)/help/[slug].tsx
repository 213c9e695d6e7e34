// /help/{url}.html (a category listing, or an article by url), /help/detail_{articleId}.html (an article by id), and
// /help/search?keyword= (forwarded to /help/search/{keyword}).
import { unstable_redirect as redirect } from 'waku/router/server';
import { Breadcrumb } from '../../../components/breadcrumb';
import { renderArticlePage } from '../../../components/help/article-page';
import { HelpFrame, HelpSidebar, TitleList } from '../../../components/help/help-parts';
import { notFoundPage } from '../../../components/not-found-view';
import { PageMeta } from '../../../components/page-meta';
import { parseHelpSlug } from '../../../lib/help-paths';
import { loadHelpSidebar } from '../../../server/help-pages';
import { load } from '../../../server/page-data';

export default async function HelpSlugPage({ slug, query }: { slug: string; query?: string }) {
  if (slug === 'search') {
    // The no-JavaScript search form posts here (GET /help/search?keyword=…).
    const kw = new URLSearchParams(query ?? '').get('keyword')?.trim().slice(0, 50) ?? '';
    redirect(kw ? `/help/search/${encodeURIComponent(kw)}` : '/help');
  }
  const parsed = parseHelpSlug(slug);
  if (!parsed) return notFoundPage();
  const sidebar = await loadHelpSidebar();
  if (parsed.kind === 'url') {
    const cat = await load(
      'HelpRenovation.GetTypeById',
      {
        url: parsed.url,
        pageSize: 50,
      },
      null,
    );
    if (cat) {
      const c = cat.category;
      return (
        <HelpFrame sidebar={<HelpSidebar categories={sidebar.categories} hot={sidebar.hot} activeCategoryId={c.id} />}>
          <PageMeta title={`${c.type} - 帮助中心`} description={c.desc} path={c.path} />
          <section className="card p-5 md:p-8">
            <Breadcrumb
              items={[{ label: '首页', href: '/' }, { label: '帮助中心', href: '/help' }, { label: c.type }]}
            />
            <h1 className="mt-4 text-2xl font-bold text-ink">{c.type}</h1>
            <p className="mt-2 text-sm text-slate-600">{c.desc}</p>
            <div className="mt-4">
              <TitleList items={c.articleList} showSummary />
            </div>
          </section>
        </HelpFrame>
      );
    }
  }
  return renderArticlePage(parsed, sidebar);
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
