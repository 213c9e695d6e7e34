'use client';
// The help centre's console leaves: the category form, publish / unpublish, delete, and the article editor (a
// rich-text body, rich-text-editor.tsx) with a preview of the body exactly as the server will store it
// (Admin.ArticlePreview runs the same sanitiser as the save).
import { type FormEvent, useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionOutput } from '../../../lib/api-core';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';
import { field, useAdminWrite } from './admin-write';
import { onForm, SortInput, SubmitButton, sortValue } from './form-kit';
import { ReasonAction } from './reason-action';
import { RichTextEditor } from './rich-text-editor';

type AdminHelpCategory = ActionOutput<'Admin.HelpCategoryList'>['list'][number];
type AdminArticle = ActionOutput<'Admin.ArticleDetail'>['article'];

export function CategoryForm({ category }: { category?: AdminHelpCategory }) {
  const { busy, run } = useAdminWrite();
  const submit = onForm((f) =>
    run(
      'Admin.HelpCategorySave',
      {
        ...(category ? { id: category.id } : {}),
        topCategory: field(f, 'topCategory') === '2' ? 2 : 0,
        name: field(f, 'name'),
        description: field(f, 'description'),
        url: field(f, 'url'),
        sort: sortValue(f),
      },
      category ? '分类已保存' : '分类已新建',
    ),
  );
  return (
    <form onSubmit={submit} className="grid gap-2 sm:grid-cols-2 lg:grid-cols-6" data-testid="category-form">
      <select name="topCategory" className="input" aria-label="板块" defaultValue={String(category?.topCategory ?? 0)}>
        <option value="0">使用教程</option>
        <option value="2">产品与功能</option>
      </select>
      <input name="name" className="input" placeholder="分类名称" aria-label="分类名称" defaultValue={category?.name} />
      <input
        name="url"
        className="input"
        placeholder="地址（如 api-guide）"
        aria-label="分类地址"
        defaultValue={category?.url}
      />
      <input
        name="description"
        className="input lg:col-span-2"
        placeholder="说明（可留空）"
        aria-label="分类说明"
        defaultValue={category?.description}
      />
      <div className="flex gap-2">
        <SortInput value={category?.sort} className="input w-24" />
        <SubmitButton busy={busy} editing={Boolean(category)} create="新建分类" className="btn-primary shrink-0" />
      </div>
    </form>
  );
}

export function PublishToggle({ id, published }: { id: number; published: boolean }) {
  const { busy, run } = useAdminWrite();
  return (
    <button
      type="button"
      className={published ? 'btn-ghost px-2 py-1 text-xs' : 'btn-outline px-2 py-1 text-xs'}
      disabled={busy}
      data-testid={published ? 'article-unpublish' : 'article-publish'}
      onClick={() => run('Admin.ArticlePublish', { id, publish: !published }, published ? '已下线' : '已发布')}
    >
      {published ? '下线' : '发布'}
    </button>
  );
}

/** The console's delete actions (each takes { id }). */
export type DeleteAction =
  | 'Admin.HelpCategoryDelete'
  | 'Admin.NoticeDelete'
  | 'Admin.FriendLinkDelete'
  | 'Admin.MarketingImageDelete'
  | 'Admin.MaterialDelete';

export function DeleteButton({ action, id, what }: { action: DeleteAction; id: number; what: string }) {
  return (
    <ReasonAction
      label="删除"
      title={`删除${what}`}
      description={`确定删除${what}？此操作不能撤销。`}
      action={action}
      params={{ id }}
      field={null}
      // A marketing image's answer says what became of its uploaded file.
      done={(res) => (res && typeof res === 'object' && 'note' in res ? String(res.note) : '已删除')}
      buttonClassName="btn-ghost px-2 py-1 text-xs text-rose-600 hover:bg-rose-50"
    />
  );
}

interface EditorProps {
  article: AdminArticle | null;
  categories: Pick<AdminHelpCategory, 'id' | 'name' | 'topCategory'>[];
}

