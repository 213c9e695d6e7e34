'use client';
// The help centre's console leaves: the category form, publish / unpublish, delete, and the article editor (a
// rich-text body, rich-text-editor.tsx) with a preview of the body exactly as the server will store it
// (Admin.ArticlePreview runs the same sanitiser as the save).
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionOutput } from '../../../lib/api-core';
import { consoleApi } from './console-api';
import { useConsoleWrite } from './console-write';
import { ReasonAction } from './reason-action';
import { choices, type FormField, RecordForm } from './record-form';
import { RichTextEditor } from './rich-text-editor';

type AdminHelpCategory = ActionOutput<'Admin.HelpCategoryList'>['list'][number];
type AdminArticle = ActionOutput<'Admin.ArticleDetail'>['article'];

const TOP_CATEGORIES = [
  [0, '使用教程'],
  [2, '产品与功能'],
] as const;

export function CategoryForm({ category }: { category?: AdminHelpCategory }) {
  return (
    <RecordForm
      action="Admin.HelpCategorySave"
      fixed={category ? { id: category.id } : {}}
      fields={[
        {
          kind: 'select',
          name: 'topCategory',
          label: '板块',
          options: choices(TOP_CATEGORIES),
          defaultValue: category?.topCategory ?? 0,
        },
        { kind: 'text', name: 'name', label: '分类名称', defaultValue: category?.name },
        { kind: 'text', name: 'url', label: '分类地址', placeholder: '如 api-guide', defaultValue: category?.url },
        {
          kind: 'text',
          name: 'description',
          label: '分类说明',
          placeholder: '可留空',
          defaultValue: category?.description,
        },
        { kind: 'int', name: 'sort', label: '排序（0-9999）', defaultValue: category?.sort ?? 0 },
      ]}
      submitLabel={category ? '保存' : '新建分类'}
      done={category ? '分类已保存' : '分类已新建'}
      reset={!category}
      className="grid gap-2 sm:grid-cols-2 lg:grid-cols-6"
      testId="category-form"
    />
  );
}

export function PublishToggle({ id, published }: { id: number; published: boolean }) {
  const { busy, run } = useConsoleWrite();
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
  const [tab, setTab] = useState<'edit' | 'preview'>('edit');
  const help = kind === 'help';

  async function showPreview() {
    setTab('preview');
    const res = await consoleApi.call('Admin.ArticlePreview', { bodyHtml: body });
    if (res) setPreview(res.html);
  }

  const fields: FormField[] = [
    ...(help
      ? [
          {
            kind: 'select' as const,
            name: 'categoryId',
            label: '分类',
            options: categories.map((c) => ({
              value: c.id,
              label: `${c.topCategory === 0 ? '使用教程' : '产品与功能'} / ${c.name}`,
            })),
            defaultValue: article?.categoryId ?? categories[0]?.id,
          },
        ]
      : []),
    { kind: 'text', name: 'title', label: '标题', defaultValue: article?.title, maxLength: 100, required: true },
    {
      kind: 'text',
      name: 'url',
      label: '地址（/helpDetails/地址.html）',
      placeholder: '小写字母、数字、连字符',
      defaultValue: article?.url,
      required: true,
    },
    { kind: 'text', name: 'keywords', label: '关键词（逗号分隔）', defaultValue: article?.keywords },
    {
      kind: 'text',
      name: 'summary',
      label: '摘要（可留空，默认取正文开头）',
      defaultValue: article?.summary,
      maxLength: 300,
      className: 'md:col-span-2',
    },
    { kind: 'bool', name: 'isHot', label: '热门文章', text: '在帮助中心标为热门', defaultValue: article?.isHot === 1 },
    ...(help
      ? [
          {
            kind: 'bool' as const,
            name: 'showOnBuy',
            label: '在购买页展示',
            text: '在购买页的帮助列表中展示',
            defaultValue: article?.showOnBuy === 1,
          },
        ]
      : []),
  ];

  return (
    <div className="space-y-4" data-testid="article-editor">
      <div className="card p-4">
        <label className="block max-w-xs text-sm">
          <span className="mb-1 block text-xs text-slate-600">类型</span>
          <select className="input" value={kind} onChange={(e) => setKind(e.target.value === 'news' ? 'news' : 'help')}>
            <option value="help">帮助文章</option>
            <option value="news">站内新闻</option>
          </select>
        </label>
      </div>
      <RecordForm
        // Another type is another form: its fields start over (the body is kept).
        key={kind}
        action="Admin.ArticleSave"
        fields={fields}
        fixed={{
          ...(article ? { id: article.id, updatedAt: article.updatedAt } : {}),
          kind,
          bodyHtml: body,
          ...(help ? {} : { categoryId: null, showOnBuy: false }),
        }}
        className="grid gap-3 md:grid-cols-2"
        submitLabel={article ? '保存' : '新建（暂不发布）'}
        submitTestId="article-save"
        done={article ? '已保存' : '已新建（未发布）'}
        after={(res) => {
          if (!article) router.push(`/admin/help/${res.id}`);
        }}
        actions={
          <a href="/admin/help" className="btn-ghost">
            返回列表
          </a>
        }
        below={
          <div className="space-y-2">
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
          </div>
        }
      />
    </div>
  );
}
