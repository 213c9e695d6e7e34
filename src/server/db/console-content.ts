// Queries behind the console's content screens (docs/decisions/125): help categories and articles in every state,
// notices, friend links, marketing images, promotion materials, the online-chat switch and the consultations inbox.
// Writes are returned as statements: the caller runs them with their audit row in one batch (auditedWrite).
import type { MarketingImageRecord } from './site-content';
import type { ConsultFields } from './tracking';
import { ARTICLE_STATE } from '../../lib/article-states';

/**
 * A fields object as column -> value pairs: camelCase keys become snake_case columns and booleans 0/1. Only for the
 * typed *Fields objects of this module, whose keys are exactly their table's writable columns.
 */
const columnsOf = (f: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(f).map(([k, v]) => [
      k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      typeof v === 'boolean' ? Number(v) : v,
    ]),
  );

/** INSERT one row from column -> value pairs (column names are this module's own literals), RETURNING id. */
function insertRowStatement(db: D1Database, table: string, values: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(values);
  return db
    .prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) RETURNING id`)
    .bind(...Object.values(values));
}

/** UPDATE one row by id from column -> value pairs; `guard` adds "AND column = value" (an optimistic version). */
function updateRowStatement(
  db: D1Database,
  table: string,
  id: number,
  values: Record<string, unknown>,
  guard?: [string, unknown],
): D1PreparedStatement {
  const set = Object.keys(values)
    .map((c) => `${c} = ?`)
    .join(', ');
  return db
    .prepare(`UPDATE ${table} SET ${set} WHERE id = ?${guard ? ` AND ${guard[0]} = ?` : ''}`)
    .bind(...Object.values(values), id, ...(guard ? [guard[1]] : []));
}

// ---------------------------------------------------------------- help categories

export interface AdminHelpCategory {
  id: number;
  topCategory: 0 | 2;
  name: string;
  description: string;
  url: string;
  sort: number;
  /** Articles in the category, published or not. */
  articles: number;
  published: number;
  updatedAt: number;
}

/** Every help category with its article counts (all states), in display order. */
export async function listHelpCategoriesAdmin(db: D1Database): Promise<AdminHelpCategory[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.top_category AS topCategory, c.name, c.description, c.url, c.sort, c.updated_at AS updatedAt,
         (SELECT count(*) FROM articles a WHERE a.category_id = c.id) AS articles,
         (SELECT count(*) FROM articles a WHERE a.category_id = c.id AND a.state = ${ARTICLE_STATE.published}) AS published
       FROM help_categories c ORDER BY c.top_category, c.sort, c.id LIMIT 500`,
    )
    .all<AdminHelpCategory>();
  return results;
}

export interface HelpCategoryFields {
  topCategory: 0 | 2;
  name: string;
  description: string;
  url: string;
  sort: number;
}

/** A category row by id (any state), or null. */
export async function findHelpCategoryRow(db: D1Database, id: number): Promise<HelpCategoryFields | null> {
  return db
    .prepare('SELECT top_category AS topCategory, name, description, url, sort FROM help_categories WHERE id = ?')
    .bind(id)
    .first<HelpCategoryFields>();
}

/** True when `url` is taken by a category or an article other than the one being saved. */
export async function helpUrlTaken(
  db: D1Database,
  url: string,
  except: { categoryId?: number; articleId?: number },
): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT (EXISTS (SELECT 1 FROM help_categories WHERE url = ?1 AND id != ?2)
            OR EXISTS (SELECT 1 FROM articles WHERE url = ?1 AND id != ?3)) AS taken`,
    )
    .bind(url, except.categoryId ?? 0, except.articleId ?? 0)
    .first<{ taken: number }>();
  return row?.taken === 1;
}

export function insertHelpCategoryStatement(db: D1Database, f: HelpCategoryFields, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO help_categories (top_category, name, description, url, sort, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(f.topCategory, f.name, f.description, f.url, f.sort, now, now);
}

export function updateHelpCategoryStatement(
  db: D1Database,
  id: number,
  f: HelpCategoryFields,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE help_categories SET top_category = ?, name = ?, description = ?, url = ?, sort = ?, updated_at = ?
       WHERE id = ?`,
    )
    .bind(f.topCategory, f.name, f.description, f.url, f.sort, now, id);
}

/** Delete a category only while no article (in any state) belongs to it. */
export function deleteEmptyHelpCategoryStatement(db: D1Database, id: number): D1PreparedStatement {
  return db
    .prepare('DELETE FROM help_categories WHERE id = ? AND NOT EXISTS (SELECT 1 FROM articles WHERE category_id = ?)')
    .bind(id, id);
}