export function ArticleEditor({ article, categories }: EditorProps) {
  const router = useRouter();
  const [kind, setKind] = useState<'help' | 'news'>(article?.kind ?? 'help');
  const [body, setBody] = useState(article?.bodyHtml ?? '');
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState<'edit' | 'preview'>('edit');

  async function showPreview() {
    setTab('preview');
    const res = await adminApi.call('Admin.ArticlePreview', { bodyHtml: body });
    if (res) setPreview(res.html);
  }

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const f = new FormData(e.currentTarget);
    setBusy(true);
    const res = await adminApi.call('Admin.ArticleSave', {
      ...(article ? { id: article.id, updatedAt: article.updatedAt } : {}),
      kind,
      categoryId: kind === 'help' ? Number(field(f, 'categoryId')) || null : null,
      url: field(f, 'url'),
      title: field(f, 'title'),
      summary: field(f, 'summary'),
      keywords: field(f, 'keywords'),
      bodyHtml: body,
      isHot: f.get('isHot') === 'on',
      showOnBuy: f.get('showOnBuy') === 'on',
    });
    setBusy(false);
    if (!res) return;
    pushToast('success', article ? '已保存' : '已新建（未发布）');
    if (article) await router.reload();
    else router.push(`/admin/help/${res.id}`);
  }

  return (
    <form onSubmit={save} className="space-y-4" data-testid="article-editor">
      <div className="card grid gap-3 p-4 md:grid-cols-2">
        <label className="block text-sm">
          <span className="mb-1 block text-slate-600">类型</span>
          <select
            className="input"
            value={kind}
            onChange={(e) => setKind(e.target.value === 'news' ? 'news' : 'help')}
            name="kind"
          >
            <option value="help">帮助文章</option>
            <option value="news">站内新闻</option>
          </select>
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-slate-600">分类</span>
          <select
            className="input"
            name="categoryId"
            defaultValue={String(article?.categoryId ?? categories[0]?.id ?? '')}
            disabled={kind === 'news'}
          >
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.topCategory === 0 ? '使用教程' : '产品与功能'} / {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm md:col-span-2">
          <span className="mb-1 block text-slate-600">标题</span>
          <input className="input" name="title" defaultValue={article?.title} maxLength={100} required />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-slate-600">地址（/helpDetails/地址.html）</span>
          <input
            className="input"
            name="url"
            defaultValue={article?.url}
            placeholder="小写字母、数字、连字符"
            required
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-slate-600">关键词（逗号分隔）</span>
          <input className="input" name="keywords" defaultValue={article?.keywords} />
        </label>
        <label className="block text-sm md:col-span-2">
          <span className="mb-1 block text-slate-600">摘要（可留空，默认取正文开头）</span>
          <input className="input" name="summary" defaultValue={article?.summary} maxLength={300} />
        </label>
        <div className="flex flex-wrap gap-4 text-sm md:col-span-2">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="isHot" defaultChecked={article?.isHot === 1} /> 热门文章
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="showOnBuy"
              defaultChecked={article?.showOnBuy === 1}
              disabled={kind === 'news'}
            />{' '}
            在购买页展示
          </label>
        </div>
      </div>

      <div className="card p-0">
        <div className="flex items-center gap-1 border-b border-slate-200 px-2 pt-2" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'edit'}
            className="rounded-t-md px-3 py-2 text-sm aria-selected:bg-slate-100 aria-selected:font-semibold"
            onClick={() => setTab('edit')}
          >
            编辑
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'preview'}
            className="rounded-t-md px-3 py-2 text-sm aria-selected:bg-slate-100 aria-selected:font-semibold"
            onClick={showPreview}
            data-testid="article-preview-tab"
          >
            预览（保存后的效果）
          </button>
        </div>
        {tab === 'edit' ? (
          <RichTextEditor value={body} onChange={setBody} />
        ) : (
          <div className="min-h-80 p-4">
            {preview === null ? (
              <p className="text-sm text-slate-400">加载预览…</p>
            ) : (
              <div className="prose-help break-words" data-testid="article-preview">
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitiser produced it (Admin.ArticlePreview, the same one the save stores) */}
                <div dangerouslySetInnerHTML={{ __html: preview }} />
              </div>
            )}
          </div>
        )}
      </div>
      <p className="text-xs text-slate-500">
        正文可用标题、段落、加粗、斜体、列表、链接、代码和引用（源码中还可写表格）；图片、脚本、样式和其他标签在保存时被移除。已发布的文章保存后，公开页面立即显示新内容。
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={busy} data-testid="article-save">
          {busy ? '保存中…' : article ? '保存' : '新建（暂不发布）'}
        </button>
        <a href="/admin/help" className="btn-ghost">
          返回列表
        </a>
      </div>
    </form>
  );
}
