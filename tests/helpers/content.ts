// Test fixtures for the public content (help articles, notices, links, marketing images, settings) and what visitors
// submit (consultations, tracking points): the demo content loaded, rows read and states forced in D1 by name (the
// integration tests hold no SQL).
import { env } from 'cloudflare:test';
import { ARTICLE_STATE, type ArticleState } from '../../src/lib/article-states';
import { upsertSettingStatement } from '../../src/server/db/console-content';
import { catalogueImportStatements } from '../../src/server/seed/catalogue-import';
import { demoContentStatements } from '../../src/server/seed/content-sql';
import { resetDb } from './api';
import { count, when } from './rows';

/** Load (or load again: the statements upsert) the demo help centre, notices, links and images. */
export async function seedDemoContent(now = Date.now()): Promise<void> {
  await env.DB.batch(demoContentStatements(now).map((s) => env.DB.prepare(s)));
}

/** Empty the database (articles and visitor rows first: they reference categories and users) and load the demo content. */
export async function resetWithContent(): Promise<void> {
  await env.DB.batch(
    ['articles', 'consult_requests', 'tracking_points'].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
  await resetDb();
  await seedDemoContent();
}

// --- articles ---

export interface HelpArticleSpec {
  /** Chosen id (default: the next one). */
  id?: number;
  categoryId?: number | null;
  url: string;
  title: string;
  bodyText: string;
  /** Stored HTML (default: the text in one paragraph). */
  bodyHtml?: string;
  state?: ArticleState;
  publishedAt?: number;
  updatedAt?: number;
}

/** Store help articles as written (not through the console's sanitiser), in one batch. */
export async function addHelpArticles(articles: HelpArticleSpec[]): Promise<void> {
  await env.DB.batch(
    articles.map((a) =>
      env.DB.prepare(
        `INSERT INTO articles (id, kind, category_id, url, title, summary, keywords, body_html, body_text, state,
           published_at, updated_at)
         VALUES (?, 'help', ?, ?, ?, '', '', ?, ?, ?, ?, ?)`,
      ).bind(
        a.id ?? null,
        a.categoryId ?? null,
        a.url,
        a.title,
        a.bodyHtml ?? `<p>${a.bodyText}</p>`,
        a.bodyText,
        a.state ?? ARTICLE_STATE.published,
        a.publishedAt ?? 1,
        a.updatedAt ?? 1,
      ),
    ),
  );
}

export interface ArticleChange {
  title?: string;
  bodyHtml?: string;
  bodyText?: string;
  state?: ArticleState;
}

/** Change an article's stored fields directly (bypassing the console: no sanitiser, no audit). */
export async function changeArticle(id: number, change: ArticleChange): Promise<void> {
  const columns = { title: 'title', bodyHtml: 'body_html', bodyText: 'body_text', state: 'state' } as const;
  const set = (Object.keys(change) as (keyof ArticleChange)[]).filter((k) => change[k] !== undefined);
  if (set.length === 0) return;
  await env.DB.prepare(`UPDATE articles SET ${set.map((k) => `${columns[k]} = ?`).join(', ')} WHERE id = ?`)
    .bind(...set.map((k) => change[k]), id)
    .run();
}

/** Delete an article row directly. */
export async function deleteArticleRow(id: number): Promise<void> {
  await env.DB.prepare('DELETE FROM articles WHERE id = ?').bind(id).run();
}

export interface StoredArticle {
  id: number;
  bodyHtml: string;
  bodyText: string;
  state: number;
}

/** Every stored article's body (all kinds and states), by id. */
export async function storedArticles(): Promise<StoredArticle[]> {
  const { results } = await env.DB.prepare('SELECT id, body_html, body_text, state FROM articles ORDER BY id').all<{
    id: number;
    body_html: string;
    body_text: string;
    state: number;
  }>();
  return results.map((r) => ({ id: r.id, bodyHtml: r.body_html, bodyText: r.body_text, state: r.state }));
}

/** The published help articles (id and plain text), by id. */
export async function publishedHelpTexts(): Promise<{ id: number; bodyText: string }[]> {
  const { results } = await env.DB.prepare(
    `SELECT id, body_text FROM articles WHERE kind = 'help' AND state = ${ARTICLE_STATE.published} ORDER BY id`,
  ).all<{ id: number; body_text: string }>();
  return results.map((r) => ({ id: r.id, bodyText: r.body_text }));
}

/** One article's stored HTML and state, or null. */
export async function storedArticle(id: number): Promise<{ bodyHtml: string; state: number } | null> {
  const row = await env.DB.prepare('SELECT body_html, state FROM articles WHERE id = ?')
    .bind(id)
    .first<{ body_html: string; state: number }>();
  return row ? { bodyHtml: row.body_html, state: row.state } : null;
}

/** How many articles carry a title. */
export const articlesTitled = (title: string) => count('articles', [when('title = ?', title)]);

/** How many articles are stored and how many rows the search index holds. */
export async function articleIndexSizes(): Promise<{ articles: number; indexed: number }> {
  const row = await env.DB.prepare(
    'SELECT (SELECT count(*) FROM articles) AS a, (SELECT count(*) FROM articles_fts) AS f',
  ).first<{ a: number; f: number }>();
  return { articles: row?.a ?? -1, indexed: row?.f ?? -1 };
}

/** The content tables whose rows the console writes and deletes. */
export type ContentCountedTable =
  | 'articles'
  | 'help_categories'
  | 'home_notices'
  | 'notice_reads'
  | 'friend_links'
  | 'marketing_images'
  | 'promotion_materials';

/** How many rows a content table holds. */
export const contentRowCount = (table: ContentCountedTable) => count(table);

// --- shell content ---

export interface FriendLinkSpec {
  id: number;
  name: string;
  url: string;
  target?: '_blank' | '_self';
  noFollow?: boolean;
  sort?: number;
}

/** Store a friend link as written (not through the console's URL check). */
export async function addFriendLinkRow(l: FriendLinkSpec): Promise<void> {
  await env.DB.prepare(
    'INSERT INTO friend_links (id, link_name, link_url, link_target, no_follow, sort) VALUES (?, ?, ?, ?, ?, ?)',
  )
    .bind(l.id, l.name, l.url, l.target ?? '_blank', l.noFollow === false ? 0 : 1, l.sort ?? 0)
    .run();
}

/** The stored HTML of a home notice, or null. */
export async function homeNoticeHtml(id: number): Promise<string | null> {
  const row = await env.DB.prepare('SELECT content_html FROM home_notices WHERE id = ?')
    .bind(id)
    .first<{ content_html: string }>();
  return row?.content_html ?? null;
}

/** Every stored home notice's HTML. */
export async function homeNoticeBodies(): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT content_html FROM home_notices ORDER BY id').all<{
    content_html: string;
  }>();
  return results.map((r) => r.content_html);
}

