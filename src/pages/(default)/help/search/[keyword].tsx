// /help/search/{keyword}?page=N: help articles matching a keyword, most relevant first, with the matches highlighted
// (titleHtml/snippetHtml come escaped from the server, docs/decisions/091), 20 per page. A failed search says so
// instead of claiming there were no results.
import { Breadcrumb } from '../../../../components/breadcrumb';
import { HelpFrame, HelpSidebar } from '../../../../components/help/help-parts';
import { HelpSearchBox } from '../../../../components/help/help-search-box';
import { pageOf, queryOf } from '../../../../components/list-page';
import { PageMeta } from '../../../../components/page-meta';
import { Pager } from '../../../../components/pager';
import { normalizeKeyword } from '../../../../lib/help-paths';
import { loadHelpSidebar } from '../../../../server/help-pages';
import { load } from '../../../../server/page-data';

const PAGE_SIZE = 20;

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export default async function HelpSearchPage({ keyword, query }: { keyword: string; query?: string }) {
  const kw = normalizeKeyword(decode(keyword)) ?? '';
  const page = pageOf(queryOf(query));
  const [result, sidebar] = await Promise.all([
    kw
      ? load(
          'HelpRenovation.GetArticleBykw',
          {
            keyword: kw,
            page,
            pageSize: PAGE_SIZE,
          },
          null,
        )
      : null,
    loadHelpSidebar(),
  ]);
  const failed = kw !== '' && result === null;
  const list = result?.list ?? [];
  const path = `/help/search/${encodeURIComponent(kw)}`;
  return (
    <HelpFrame sidebar={<HelpSidebar categories={sidebar.categories} hot={sidebar.hot} />}>
      <PageMeta
        title={`“${kw}”的搜索结果 - 帮助中心`}
        description={`帮助中心中与“${kw}”相关的文章。`}
        path={path}
        noindex
      />
      <section className="card p-5 md:p-8" data-testid="help-search">
        <Breadcrumb items={[{ label: '首页', href: '/' }, { label: '帮助中心', href: '/help' }, { label: '搜索' }]} />
        <div className="mt-4">
          <HelpSearchBox initial={kw} />
        </div>
        {failed ? (
          <p className="mt-6 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900" role="alert">
            搜索暂时不可用，请稍后再试，或{' '}
            <a href="/help" className="text-brand-700 underline">
              浏览全部分类
            </a>
            。
          </p>
        ) : (
          <>
            <h1 className="mt-6 break-all text-xl font-bold text-ink">
              “{kw}”共找到 {result?.total ?? 0} 篇文章
            </h1>
            {list.length > 0 ? (
              <>
                <ul className="divide-y divide-slate-100" data-testid="help-search-results">
                  {list.map((a) => (
                    <li key={a.id} className="py-4">
                      <a href={a.Url} className="group block">
                        <span
                          className="break-words font-medium text-ink group-hover:text-brand-700 [&_mark]:bg-amber-100 [&_mark]:text-inherit"
                          // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by the server, only <mark> added
                          dangerouslySetInnerHTML={{ __html: a.titleHtml }}
                        />
                        {a.snippetHtml ? (
                          <span
                            className="mt-1 line-clamp-2 block break-words text-sm text-slate-600 [&_mark]:bg-amber-100 [&_mark]:text-inherit"
                            // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by the server, only <mark> added
                            dangerouslySetInnerHTML={{ __html: a.snippetHtml }}
                          />
                        ) : (
                          a.summary && (
                            <span className="mt-1 line-clamp-2 block text-sm text-slate-600">{a.summary}</span>
                          )
                        )}
                      </a>
                    </li>
                  ))}
                </ul>
                <Pager
                  page={page}
                  pageSize={PAGE_SIZE}
                  total={result?.total ?? 0}
                  href={(p) => (p > 1 ? `${path}?page=${p}` : path)}
                />
              </>
            ) : (
              <p className="py-10 text-center text-sm text-slate-600">
                没有找到相关文章，换个关键词试试，或{' '}
                <a href="/help" className="text-brand-700 underline">
                  浏览全部分类
                </a>
                。
              </p>
            )}
          </>
        )}
      </section>
    </HelpFrame>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
