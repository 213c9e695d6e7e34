// HelpRenovation.* public read actions: news, help categories, article titles, search and article detail.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import {
  type Article,
  type ArticleTitle,
  addArticleView,
  findArticle,
  findCategory,
  type HelpCategory,
  listAllTitles,
  listBuyShowTitles,
  listCategories,
  listCategoryTitles,
  listHotTitles,
  listTitlesOfKind,
  searchArticles,
} from '../db/help';
import {
  articlePath,
  categoryPath,
  highlightWords,
  MARK_OPEN,
  markedToHtml,
  normalizeKeyword,
  pageWindow,
  searchTerms,
  visibleCategories,
} from '../domain/help';
import { htmlToText } from '../domain/html-sanitizer';
import { idSchema, numberOrText } from '../../lib/schemas';
import { defineAction } from './define';

const pageSchema = z.coerce.number().int('页码必须是整数').min(1, '页码从1开始').max(1000, '页码过大').default(1);
const sizeSchema = (d: number) =>
  z.coerce.number().int('每页条数必须是整数').min(1, '每页至少1条').max(50, '每页最多50条').default(d);
/** An article or category id, also as text (links carry it so). */
const idParam = numberOrText(idSchema);
const topCategorySchema = z.coerce
  .number()
  .refine((v) => v === 0 || v === 2, '分类只能是 0（使用教程）或 2（产品与功能）')
  .transform((v) => v as 0 | 2);

/** The public shape of a title (seed: News article Title, Url; plus what lists need). */
export const titleDto = (t: ArticleTitle) => ({
  id: t.id,
  Title: t.title,
  Url: articlePath(t.url),
  url: t.url,
  summary: t.summary,
  categoryId: t.categoryId,
  isHot: t.isHot,
  views: t.views,
  publishedAt: t.publishedAt,
  updatedAt: t.updatedAt,
});
export type TitleDto = ReturnType<typeof titleDto>;

/** The public shape of a category (seed: Help category type, desc, articleList). */
export const categoryDto = (c: HelpCategory, articles: ArticleTitle[] = []) => ({
  id: c.id,
  type: c.name,
  desc: c.desc,
  url: c.url,
  path: categoryPath(c.url),
  topCategory: c.topCategory,
  articleCount: c.articleCount,
  articleList: articles.map(titleDto),
});
export type CategoryDto = ReturnType<typeof categoryDto>;

const articleDto = (a: Article, category: HelpCategory | null) => ({
  ...titleDto(a),
  kind: a.kind,
  keywords: a.keywords,
  // Stored sanitised at write time (docs/decisions/096): served as stored.
  content: a.bodyHtml,
  description: a.summary || htmlToText(a.bodyHtml).slice(0, 120),
  category: category
    ? { id: category.id, type: category.name, url: category.url, path: categoryPath(category.url) }
    : null,
});
export type ArticleDto = ReturnType<typeof articleDto>;

/** The first `maxCategories` categories with articles (of one board, or all), each with its newest titles. */
async function categoriesWithTitles(
  db: D1Database,
  topCategory: 0 | 2 | null,
  maxCategories: number,
  perCategory: number,
) {
  const cats = visibleCategories(await listCategories(db), topCategory, maxCategories);
  return Promise.all(cats.map(async (c) => categoryDto(c, await listCategoryTitles(db, c.id, perCategory))));
}

