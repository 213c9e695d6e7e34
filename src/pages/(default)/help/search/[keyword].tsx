// /help/search/{keyword}: help articles matching a keyword (title hits first).
import { Breadcrumb } from '../../../../components/breadcrumb';
import { HelpFrame, HelpSidebar, TitleList } from '../../../../components/help/help-parts';
import { HelpSearchBox } from '../../../../components/help/help-search-box';
import { PageMeta } from '../../../../components/page-meta';
import { normalizeKeyword } from '../../../../server/domain/help';
import { loadHelpSidebar } from '../../../../server/help-pages';
import { publicCall, type TitleDto } from '../../../../server/public-data';

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export default async function HelpSearchPage({ keyword }: { keyword: string }) {
  const kw = normalizeKeyword(decode(keyword)) ?? '';
  const [result, sidebar] = await Promise.all([
    kw
      ? publicCall<{ list: TitleDto[]; total: number }>('HelpRenovation.GetArticleBykw', { keyword: kw, pageSize: 30 })
      : null,
    loadHelpSidebar(),
  ]);
  const list = result?.list ?? [];
  return (
    <HelpFrame sidebar={<HelpSidebar categories={sidebar.categories} hot={sidebar.hot} />}>
      <PageMeta
        title={`“${kw}”的搜索结果 - 帮助中心`}
        description={`帮助中心中与“${kw}”相关的文章。`}
        path={`/help/search/${encodeURIComponent(kw)}`}
        noindex
      />
      <section className="card p-5 md:p-8" data-testid="help-search">
        <Breadcrumb items={[{ label: '首页', href: '/' }, { label: '帮助中心', href: '/help' }, { label: '搜索' }]} />
        <div className="mt-4">
          <HelpSearchBox initial={kw} />
        </div>
        <h1 className="mt-6 text-xl font-bold text-ink">
          “{kw}”共找到 {result?.total ?? 0} 篇文章
        </h1>
        {list.length > 0 ? (
          <TitleList items={list} showSummary />
        ) : (
          <p className="py-10 text-center text-sm text-slate-600">
            没有找到相关文章，换个关键词试试，或{' '}
            <a href="/help" className="text-brand-700 underline">
              浏览全部分类
            </a>
            。
          </p>
        )}
      </section>
    </HelpFrame>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
