// Admin.* content actions (docs/decisions/125): help categories and articles (editor with a server-side preview of the
// sanitised body, publish / unpublish), notices, friend links, marketing images, promotion materials and the
// online-chat switch (content role), and the consultations inbox (support). Every write is audited in its own batch.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { shanghaiWallTime } from '../../lib/time';
import {
  type ContentTable,
  findArticleAdmin,
  listArticlesAdmin,
  listConsultations,
  listFriendLinksAdmin,
  listHelpCategoriesAdmin,
  listMarketingImagesAdmin,
  listMaterialsAdmin,
  listNoticesAdmin,
} from '../db/console-content';
import { isValidUrlSlug } from '../domain/help';
import { auditActor } from '../domain/console-audit';
import {
  articleBody,
  deleteContent,
  deleteHelpCategory,
  deleteMarketingImage,
  markConsultation,
  onlineChatEnabled,
  saveArticle,
  saveFriendLink,
  saveHelpCategory,
  saveMarketingImage,
  saveMaterial,
  saveNotice,
  setArticlePublished,
  setOnlineChat,
} from '../domain/console-content';
import { idSchema } from '../../lib/schemas';
import { CONTENT, SUPPORT } from '../../lib/operator-roles';
import { defineAction } from './define';

/** Longest article body accepted (the /api request itself is capped at 64 KiB). */
export const ARTICLE_BODY_MAX = 40_000;
/** Articles per page of the console's article list. */
export const ARTICLE_PAGE_SIZE = 50;

const optionalId = idSchema.optional();
const text = (label: string, max: number, min = 1) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .min(min, `请填写${label}`)
    .max(max, `${label}最多${max}个字`);
const sortSchema = z
  .number({ error: '排序须为整数' })
  .int('排序须为整数')
  .min(0, '排序须为0-9999')
  .max(9999, '排序须为0-9999');
const slugSchema = z
  .string({ error: '地址须为小写字母、数字和连字符（最多80位）' })
  .trim()
  .refine(isValidUrlSlug, '地址须为小写字母、数字和连字符（最多80位）');