export const helpActions = {
  'HelpRenovation.GetInnerNewsArticle': defineAction({
    summary: '站内新闻列表（默认每页6条，最新在前）',
    access: 'public',
    cacheable: true,
    input: z.object({ page: pageSchema, pageSize: sizeSchema(6) }),
    async handler(ctx, input) {
      const { limit, offset } = pageWindow(input.page, input.pageSize);
      const { list, total } = await listTitlesOfKind(ctx.db, 'news', limit, offset);
      return { list: list.map(titleDto), total, page: input.page, pageSize: limit };
    },
  }),

  'HelpRenovation.ArticleSecondCategoryList': defineAction({
    summary: '全部帮助分类（含文章数，按板块与排序）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    handler: async (ctx) => ({ list: (await listCategories(ctx.db)).map((c) => categoryDto(c)) }),
  }),

  'HelpRenovation.ArticleSecondCategoryListV2': defineAction({
    summary: '某板块下有文章的前4个分类及其文章标题（topCategory 0 使用教程，2 产品与功能）',
    access: 'public',
    cacheable: true,
    input: z.object({ topCategory: topCategorySchema, articleNum: sizeSchema(6) }),
    handler: async (ctx, input) => ({
      list: await categoriesWithTitles(ctx.db, input.topCategory, 4, input.articleNum),
    }),
  }),

  'HelpRenovation.HotArticleTitleList': defineAction({
    summary: '热门帮助文章标题（按阅读量）',
    access: 'public',
    cacheable: true,
    input: z.object({ pageSize: sizeSchema(8) }),
    handler: async (ctx, input) => ({ list: (await listHotTitles(ctx.db, input.pageSize)).map(titleDto) }),
  }),

  'HelpRenovation.AllArticleTitleList': defineAction({
    summary: '全部已发布文章标题（帮助与新闻）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    handler: async (ctx) => ({ list: (await listAllTitles(ctx.db)).map((t) => ({ ...titleDto(t), kind: t.kind })) }),
  }),

  'HelpRenovation.GetArticleBykw': defineAction({
    summary:
      '按关键词搜索帮助文章（全文索引：标题、摘要、关键词、正文的任意3字以上片段；1–2字的词只匹配标题；按相关度排序，titleHtml/snippetHtml 为已转义并以 <mark> 标出命中的HTML）',
    access: 'public',
    cacheable: true,
    input: z.object({
      keyword: z.string('请输入搜索关键词').max(200, '关键词过长'),
      page: pageSchema,
      pageSize: sizeSchema(10),
    }),
    async handler(ctx, input) {
      const keyword = normalizeKeyword(input.keyword);
      if (!keyword) throw new AppError('keywordRequired');
      const { limit, offset } = pageWindow(input.page, input.pageSize);
      const words = searchTerms(keyword);
      const { list, total } = await searchArticles(ctx.db, words, limit, offset);
      return {
        keyword,
        list: list.map((t) => ({
          ...titleDto(t),
          titleHtml: t.titleMarked ? markedToHtml(t.titleMarked) : highlightWords(t.title, words.short),
          snippetHtml: t.snippetMarked.includes(MARK_OPEN) ? markedToHtml(t.snippetMarked) : '',
        })),
        total,
        page: input.page,
        pageSize: limit,
      };
    },
  }),

  'HelpRenovation.GetArticleById': defineAction({
    summary: '文章详情（按编号或 url；正文已按白名单净化；附上一篇/下一篇与相关文章）',
    access: 'public',
    cacheable: true,
    input: z
      .object({
        id: idParam.optional(),
        url: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, '文章地址无效')
          .optional(),
      })
      .refine((v) => v.id !== undefined || v.url !== undefined, '请提供文章编号或地址'),
    async handler(ctx, input) {
      const a = await findArticle(ctx.db, input.id !== undefined ? { id: input.id } : { url: input.url ?? '' });
      if (!a) throw new AppError('articleNotFound');
      const category = a.categoryId ? await findCategory(ctx.db, { id: a.categoryId }) : null;
      const siblings = a.categoryId
        ? await listCategoryTitles(ctx.db, a.categoryId, 50)
        : (await listTitlesOfKind(ctx.db, 'news', 50)).list;
      const at = siblings.findIndex((s) => s.id === a.id);
      ctx.waitUntil(addArticleView(ctx.db, a.id));
      return {
        article: articleDto(a, category),
        newer: at > 0 ? titleDto(siblings[at - 1] as ArticleTitle) : null,
        older: at >= 0 && at < siblings.length - 1 ? titleDto(siblings[at + 1] as ArticleTitle) : null,
        related: siblings
          .filter((s) => s.id !== a.id)
          .slice(0, 6)
          .map(titleDto),
      };
    },
  }),

  'HelpRenovation.FirstArticleList': defineAction({
    summary: '帮助首页：每个有文章的分类及其最新文章标题（可按板块筛选）',
    access: 'public',
    cacheable: true,
    input: z.object({ topCategory: topCategorySchema.optional(), articleNum: sizeSchema(5) }),
    handler: async (ctx, input) => ({
      list: await categoriesWithTitles(ctx.db, input.topCategory ?? null, 50, input.articleNum),
    }),
  }),

  'HelpRenovation.GetArticleOfBuyShow': defineAction({
    summary: '购买页展示的帮助文章标题',
    access: 'public',
    cacheable: true,
    input: z.object({ pageSize: sizeSchema(6) }),
    handler: async (ctx, input) => ({ list: (await listBuyShowTitles(ctx.db, input.pageSize)).map(titleDto) }),
  }),

  'HelpRenovation.GetTypeById': defineAction({
    summary: '帮助分类详情（按编号或 url）及其文章标题',
    access: 'public',
    cacheable: true,
    input: z
      .object({
        id: idParam.optional(),
        url: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, '分类地址无效')
          .optional(),
        page: pageSchema,
        pageSize: sizeSchema(20),
      })
      .refine((v) => v.id !== undefined || v.url !== undefined, '请提供分类编号或地址'),
    async handler(ctx, input) {
      const c = await findCategory(ctx.db, input.id !== undefined ? { id: input.id } : { url: input.url ?? '' });
      if (!c) throw new AppError('categoryNotFound');
      const { limit, offset } = pageWindow(input.page, input.pageSize);
      return { category: categoryDto(c, await listCategoryTitles(ctx.db, c.id, limit, offset)) };
    },
  }),
};
