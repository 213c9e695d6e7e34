// The console's content writes (docs/decisions/125): each one validated here, sanitised where it holds HTML
// (storedHtml, decision 096) and written with its audit row in one batch (auditedWrite, decision 102). The public
// actions read the same rows on every request, so an edit is served at once (no server-side cache to invalidate).
import { CONSULT_STATE_TEXT } from '../../lib/consult-options';
import { AppError } from '../../lib/errors';
import type { AuditActor } from '../db/console-audit';
import {
  type ArticleFields,
  type ContentTable,
  deleteContentRowStatement,
  deleteEmptyHelpCategoryStatement,
  deleteNoticeReadsStatement,
  type FriendLinkFields,
  findArticleAdmin,
  findConsultState,
  findContentRow,
  findHelpCategoryRow,
  type HelpCategoryFields,
  helpUrlTaken,
  insertArticleStatement,
  insertFriendLinkStatement,
  insertHelpCategoryStatement,
  insertMarketingImageStatement,
  insertMaterialStatement,
  insertNoticeStatement,
  type MarketingImageFields,
  type MaterialFields,
  marketingFileReferences,
  type NoticeFields,
  setArticleStateStatement,
  setConsultStateStatement,
  updateArticleStatement,
  updateFriendLinkStatement,
  updateHelpCategoryStatement,
  updateMarketingImageStatement,
  updateMaterialStatement,
  updateNoticeStatement,
  upsertSettingStatement,
} from '../db/console-content';
import { readSetting } from '../db/site-content';
import { safeHref, storedHtml } from './html-sanitizer';
import { marketingFileKey, safeMarketingImage } from './marketing-image';
import { auditedChange, auditedSave, auditedWrite } from './console-audit';

/** The site setting behind Config.CurrentMessageShow. */
export const ONLINE_CHAT_SETTING = 'online_chat';

const isUniqueViolation = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/i.test(e.message);

/** The id a RETURNING insert produced (first statement of the batch). */
const returnedId = (results: D1Result[]): number => Number((results[0]?.results?.[0] as { id?: number })?.id ?? 0);

// ---------------------------------------------------------------- help

export async function saveHelpCategory(
  db: D1Database,
  actor: AuditActor,
  input: HelpCategoryFields & { id?: number | undefined },
): Promise<{ id: number }> {
  const { id, ...fields } = input;
  const before = id ? await findHelpCategoryRow(db, id) : null;
  if (id && !before) throw new AppError('categoryNotFound');
  if (await helpUrlTaken(db, fields.url, id ? { categoryId: id } : {})) throw new AppError('helpUrlTaken');
  try {
    if (id) {
      await auditedChange(
        db,
        actor,
        { action: 'Admin.HelpCategorySave', target: `help_category:${id}`, before, after: fields },
        [updateHelpCategoryStatement(db, id, fields, actor.now)],
        'categoryNotFound',
      );
      return { id };
    }
    const insert = insertHelpCategoryStatement(db, fields, actor.now);
    const r = await auditedWrite(
      db,
      actor,
      { action: 'Admin.HelpCategorySave', target: 'help_category:new', after: fields },
      [insert],
    );
    return { id: (r.of(insert)?.meta.last_row_id as number | undefined) ?? 0 };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('helpUrlTaken');
    throw e;
  }
}

export async function deleteHelpCategory(db: D1Database, actor: AuditActor, id: number): Promise<{ deleted: true }> {
  const before = await findHelpCategoryRow(db, id);
  if (!before) throw new AppError('categoryNotFound');
  await auditedChange(
    db,
    actor,
    { action: 'Admin.HelpCategoryDelete', target: `help_category:${id}`, before },
    [deleteEmptyHelpCategoryStatement(db, id)],
    'helpCategoryNotEmpty',
  );
  return { deleted: true };
}

export interface ArticleInput {
  id?: number | undefined;
  /** The updatedAt the editor loaded (required when editing). */
  updatedAt?: number | undefined;
  kind: 'help' | 'news';
  categoryId: number | null;
  url: string;
  title: string;
  summary: string;
  keywords: string[];
  bodyHtml: string;
  isHot: boolean;
  showOnBuy: boolean;
}