// ---------------------------------------------------------------- articles

export interface AdminArticleRow {
  id: number;
  kind: 'help' | 'news';
  categoryId: number | null;
  categoryName: string | null;
  url: string;
  title: string;
  state: 0 | 1;
  isHot: number;
  showOnBuy: number;
  views: number;
  publishedAt: number;
  updatedAt: number;
}

export interface AdminArticle extends AdminArticleRow {
  summary: string;
  keywords: string;
  bodyHtml: string;
}

const ADMIN_ARTICLE_COLS = `a.id, a.kind, a.category_id AS categoryId, c.name AS categoryName, a.url, a.title, a.state,
  a.is_hot AS isHot, a.show_on_buy AS showOnBuy, a.views, a.published_at AS publishedAt, a.updated_at AS updatedAt`;

/** Articles in every state, newest edit first, filtered by title/url text, kind, category and state. */
export async function listArticlesAdmin(
  db: D1Database,
  q: {
    text: string;
    kind: 'help' | 'news' | null;
    categoryId: number | null;
    state: 0 | 1 | null;
    limit: number;
    offset: number;
  },
): Promise<{ rows: AdminArticleRow[]; total: number }> {
  const like = q.text ? `%${q.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const from = `FROM articles a LEFT JOIN help_categories c ON c.id = a.category_id
       WHERE (?1 IS NULL OR a.title LIKE ?1 ESCAPE '\\' OR a.url LIKE ?1 ESCAPE '\\')
         AND (?2 IS NULL OR a.kind = ?2) AND (?3 IS NULL OR a.category_id = ?3) AND (?4 IS NULL OR a.state = ?4)`;
  const [list, count] = await db.batch([
    db
      .prepare(`SELECT ${ADMIN_ARTICLE_COLS} ${from} ORDER BY a.updated_at DESC, a.id DESC LIMIT ?5 + 0 OFFSET ?6`)
      .bind(like, q.kind, q.categoryId, q.state, q.limit, q.offset),
    db.prepare(`SELECT COUNT(*) AS n ${from}`).bind(like, q.kind, q.categoryId, q.state),
  ]);
  return {
    rows: (list?.results ?? []) as AdminArticleRow[],
    total: Number((count?.results?.[0] as { n?: number } | undefined)?.n ?? 0),
  };
}

/** One article in any state, with its stored (sanitised) body. */
export async function findArticleAdmin(db: D1Database, id: number): Promise<AdminArticle | null> {
  return db
    .prepare(
      `SELECT ${ADMIN_ARTICLE_COLS}, a.summary, a.keywords, a.body_html AS bodyHtml
       FROM articles a LEFT JOIN help_categories c ON c.id = a.category_id WHERE a.id = ?`,
    )
    .bind(id)
    .first<AdminArticle>();
}

export interface ArticleFields {
  kind: 'help' | 'news';
  categoryId: number | null;
  url: string;
  title: string;
  summary: string;
  keywords: string;
  /** Sanitised HTML and its plain text (storedHtml). */
  bodyHtml: string;
  bodyText: string;
  isHot: boolean;
  showOnBuy: boolean;
}

/** A new article, hidden until published; RETURNING id. */
export const insertArticleStatement = (db: D1Database, f: ArticleFields, now: number) =>
  insertRowStatement(db, 'articles', { ...columnsOf(f), state: 0, published_at: now, updated_at: now });

/**
 * Rewrite an article's fields, only if nobody saved it since the editor loaded it (`expectedUpdatedAt`), so two
 * editors never overwrite each other silently. The FTS index follows through its update trigger.
 */
export const updateArticleStatement = (
  db: D1Database,
  id: number,
  f: ArticleFields,
  expectedUpdatedAt: number,
  now: number,
) => updateRowStatement(db, 'articles', id, { ...columnsOf(f), updated_at: now }, ['updated_at', expectedUpdatedAt]);

/**
 * Publish (0 -> 1) or unpublish (1 -> 0); changes nothing when the article is already in that state. updated_at is
 * the content's version stamp and stays as it is (an open editor can still save).
 */
export function setArticleStateStatement(db: D1Database, id: number, to: 0 | 1): D1PreparedStatement {
  return db.prepare('UPDATE articles SET state = ?1 WHERE id = ?2 AND state = 1 - ?1').bind(to, id);
}

// ---------------------------------------------------------------- notices

export interface AdminNotice {
  id: number;
  title: string;
  contentHtml: string;
  startsAt: number;
  endsAt: number;
  enabled: number;
  createdAt: number;
}

/** Notices for everyone (not the personal ones), newest first. */
export async function listNoticesAdmin(db: D1Database, limit = 100): Promise<AdminNotice[]> {
  const { results } = await db
    .prepare(
      `SELECT id, title, content_html AS contentHtml, starts_at AS startsAt, ends_at AS endsAt, enabled,
         created_at AS createdAt
       FROM home_notices WHERE user_id IS NULL ORDER BY starts_at DESC, id DESC LIMIT ? + 0`,
    )
    .bind(limit)
    .all<AdminNotice>();
  return results;
}

export interface NoticeFields {
  title: string;
  contentHtml: string;
  startsAt: number;
  endsAt: number;
  enabled: boolean;
}

export function insertNoticeStatement(db: D1Database, f: NoticeFields, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO home_notices (title, content_html, starts_at, ends_at, enabled, created_at, user_id)
       VALUES (?, ?, ?, ?, ?, ?, NULL) RETURNING id`,
    )
    .bind(f.title, f.contentHtml, f.startsAt, f.endsAt, f.enabled ? 1 : 0, now);
}