/** End every home notice's display window at `at` (long past by default). */
export async function endHomeNotices(at = 1): Promise<void> {
  await env.DB.prepare('UPDATE home_notices SET ends_at = ?').bind(at).run();
}

/** Switch every marketing image off. */
export async function disableMarketingImages(): Promise<void> {
  await env.DB.prepare('UPDATE marketing_images SET enabled = 0').run();
}

export interface MarketingImageChange {
  img?: string;
  clickUrl?: string;
  /** 1 an internal route, 2 an outside address. */
  inOrOut?: 1 | 2;
}

/** Change the stored marketing images directly (bypassing the console's safe-URL check): one slot, or every image. */
export async function changeMarketingImages(
  change: MarketingImageChange,
  slot?: 'centerImg' | 'bottomBtn2',
): Promise<void> {
  const columns = { img: 'img', clickUrl: 'click_url', inOrOut: 'in_or_out' } as const;
  const set = (Object.keys(change) as (keyof MarketingImageChange)[]).filter((k) => change[k] !== undefined);
  if (set.length === 0) return;
  const values = set.map((k) => change[k]);
  const sql = `UPDATE marketing_images SET ${set.map((k) => `${columns[k]} = ?`).join(', ')}`;
  if (slot === undefined)
    await env.DB.prepare(sql)
      .bind(...values)
      .run();
  else
    await env.DB.prepare(`${sql} WHERE slot = ?`)
      .bind(...values, slot)
      .run();
}

/** Store a site setting (as the console's settings form does, without its audit row). */
export async function setSiteSetting(key: string, value: string): Promise<void> {
  await upsertSettingStatement(env.DB, key, value, Date.now()).run();
}

// --- visitor submissions ---

export interface StoredConsultation {
  company: string;
  phone: string;
  scenario: string;
  clientIp: string;
}

/** The stored consultations, oldest first. */
export async function storedConsultations(): Promise<StoredConsultation[]> {
  const { results } = await env.DB.prepare(
    'SELECT company, phone, scenario, client_ip FROM consult_requests ORDER BY id',
  ).all<{ company: string; phone: string; scenario: string; client_ip: string }>();
  return results.map((r) => ({ company: r.company, phone: r.phone, scenario: r.scenario, clientIp: r.client_ip }));
}

export interface ConsultationSpec {
  company: string;
  contactName: string;
  phone: string;
  scenario: string;
  monthlyVolume: string;
  clientIp: string;
  createdAt?: number;
}

/** Store a consultation as a visitor's form would (without its rate limit). */
export async function addConsultation(c: ConsultationSpec): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO consult_requests (company, contact_name, phone, scenario, monthly_volume, client_ip, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(c.company, c.contactName, c.phone, c.scenario, c.monthlyVolume, c.clientIp, c.createdAt ?? Date.now())
    .run();
}

export interface StoredTrackingPoint {
  channel: string;
  clickId: string;
  event: string;
}

/** The stored tracking points, oldest first. */
export async function storedTrackingPoints(): Promise<StoredTrackingPoint[]> {
  const { results } = await env.DB.prepare('SELECT channel, click_id, event FROM tracking_points ORDER BY id').all<{
    channel: string;
    click_id: string;
    event: string;
  }>();
  return results.map((r) => ({ channel: r.channel, clickId: r.click_id, event: r.event }));
}

export interface HomeNoticeSpec {
  id: number;
  title: string;
  /** Stored as written (not through the console's sanitiser). */
  html: string;
  startsAt: number;
  endsAt: number;
  createdAt?: number;
}

/** Store an enabled home notice as written. */
export async function addHomeNoticeRow(n: HomeNoticeSpec): Promise<void> {
  await env.DB.prepare(
    'INSERT INTO home_notices (id, title, content_html, starts_at, ends_at, enabled, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)',
  )
    .bind(n.id, n.title, n.html, n.startsAt, n.endsAt, n.createdAt ?? 1)
    .run();
}

/** Run the production catalogue import (catalogue and public content) as the deploy does, 50 statements a batch. */
export async function runCatalogueImport(now = Date.now()): Promise<void> {
  const list = catalogueImportStatements(now);
  for (let i = 0; i < list.length; i += 50) await env.DB.batch(list.slice(i, i + 50).map((s) => env.DB.prepare(s)));
}
