// /help: the help centre home: search, the tutorial and product sections (categories having articles, first 4 each),
// news and the hot list.

import { HelpSidebar, TitleList } from '../../../components/help/help-parts';
import { HelpSearchBox } from '../../../components/help/help-search-box';
import { PageMeta } from '../../../components/page-meta';
import { loadHelpSidebar } from '../../../server/help-pages';
import { load } from '../../../server/page-data';
import { type CategoryDto, latestNews } from '../../../server/public-data';

function Section({ title, categories }: { title: string; categories: CategoryDto[] }) {
  return (
    <section className="card p-5 md:p-6">
      <h2 className="text-xl font-bold text-ink">{title}</h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        {categories.map((c) => (
          <div key={c.id}>
            <div className="flex items-baseline justify-between">
              <h3 className="font-semibold text-ink">
                <a href={c.path} className="hover:text-brand-700">
                  {c.type}
                </a>
              </h3>
              <a href={c.path} className="text-xs text-brand-700 hover:underline">
                全部 {c.articleCount} 篇
              </a>
            </div>
            <p className="mt-1 text-xs text-slate-500">{c.desc}</p>
            <ul className="mt-2 space-y-1.5 text-sm">
              {c.articleList.map((a) => (
                <li key={a.id}>
                  <a href={a.Url} className="line-clamp-1 text-slate-700 hover:text-brand-700">
                    {a.Title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

export default async function HelpHomePage() {
  const [sidebar, tutorials, products, news] = await Promise.all([
    loadHelpSidebar(),
    load(
      'HelpRenovation.ArticleSecondCategoryListV2',
      {
        topCategory: 0,
        articleNum: 5,
      },
      null,
    ),
    load(
      'HelpRenovation.ArticleSecondCategoryListV2',
      {
        topCategory: 2,
        articleNum: 5,
      },
      null,
    ),
    latestNews(),
  ]);
  return (
    <>
      <PageMeta
        title="帮助中心 - 代理IP使用教程与常见问题"
        description="云枢代理帮助中心：注册实名、购买套餐、API提取、白名单、各语言接入示例、计费与发票等使用教程和常见问题解答。"
        path="/help"
      />
      <div className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="container-page py-8 md:py-12">
          <h1 className="text-2xl font-bold text-ink md:text-3xl">帮助中心</h1>
          <p className="mt-2 text-slate-600">从注册到接入，常见问题一站解决</p>
          <div className="mt-5">
            <HelpSearchBox />
          </div>
        </div>
      </div>
      <div className="container-page grid gap-6 pb-10 md:grid-cols-[1fr_300px]">
        <div className="min-w-0 space-y-6">
          <Section title="使用教程" categories={tutorials?.list ?? []} />
          <Section title="产品与功能" categories={products?.list ?? []} />
          <section className="card p-5 md:p-6" id="news">
            <h2 className="text-xl font-bold text-ink">新闻动态</h2>
            <TitleList items={news} showSummary />
          </section>
        </div>
        <HelpSidebar categories={sidebar.categories} hot={sidebar.hot} />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
