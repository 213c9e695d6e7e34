// /admin/help/{id} (or /admin/help/new): the article editor with preview, publish / unpublish and the public link.

import { load } from '../../../../server/page-data';
import { ArticleEditor, PublishToggle } from '../../_components/help-tools';
import { NoAccess, PageTitle } from '../../_components/parts';
import { ARTICLE_STATE, articleStateText } from '../../../../lib/article-states';

export default async function AdminArticlePage({ id }: { id: string }) {
  const cats = await load('Admin.HelpCategoryList', {}, false);
  if (!cats) return <NoAccess />;
  const categories = cats.list.map((c) => ({ id: c.id, name: c.name, topCategory: c.topCategory }));
  if (id === 'new') {
    return (
      <div>
        <PageTitle title="新建文章" />
        <ArticleEditor article={null} categories={categories} />
      </div>
    );
  }
  const n = Number(id);
  const res = Number.isSafeInteger(n) && n > 0 ? await load('Admin.ArticleDetail', { id: n }, false) : false;
  if (!res) {
    return <p className="card p-6 text-sm text-slate-500">文章不存在。</p>;
  }
  const a = res.article;
  return (
    <div>
      <PageTitle title={`编辑文章 #${a.id}`}>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span
            className={a.state === ARTICLE_STATE.published ? 'text-emerald-600' : 'text-amber-600'}
            data-testid="article-state"
          >
            {articleStateText(a.state)}
          </span>
          <PublishToggle id={a.id} published={a.state === ARTICLE_STATE.published} />
          {a.state === ARTICLE_STATE.published && (
            <a href={`/helpDetails/${a.url}.html`} target="_blank" rel="noopener" className="btn-ghost">
              查看公开页面
            </a>
          )}
        </div>
      </PageTitle>
      <ArticleEditor key={a.updatedAt} article={a} categories={categories} />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