/** What a body becomes when saved: the sanitised HTML and its search text (the preview shows exactly this). */
export function articleBody(raw: string): { html: string; text: string } {
  const body = storedHtml(raw);
  if (!body.text && !/<(img|table|hr)\b/.test(body.html)) throw new AppError('helpBodyEmpty');
  return body;
}

const articleSummary = (a: { title: string; url: string; kind: string; categoryId: number | null }, len: number) => ({
  title: a.title,
  url: a.url,
  kind: a.kind,
  categoryId: a.categoryId,
  bodyChars: len,
});

/** Create (hidden until published) or rewrite an article; returns its id, new updatedAt and the stored body. */
export async function saveArticle(
  db: D1Database,
  actor: AuditActor,
  input: ArticleInput,
): Promise<{ id: number; updatedAt: number; bodyHtml: string }> {
  const body = articleBody(input.bodyHtml);
  const categoryId = input.kind === 'news' ? null : input.categoryId;
  if (input.kind === 'help') {
    if (!categoryId || !(await findHelpCategoryRow(db, categoryId))) throw new AppError('categoryNotFound');
  }
  const fields: ArticleFields = {
    kind: input.kind,
    categoryId,
    url: input.url,
    title: input.title,
    summary: input.summary,
    keywords: [...new Set(input.keywords)].join(','),
    bodyHtml: body.html,
    bodyText: body.text,
    isHot: input.isHot,
    showOnBuy: input.kind === 'help' && input.showOnBuy,
  };
  const before = input.id ? await findArticleAdmin(db, input.id) : null;
  if (input.id && !before) throw new AppError('articleNotFound');
  if (await helpUrlTaken(db, input.url, input.id ? { articleId: input.id } : {})) throw new AppError('helpUrlTaken');
  // Two saves in the same millisecond must still move updatedAt (it is the editor's version stamp).
  const now = before && before.updatedAt >= actor.now ? before.updatedAt + 1 : actor.now;
  try {
    if (input.id && before) {
      await auditedChange(
        db,
        actor,
        {
          action: 'Admin.ArticleSave',
          target: `article:${input.id}`,
          before: articleSummary(before, before.bodyHtml.length),
          after: articleSummary(fields, fields.bodyHtml.length),
        },
        [updateArticleStatement(db, input.id, fields, input.updatedAt ?? -1, now)],
        'articleEditedElsewhere',
      );
      return { id: input.id, updatedAt: now, bodyHtml: body.html };
    }
    const r = await auditedWrite(
      db,
      actor,
      { action: 'Admin.ArticleSave', target: 'article:new', after: articleSummary(fields, fields.bodyHtml.length) },
      [insertArticleStatement(db, fields, now)],
    );
    return { id: returnedId(r.results), updatedAt: now, bodyHtml: body.html };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('helpUrlTaken');
    throw e;
  }
}

/** Publish or unpublish an article (served or hidden by every public help action from the next request). */
export async function setArticlePublished(
  db: D1Database,
  actor: AuditActor,
  id: number,
  publish: boolean,
): Promise<{ state: 0 | 1 }> {
  const before = await findArticleAdmin(db, id);
  if (!before) throw new AppError('articleNotFound');
  const to = publish ? 1 : 0;
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.ArticlePublish',
      target: `article:${id}`,
      before: { state: before.state },
      after: { state: to, title: before.title },
    },
    [setArticleStateStatement(db, id, to)],
    'contentStateUnchanged',
  );
  return { state: to };
}

// ---------------------------------------------------------------- notices, links, images, materials