export function updateNoticeStatement(db: D1Database, id: number, f: NoticeFields): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE home_notices SET title = ?, content_html = ?, starts_at = ?, ends_at = ?, enabled = ?
       WHERE id = ? AND user_id IS NULL`,
    )
    .bind(f.title, f.contentHtml, f.startsAt, f.endsAt, f.enabled ? 1 : 0, id);
}

// ---------------------------------------------------------------- friend links

export interface AdminFriendLink {
  id: number;
  linkName: string;
  linkUrl: string;
  linkTarget: '_blank' | '_self';
  noFollow: number;
  sort: number;
  enabled: number;
}

export async function listFriendLinksAdmin(db: D1Database): Promise<AdminFriendLink[]> {
  const { results } = await db
    .prepare(
      `SELECT id, link_name AS linkName, link_url AS linkUrl, link_target AS linkTarget, no_follow AS noFollow, sort,
         enabled FROM friend_links ORDER BY sort, id LIMIT 200`,
    )
    .all<AdminFriendLink>();
  return results;
}

export type FriendLinkFields = Omit<AdminFriendLink, 'id'>;

export const insertFriendLinkStatement = (db: D1Database, f: FriendLinkFields) =>
  insertRowStatement(db, 'friend_links', columnsOf(f));

export const updateFriendLinkStatement = (db: D1Database, id: number, f: FriendLinkFields) =>
  updateRowStatement(db, 'friend_links', id, columnsOf(f));

// ---------------------------------------------------------------- marketing images

/** A marketing image as the console edits it: the public record (isClick stored 0/1) plus audience and window. */
export interface AdminMarketingImage extends Omit<MarketingImageRecord, 'isClick'> {
  id: number;
  isClick: number;
  audience: 'all' | 'guest' | 'user';
  startsAt: number;
  endsAt: number;
  enabled: number;
}

export async function listMarketingImagesAdmin(db: D1Database): Promise<AdminMarketingImage[]> {
  const { results } = await db
    .prepare(
      `SELECT id, slot, img, is_click AS isClick, click_url AS clickUrl, in_or_out AS inOrOut, alt, audience,
         starts_at AS startsAt, ends_at AS endsAt, enabled
       FROM marketing_images ORDER BY slot, starts_at DESC, id DESC LIMIT 200`,
    )
    .all<AdminMarketingImage>();
  return results;
}

export type MarketingImageFields = Omit<AdminMarketingImage, 'id'>;

export const insertMarketingImageStatement = (db: D1Database, f: MarketingImageFields) =>
  insertRowStatement(db, 'marketing_images', columnsOf(f));

export const updateMarketingImageStatement = (db: D1Database, id: number, f: MarketingImageFields) =>
  updateRowStatement(db, 'marketing_images', id, columnsOf(f));

// ---------------------------------------------------------------- promotion materials

export interface AdminMaterial {
  id: number;
  kind: 'text' | 'image';
  title: string;
  content: string;
  sort: number;
  enabled: number;
}

export async function listMaterialsAdmin(db: D1Database): Promise<AdminMaterial[]> {
  const { results } = await db
    .prepare('SELECT id, kind, title, content, sort, enabled FROM promotion_materials ORDER BY sort, id LIMIT 200')
    .all<AdminMaterial>();
  return results;
}

export type MaterialFields = Omit<AdminMaterial, 'id'>;

export const insertMaterialStatement = (db: D1Database, f: MaterialFields) =>
  insertRowStatement(db, 'promotion_materials', columnsOf(f));

export const updateMaterialStatement = (db: D1Database, id: number, f: MaterialFields) =>
  updateRowStatement(db, 'promotion_materials', id, columnsOf(f));

// ---------------------------------------------------------------- generic row helpers

/** The content tables an operator may delete rows from (help categories have their own guarded delete). */
export type ContentTable = 'home_notices' | 'friend_links' | 'marketing_images' | 'promotion_materials';

/** One content row as stored (for the audit log's "before"), or null. */
export async function findContentRow(
  db: D1Database,
  table: ContentTable,
  id: number,
): Promise<Record<string, unknown> | null> {
  const personal = table === 'home_notices' ? ' AND user_id IS NULL' : '';
  return db.prepare(`SELECT * FROM ${table} WHERE id = ?${personal}`).bind(id).first<Record<string, unknown>>();
}

export function deleteContentRowStatement(db: D1Database, table: ContentTable, id: number): D1PreparedStatement {
  const personal = table === 'home_notices' ? ' AND user_id IS NULL' : '';
  return db.prepare(`DELETE FROM ${table} WHERE id = ?${personal}`).bind(id);
}

/**
 * How many stored places still name an uploaded marketing file (its /api/media/marketing/<uuid>.<ext> path): other
 * marketing images, promotion materials, operator notices and articles (a substring match: instr, as D1 caps LIKE
 * patterns at 50 bytes).
 */
export async function marketingFileReferences(db: D1Database, path: string): Promise<number> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM marketing_images WHERE img = ?1)
            + (SELECT COUNT(*) FROM promotion_materials WHERE instr(content, ?1) > 0)
            + (SELECT COUNT(*) FROM home_notices WHERE instr(content_html, ?1) > 0)
            + (SELECT COUNT(*) FROM articles WHERE instr(body_html, ?1) > 0) AS n`,
    )
    .bind(path)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Notice reads go with their notice (notice_reads references home_notices). */
