// /admin/help: the help centre (content role): categories (new, edit, delete when empty) and articles in every state,
// filtered by text, kind, state and category (GET form), 50 a page with the shared pager, each with publish / unpublish and a link to its editor.
import { rowAction } from '../../../../components/data-table';
import { Pager } from '../../../../components/pager';
import { formatDateTime } from '../../../../lib/format';
import type { ActionOutput } from '../../../../lib/api-core';
import { load } from '../../../../server/page-data';
import {
  type Column,
  ListTable,
  listHref,
  queryInt,
  queryText,
  SearchForm,
  TextFilter,
} from '../../_components/console-list';
import { CategoryForm, DeleteButton, PublishToggle } from '../../_components/help-tools';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ARTICLE_STATE, articleStateText } from '../../../../lib/article-states';

const TOP: Record<number, string> = { 0: '使用教程', 2: '产品与功能' };

type ArticleRow = ActionOutput<'Admin.ArticleList'>['list'][number];

const COLUMNS: Column<ArticleRow>[] = [
  {
    head: '标题',
    kind: 'title',
    className: 'font-medium',
    cell: (a) => (
      <>
        {/* The article's own name (it may name a tool: Python、cURL): content, not console wording. */}
        <span className="break-all" translate="no">
          {a.title}
        </span>
        <span className="block text-xs font-normal text-slate-400">/{a.url}</span>
      </>
    ),
  },
  { head: '分类', cell: (a) => (a.kind === 'news' ? '站内新闻' : (a.categoryName ?? '—')) },
  {
    head: '状态',
    cell: (a) => (
      <span className={a.state === ARTICLE_STATE.published ? 'text-emerald-600' : 'text-amber-600'}>
        {articleStateText(a.state)}
      </span>
    ),
  },
  { head: '阅读', cell: (a) => a.views },
  { head: '最近修改', cell: (a) => formatDateTime(a.updatedAt) },
  {
    head: '操作',
    kind: 'actions',
    cell: (a) => (
      <div className="flex flex-wrap items-center gap-2">
        <a href={`/admin/help/${a.id}`} className={rowAction()}>
          编辑
        </a>
        <PublishToggle id={a.id} published={a.state === ARTICLE_STATE.published} />
        {a.state === ARTICLE_STATE.published && (
          <a href={`/helpDetails/${a.url}.html`} target="_blank" rel="noopener" className={rowAction()}>
            查看
          </a>
        )}
      </div>
    ),
  },
];

export default async function AdminHelpPage({ query }: { query: string }) {
  const sp = new URLSearchParams(query);
  const q = queryText(sp, 'q');
  const kind = sp.get('kind') === 'help' ? 'help' : sp.get('kind') === 'news' ? 'news' : null;
  const state = sp.get('state') === '0' ? 0 : sp.get('state') === '1' ? 1 : null;
  const categoryId = Number(sp.get('category')) > 0 ? Number(sp.get('category')) : null;
  const page = queryInt(sp, 'page', 1, 10_000) ?? 1;
  const [cats, arts] = await Promise.all([
    load('Admin.HelpCategoryList', {}, false),
    load('Admin.ArticleList', { q, kind, state, categoryId, page }, false),
  ]);
  if (!cats || !arts) return <NoAccess />;
  const pageHref = (p: number) => listHref('/admin/help', { q, kind, state, category: categoryId, page: p });
  return (
    <div className="space-y-4">
      <PageTitle title="帮助中心">
        <a href="/admin/help/new" className="btn-primary" data-testid="article-new">
          新建文章
        </a>
      </PageTitle>

      <Section title="文章">
        <SearchForm submit="筛选" className="mb-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-5" button="btn-outline">
          <TextFilter name="q" value={q} label="查找文章" hint="标题或地址" className="input" />
          <select name="kind" defaultValue={kind ?? ''} className="input" aria-label="类型">
            <option value="">全部类型</option>
            <option value="help">帮助文章</option>
            <option value="news">站内新闻</option>
          </select>
          <select name="state" defaultValue={state === null ? '' : String(state)} className="input" aria-label="状态">
            <option value="">全部状态</option>
            <option value="1">已发布</option>
            <option value="0">未发布</option>
          </select>
          <select
            name="category"
            defaultValue={categoryId ? String(categoryId) : ''}
            className="input"
            aria-label="分类"
          >
            <option value="">全部分类</option>
            {cats.list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </SearchForm>
        <ListTable
          data-testid="article-table"
          rows={arts.list}
          rowKey={(a) => a.id}
          empty="没有文章"
          pad="px-3"
          columns={COLUMNS}
        />
        <Pager page={arts.page} pageSize={arts.pageSize} total={arts.total} href={pageHref} />
      </Section>

      <Section title="分类">
        <ul className="space-y-3">
          {cats.list.map((c) => (
            <li key={c.id} className="rounded-lg border border-slate-100 p-3">
              <div className="mb-1 flex items-start justify-between gap-2 text-sm">
                <p>
                  <span className="font-medium text-slate-900">{c.name}</span>{' '}
                  <span className="text-xs text-slate-400">
                    {TOP[c.topCategory]} · /help/{c.url}.html · {c.published}/{c.articles} 篇已发布
                  </span>
                </p>
                {c.articles === 0 && <DeleteButton action="Admin.HelpCategoryDelete" id={c.id} what="该分类" />}
              </div>
              <details>
                <summary className="cursor-pointer text-xs text-brand-700">编辑</summary>
                <div className="mt-2">
                  <CategoryForm category={c} />
                </div>
              </details>
            </li>
          ))}
        </ul>
        <div className="mt-4 border-t border-slate-100 pt-4">
          <p className="mb-2 text-sm font-medium text-slate-700">新建分类</p>
          <CategoryForm />
        </div>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