/** An external https URL or a same-site path, as the public shell will accept it; else contentLinkUnsafe. */
export function checkedLink(raw: string, allow: { external: boolean; site: boolean }): string {
  const link = safeHref(raw.trim());
  const ok =
    link !== null &&
    ((allow.external && link.external && /^https?:\/\/[^/?#\s]/i.test(link.href)) ||
      (allow.site && !link.external && link.href.startsWith('/') && !link.href.startsWith('//')));
  if (!ok) throw new AppError('contentLinkUnsafe');
  return link.href;
}

async function saveRow(
  db: D1Database,
  actor: AuditActor,
  table: ContentTable,
  action: string,
  id: number | undefined,
  after: Record<string, unknown>,
  insert: () => D1PreparedStatement,
  update: (id: number) => D1PreparedStatement,
): Promise<{ id: number }> {
  return auditedSave(db, actor, {
    action,
    kind: table.replace(/s$/, ''),
    id,
    reason: undefined,
    after,
    find: (i) => findContentRow(db, table, i),
    insert,
    update,
    notFound: 'contentNotFound',
  });
}

export async function saveNotice(
  db: D1Database,
  actor: AuditActor,
  input: Omit<NoticeFields, 'contentHtml'> & { id?: number | undefined; contentHtml: string },
): Promise<{ id: number }> {
  if (input.endsAt <= input.startsAt) throw new AppError('noticeWindowInvalid');
  const body = storedHtml(input.contentHtml);
  if (!body.text) throw new AppError('helpBodyEmpty');
  const f: NoticeFields = {
    title: input.title,
    contentHtml: body.html,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    enabled: input.enabled,
  };
  return saveRow(
    db,
    actor,
    'home_notices',
    'Admin.NoticeSave',
    input.id,
    { title: f.title, startsAt: f.startsAt, endsAt: f.endsAt, enabled: f.enabled, contentChars: body.html.length },
    () => insertNoticeStatement(db, f, actor.now),
    (i) => updateNoticeStatement(db, i, f),
  );
}

export async function saveFriendLink(
  db: D1Database,
  actor: AuditActor,
  input: Omit<FriendLinkFields, 'noFollow' | 'enabled'> & {
    id?: number | undefined;
    noFollow: boolean;
    enabled: boolean;
  },
): Promise<{ id: number }> {
  const f: FriendLinkFields = {
    linkName: input.linkName,
    linkUrl: checkedLink(input.linkUrl, { external: true, site: false }),
    linkTarget: input.linkTarget,
    noFollow: input.noFollow ? 1 : 0,
    sort: input.sort,
    enabled: input.enabled ? 1 : 0,
  };
  return saveRow(
    db,
    actor,
    'friend_links',
    'Admin.FriendLinkSave',
    input.id,
    { ...f },
    () => insertFriendLinkStatement(db, f),
    (i) => updateFriendLinkStatement(db, i, f),
  );
}

export interface MarketingImageInput extends Omit<MarketingImageFields, 'isClick' | 'enabled'> {
  id?: number | undefined;
  isClick: boolean;
  enabled: boolean;
}

export async function saveMarketingImage(
  db: D1Database,
  actor: AuditActor,
  input: MarketingImageInput,
): Promise<{ id: number }> {
  if (input.endsAt <= input.startsAt) throw new AppError('noticeWindowInvalid');
  const img = checkedLink(input.img, { external: true, site: true });
  const clickUrl = input.isClick
    ? checkedLink(
        input.clickUrl,
        input.inOrOut === 1 ? { external: false, site: true } : { external: true, site: false },
      )
    : '';
  // The public action drops an image its own rule refuses; refuse it here instead of saving something never shown.
  if (!safeMarketingImage({ img, isClick: input.isClick, clickUrl, inOrOut: input.inOrOut, alt: input.alt }))
    throw new AppError('contentLinkUnsafe');
  const f: MarketingImageFields = {
    slot: input.slot,
    img,
    isClick: input.isClick ? 1 : 0,
    clickUrl,
    inOrOut: input.inOrOut,
    alt: input.alt,
    audience: input.audience,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    enabled: input.enabled ? 1 : 0,
  };
  return saveRow(
    db,
    actor,
    'marketing_images',
    'Admin.MarketingImageSave',
    input.id,
    { ...f },
    () => insertMarketingImageStatement(db, f),
    (i) => updateMarketingImageStatement(db, i, f),
  );
}

export async function saveMaterial(
  db: D1Database,
  actor: AuditActor,
  input: Omit<MaterialFields, 'enabled'> & { id?: number | undefined; enabled: boolean },
): Promise<{ id: number }> {
  const content = input.kind === 'image' ? checkedLink(input.content, { external: true, site: true }) : input.content;
  const f: MaterialFields = {
    kind: input.kind,
    title: input.title,
    content,
    sort: input.sort,
    enabled: input.enabled ? 1 : 0,
  };
  return saveRow(
    db,
    actor,
    'promotion_materials',
    'Admin.MaterialSave',
    input.id,
    { ...f },
    () => insertMaterialStatement(db, f),
    (i) => updateMaterialStatement(db, i, f),
  );
}

/** Delete a notice (with its read marks), friend link, marketing image or promotion material. */
export async function deleteContent(
  db: D1Database,
  actor: AuditActor,
  table: ContentTable,
  id: number,
  action: string,
): Promise<{ deleted: true }> {
  await removeContentRow(db, actor, table, id, action);
  return { deleted: true };
}

/** The audited delete behind deleteContent; answers the row as it was. */
async function removeContentRow(
  db: D1Database,
  actor: AuditActor,
  table: ContentTable,
  id: number,
  action: string,
): Promise<Record<string, unknown>> {
  const before = await findContentRow(db, table, id);
  if (!before) throw new AppError('contentNotFound');
  const kind = table.replace(/s$/, '');
  const changes = [
    ...(table === 'home_notices' ? [deleteNoticeReadsStatement(db, id)] : []),
    deleteContentRowStatement(db, table, id),
  ];
  await auditedChange(db, actor, { action, target: `${kind}:${id}`, before }, changes, 'contentNotFound');
  return before;
}

/**
 * Delete a marketing image and, when its picture was uploaded through the console and nothing else stored still
 * names it (another marketing image, a promotion material, a notice or an article), its R2 object too
 * (docs/decisions/155). A file still in use is kept and the answer says where, in words for the operator.
 */
export async function deleteMarketingImage(
  db: D1Database,
  files: R2Bucket,
  actor: AuditActor,
  id: number,
): Promise<{ deleted: true; fileDeleted: boolean; note: string }> {
  const before = await removeContentRow(db, actor, 'marketing_images', id, 'Admin.MarketingImageDelete');
  const img = typeof before.img === 'string' ? before.img : '';
  const key = marketingFileKey(img);
  if (!key) return { deleted: true, fileDeleted: false, note: '营销图已删除' };
  const uses = await marketingFileReferences(db, img);
  if (uses > 0) {
    return { deleted: true, fileDeleted: false, note: `营销图已删除；图片文件仍被其他 ${uses} 处内容使用，已保留` };
  }
  await files.delete(key);
  return { deleted: true, fileDeleted: true, note: '营销图及其图片文件已删除' };
}

// ---------------------------------------------------------------- online chat, consultations

export async function onlineChatEnabled(db: D1Database): Promise<boolean> {
  return (await readSetting(db, ONLINE_CHAT_SETTING)) === '1';
}

export async function setOnlineChat(
  db: D1Database,
  actor: AuditActor,
  enabled: boolean,
): Promise<{ enabled: boolean; changed: boolean }> {
  const before = await onlineChatEnabled(db);
  const r = await auditedWrite(
    db,
    actor,
    { action: 'Admin.OnlineChatSet', target: `setting:${ONLINE_CHAT_SETTING}`, before, after: enabled },
    [upsertSettingStatement(db, ONLINE_CHAT_SETTING, enabled ? '1' : '0', actor.now)],
    { requireChange: true },
  );
  return { enabled, changed: r.changed > 0 };
}

/** Move a consultation to contacted (1) or closed (2), or back to new (0); a concurrent change wins. */
export async function markConsultation(
  db: D1Database,
  actor: AuditActor,
  input: { id: number; state: 0 | 1 | 2; note: string },
): Promise<{ state: number }> {
  const from = await findConsultState(db, input.id);
  if (from === null) throw new AppError('contentNotFound');
  if (from === input.state) throw new AppError('contentStateUnchanged');
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.ConsultMark',
      target: `consult:${input.id}`,
      before: CONSULT_STATE_TEXT[from],
      after: CONSULT_STATE_TEXT[input.state],
      reason: input.note,
    },
    [setConsultStateStatement(db, input.id, from, input.state)],
    'consultStateChanged',
  );
  return { state: input.state };
}