/** "2026-11-23T10:00" as Asia/Shanghai wall time (what the console's datetime fields send) -> epoch ms. */
const shanghaiTime = (label: string) =>
  z
    .string({ error: `请选择${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, `请选择${label}`)
    .transform(shanghaiWallTime)
    .refine((ms) => Number.isFinite(ms), `请选择${label}`);

const articleInput = z.object({
  id: optionalId,
  updatedAt: z.number().int().nonnegative().optional(),
  kind: z.enum(['help', 'news'], { error: '请选择文章类型' }),
  categoryId: idSchema.nullable().default(null),
  url: slugSchema,
  title: text('标题', 100),
  summary: z.string().trim().max(300, '摘要最多300个字').default(''),
  keywords: z
    .string()
    .max(200, '关键词最多200个字')
    .default('')
    .transform((s) =>
      s
        .split(/[,，\s]+/)
        .map((k) => k.trim())
        .filter(Boolean)
        .slice(0, 10),
    ),
  bodyHtml: z
    .string({ error: '请填写正文' })
    .min(1, '请填写正文')
    .max(ARTICLE_BODY_MAX, `正文最多${ARTICLE_BODY_MAX}个字符`),
  isHot: z.boolean().default(false),
  showOnBuy: z.boolean().default(false),
});

const deleteInput = z.object({ id: idSchema });

/** A content delete action: { id } -> { deleted: true }, audited under the action's own name. */
const contentDelete = (table: ContentTable, action: string, summary: string) =>
  defineAction({
    summary,
    access: CONTENT,
    cacheable: false,
    input: deleteInput,
    handler: async (ctx, input) =>
      deleteContent(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), table, input.id, action),
  });

export const consoleContentActions = {
  'Admin.HelpCategoryList': defineAction({
    summary: '【运营后台·内容】全部帮助分类（含文章总数与已发布数）',
    access: CONTENT,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listHelpCategoriesAdmin(ctx.db) }),
  }),

  'Admin.HelpCategorySave': defineAction({
    summary: '【运营后台·内容】新建或修改帮助分类（板块、名称、说明、地址、排序；地址与分类、文章均不重复）',
    access: CONTENT,
    cacheable: false,
    input: z.object({
      id: optionalId,
      topCategory: z.union([z.literal(0), z.literal(2)], { error: '请选择板块' }),
      name: text('分类名称', 30),
      description: z.string().trim().max(200, '说明最多200个字').default(''),
      url: slugSchema,
      sort: sortSchema.default(0),
    }),
    handler: async (ctx, input) => saveHelpCategory(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.HelpCategoryDelete': defineAction({
    summary: '【运营后台·内容】删除没有文章的帮助分类',
    access: CONTENT,
    cacheable: false,
    input: deleteInput,
    handler: async (ctx, input) => deleteHelpCategory(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input.id),
  }),

  'Admin.ArticleList': defineAction({
    summary: `【运营后台·内容】文章列表（含未发布；按标题或地址、类型、分类、状态筛选；最近修改在前，按页返回，每页${ARTICLE_PAGE_SIZE}条，total 为符合条件的总数）`,
    access: CONTENT,
    cacheable: false,
    input: z.object({
      q: z.string().trim().max(64, '查询内容过长').default(''),
      kind: z.enum(['help', 'news']).nullable().default(null),
      categoryId: idSchema.nullable().default(null),
      state: z
        .union([z.literal(0), z.literal(1)])
        .nullable()
        .default(null),
      page: z.number({ error: '页码无效' }).int('页码无效').min(1, '页码无效').max(10_000, '页码无效').default(1),
    }),
    async handler(ctx, input) {
      const { rows, total } = await listArticlesAdmin(ctx.db, {
        text: input.q,
        kind: input.kind,
        categoryId: input.categoryId,
        state: input.state,
        limit: ARTICLE_PAGE_SIZE,
        offset: (input.page - 1) * ARTICLE_PAGE_SIZE,
      });
      return { list: rows, total, page: input.page, pageSize: ARTICLE_PAGE_SIZE };
    },
  }),

  'Admin.ArticleDetail': defineAction({
    summary: '【运营后台·内容】一篇文章（任意状态）及其已净化的正文，供编辑器载入',
    access: CONTENT,
    cacheable: false,
    input: z.object({ id: idSchema }),
    async handler(ctx, input) {
      const a = await findArticleAdmin(ctx.db, input.id);
      if (!a) throw new AppError('articleNotFound');
      return { article: a };
    },
  }),

  'Admin.ArticlePreview': defineAction({
    summary: '【运营后台·内容】正文预览：返回保存时将存储的净化后 HTML（不写入）',
    access: CONTENT,
    cacheable: false,
    input: z.object({ bodyHtml: articleInput.shape.bodyHtml }),
    handler: async (_ctx, input) => ({ html: articleBody(input.bodyHtml).html }),
  }),

  'Admin.ArticleSave': defineAction({
    summary:
      '【运营后台·内容】新建（未发布）或保存文章：正文按白名单净化后存储并更新全文索引；已发布的文章保存后公开页面立即显示新内容；updatedAt 不符（他人已修改）时拒绝',
    access: CONTENT,
    cacheable: false,
    input: articleInput,
    handler: async (ctx, input) => saveArticle(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.ArticlePublish': defineAction({
    summary: '【运营后台·内容】发布（publish=true）或下线文章；公开帮助页与搜索立即生效',
    access: CONTENT,
    cacheable: false,
    input: z.object({ id: idSchema, publish: z.boolean({ error: '请选择发布或下线' }) }),
    handler: async (ctx, input) =>
      setArticlePublished(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input.id, input.publish),
  }),

  'Admin.SiteContent': defineAction({
    summary: '【运营后台·内容】站点内容：公告（不含个人通知）、友情链接、营销图、推广素材与在线客服开关',
    access: CONTENT,
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const [notices, links, images, materials, onlineChat] = await Promise.all([
        listNoticesAdmin(ctx.db),
        listFriendLinksAdmin(ctx.db),
        listMarketingImagesAdmin(ctx.db),
        listMaterialsAdmin(ctx.db),
        onlineChatEnabled(ctx.db),
      ]);
      return { notices, links, images, materials, onlineChat };
    },
  }),

  'Admin.NoticeSave': defineAction({
    summary: '【运营后台·内容】新建或修改公告（HTML 保存时净化；生效时间窗为上海时间）；首页显示当前生效的最新一条',
    access: CONTENT,
    cacheable: false,
    input: z.object({
      id: optionalId,
      title: text('公告标题', 60),
      contentHtml: z
        .string({ error: '请填写公告内容' })
        .min(1, '请填写公告内容')
        .max(10_000, '公告内容最多10000个字符'),
      startsAt: shanghaiTime('开始时间'),
      endsAt: shanghaiTime('结束时间'),
      enabled: z.boolean().default(true),
    }),
    handler: async (ctx, input) => saveNotice(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.NoticeDelete': contentDelete(
    'home_notices',
    'Admin.NoticeDelete',
    '【运营后台·内容】删除公告（连同已读记录）',
  ),

  'Admin.FriendLinkSave': defineAction({
    summary: '【运营后台·内容】新建或修改友情链接（仅 http(s) 地址）',
    access: CONTENT,
    cacheable: false,
    input: z.object({
      id: optionalId,
      linkName: text('链接名称', 30),
      linkUrl: z.string({ error: '请填写链接地址' }).max(500, '链接地址过长'),
      linkTarget: z.enum(['_blank', '_self']).default('_blank'),
      noFollow: z.boolean().default(true),
      sort: sortSchema.default(0),
      enabled: z.boolean().default(true),
    }),
    handler: async (ctx, input) => saveFriendLink(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.FriendLinkDelete': contentDelete('friend_links', 'Admin.FriendLinkDelete', '【运营后台·内容】删除友情链接'),

  'Admin.MarketingImageSave': defineAction({
    summary:
      '【运营后台·内容】新建或修改营销图（位置 centerImg 顶部横幅 / bottomBtn2；图片为站内路径或 https 地址，可先经 /api/upload/marketing-image 上传；点击链接 inOrOut 1 站内、2 站外 https）',
    access: CONTENT,
    cacheable: false,
    input: z.object({
      id: optionalId,
      slot: z.enum(['centerImg', 'bottomBtn2'], { error: '请选择展示位置' }),
      img: z.string({ error: '请上传图片或填写图片地址' }).min(1, '请上传图片或填写图片地址').max(1000, '图片地址过长'),
      isClick: z.boolean().default(false),
      clickUrl: z.string().max(1000, '点击链接过长').default(''),
      inOrOut: z.union([z.literal(1), z.literal(2)]).default(1),
      alt: z.string().trim().max(60, '图片说明最多60个字').default(''),
      audience: z.enum(['all', 'guest', 'user']).default('all'),
      startsAt: shanghaiTime('开始时间'),
      endsAt: shanghaiTime('结束时间'),
      enabled: z.boolean().default(true),
    }),
    handler: async (ctx, input) => saveMarketingImage(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.MarketingImageDelete': defineAction({
    summary:
      '【运营后台·内容】删除营销图；经后台上传的图片文件若不再被其他营销图、推广素材、公告或文章使用，一并从存储中删除，否则保留（note 说明结果）',
    access: CONTENT,
    cacheable: false,
    input: deleteInput,
    handler: async (ctx, input) =>
      deleteMarketingImage(ctx.db, ctx.env.FILES, auditActor(ctx.operator, ctx.ip, ctx.now), input.id),
  }),

  'Admin.MaterialSave': defineAction({
    summary:
      '【运营后台·内容】新建或修改推广素材（文案中的 {link} 替换为用户推广链接，{cities}、{availability} 替换为站点公布的城市数与可用率；图片素材为图片地址）',
    access: CONTENT,
    cacheable: false,
    input: z.object({
      id: optionalId,
      kind: z.enum(['text', 'image'], { error: '请选择素材类型' }),
      title: text('素材标题', 40),
      content: text('素材内容', 1000),
      sort: sortSchema.default(0),
      enabled: z.boolean().default(true),
    }),
    handler: async (ctx, input) => saveMaterial(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.MaterialDelete': contentDelete('promotion_materials', 'Admin.MaterialDelete', '【运营后台·内容】删除推广素材'),

  'Admin.OnlineChatSet': defineAction({
    summary: '【运营后台·内容】打开或关闭在线客服（Config.CurrentMessageShow 立即生效）',
    access: CONTENT,
    cacheable: false,
    input: z.object({ enabled: z.boolean({ error: '请选择开或关' }) }),
    handler: async (ctx, input) => setOnlineChat(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input.enabled),
  }),

  'Admin.ConsultList': defineAction({
    summary: '【运营后台·客服】企业咨询（按状态：0 待处理、1 已联系、2 已关闭；按 id 倒序分页，每页50条）及各状态数量',
    access: SUPPORT,
    cacheable: false,
    input: z.object({
      state: z
        .union([z.literal(0), z.literal(1), z.literal(2)])
        .nullable()
        .default(0),
      beforeId: idSchema.nullable().default(null),
    }),
    handler: async (ctx, input) =>
      listConsultations(ctx.db, { state: input.state, beforeId: input.beforeId, limit: 50 }),
  }),

  'Admin.ConsultMark': defineAction({
    summary: '【运营后台·客服】标记企业咨询为已联系（1）、已关闭（2）或重新打开（0），可附备注',
    access: SUPPORT,
    cacheable: false,
    input: z.object({
      id: idSchema,
      state: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '请选择处理状态' }),
      note: z.string().trim().max(200, '备注最多200个字').default(''),
    }),
    handler: async (ctx, input) => markConsultation(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