export function deleteNoticeReadsStatement(db: D1Database, noticeId: number): D1PreparedStatement {
  return db
    .prepare(
      'DELETE FROM notice_reads WHERE notice_id = ? AND EXISTS (SELECT 1 FROM home_notices WHERE id = ? AND user_id IS NULL)',
    )
    .bind(noticeId, noticeId);
}

// ---------------------------------------------------------------- site settings

export function upsertSettingStatement(db: D1Database, key: string, value: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO site_settings (key, value, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
       WHERE site_settings.value != excluded.value`,
    )
    .bind(key, value, now);
}

// ---------------------------------------------------------------- consultations

export interface ConsultRow extends ConsultFields {
  id: number;
  clientIp: string;
  state: 0 | 1 | 2;
  createdAt: number;
}

/** Consultations in a state (null: all), newest first; `beforeId` pages. */
export async function listConsultations(
  db: D1Database,
  q: { state: 0 | 1 | 2 | null; beforeId: number | null; limit: number },
): Promise<{ list: ConsultRow[]; counts: { state: number; n: number }[] }> {
  const [page, counts] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT id, company, contact_name AS contactName, phone, email, scenario, monthly_volume AS monthlyVolume,
           message, user_id AS userId, client_ip AS clientIp, state, created_at AS createdAt
         FROM consult_requests WHERE (?1 IS NULL OR state = ?1) AND (?2 IS NULL OR id < ?2)
         ORDER BY id DESC LIMIT ?3 + 0`,
      )
      .bind(q.state, q.beforeId, q.limit),
    db.prepare('SELECT state, count(*) AS n FROM consult_requests GROUP BY state'),
  ]);
  return {
    list: (page?.results ?? []) as unknown as ConsultRow[],
    counts: (counts?.results ?? []) as unknown as { state: number; n: number }[],
  };
}

export async function findConsultState(db: D1Database, id: number): Promise<number | null> {
  const row = await db.prepare('SELECT state FROM consult_requests WHERE id = ?').bind(id).first<{ state: number }>();
  return row ? row.state : null;
}

/** Move a consultation from one state to another (conditional: a concurrent change wins). */
export function setConsultStateStatement(db: D1Database, id: number, from: number, to: number): D1PreparedStatement {
  return db.prepare('UPDATE consult_requests SET state = ? WHERE id = ? AND state = ?').bind(to, id, from);
}
