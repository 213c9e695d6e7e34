import { ARTICLE_STATE } from '../../lib/article-states';
// Queries for the help centre and news: categories, articles (kind help/news), titles, search and view counts.

/** Escape LIKE wildcards so a keyword matches literally (used with ESCAPE '\'). */
export const likePattern = (kw: string): string => `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An FTS5 MATCH expression requiring every word as a literal phrase (quotes doubled: no query syntax leaks in). */
export const ftsQuery = (words: string[]): string => words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');

export interface HelpCategory {
  id: number;
  topCategory: 0 | 2;
  name: string;
  desc: string;
  url: string;
  sort: number;
  articleCount: number;
}

export interface ArticleTitle {
  id: number;
  kind: 'help' | 'news';
  categoryId: number | null;
  url: string;
  title: string;
  summary: string;
  isHot: boolean;
  views: number;
  publishedAt: number;
  updatedAt: number;
}

export interface Article extends ArticleTitle {
  keywords: string[];
  bodyHtml: string;
  showOnBuy: boolean;
}

interface CategoryRow {
  id: number;
  top_category: 0 | 2;
  name: string;
  description: string;
  url: string;
  sort: number;
  article_count: number;
}

interface ArticleRow {
  id: number;
  kind: 'help' | 'news';
  category_id: number | null;
  url: string;
  title: string;
  summary: string;
  keywords?: string;
  body_html?: string;
  is_hot: number;
  show_on_buy?: number;
  views: number;
  published_at: number;
  updated_at: number;
}

const mapCategory = (r: CategoryRow): HelpCategory => ({
  id: r.id,
  topCategory: r.top_category,
  name: r.name,
  desc: r.description,
  url: r.url,
  sort: r.sort,
  articleCount: r.article_count,
});

const mapTitle = (r: ArticleRow): ArticleTitle => ({
  id: r.id,
  kind: r.kind,
  categoryId: r.category_id,
  url: r.url,
  title: r.title,
  summary: r.summary,
  isHot: r.is_hot === 1,
  views: r.views,
  publishedAt: r.published_at,
  updatedAt: r.updated_at,
});

const mapArticle = (r: ArticleRow): Article => ({
  ...mapTitle(r),
  keywords: (r.keywords ?? '').split(',').filter(Boolean),
  bodyHtml: r.body_html ?? '',
  showOnBuy: r.show_on_buy === 1,
});

const TITLE_COLS = 'id, kind, category_id, url, title, summary, is_hot, views, published_at, updated_at';
const ALL_COLS = `${TITLE_COLS}, keywords, body_html, show_on_buy`;
const CATEGORY_SELECT = `SELECT c.id, c.top_category, c.name, c.description, c.url, c.sort,
  (SELECT count(*) FROM articles a WHERE a.category_id = c.id AND a.state = ${ARTICLE_STATE.published}) AS article_count
  FROM help_categories c`;

/** Every category with its published-article count, in display order. */
export async function listCategories(db: D1Database): Promise<HelpCategory[]> {
  const { results } = await db.prepare(`${CATEGORY_SELECT} ORDER BY c.top_category, c.sort, c.id`).all<CategoryRow>();
  return results.map(mapCategory);
}

/** One category by id or url. */
export async function findCategory(db: D1Database, by: { id?: number; url?: string }): Promise<HelpCategory | null> {
  const row =
    by.id !== undefined
      ? await db.prepare(`${CATEGORY_SELECT} WHERE c.id = ?`).bind(by.id).first<CategoryRow>()
      : await db
          .prepare(`${CATEGORY_SELECT} WHERE c.url = ?`)
          .bind(by.url ?? '')
          .first<CategoryRow>();
  return row ? mapCategory(row) : null;
}

/** One published article (help or news) by id or url. */
export async function findArticle(db: D1Database, by: { id?: number; url?: string }): Promise<Article | null> {
  const [where, value] = by.id !== undefined ? ['id = ?', by.id] : ['url = ?', by.url ?? ''];
  const row = await db
    .prepare(`SELECT ${ALL_COLS} FROM articles WHERE ${where} AND state = ${ARTICLE_STATE.published}`)
    .bind(value)
    .first<ArticleRow>();
  return row ? mapArticle(row) : null;
}

/** Published titles of one category, newest first. */
export async function listCategoryTitles(
  db: D1Database,
  categoryId: number,
  limit = 50,
  offset = 0,
): Promise<ArticleTitle[]> {
  const { results } = await db
    .prepare(
      `SELECT ${TITLE_COLS} FROM articles WHERE category_id = ? AND state = ${ARTICLE_STATE.published} ORDER BY published_at DESC LIMIT ? + 0 OFFSET ?`,
    )
    .bind(categoryId, limit, offset)
    .all<ArticleRow>();
  return results.map(mapTitle);
}

/** Titles of a kind, newest first, with the total count. */
export async function listTitlesOfKind(
  db: D1Database,
  kind: 'help' | 'news',
  limit: number,
  offset = 0,
): Promise<{ list: ArticleTitle[]; total: number }> {
  const [page, total] = await db.batch<ArticleRow | { n: number }>([
    db
      .prepare(
        `SELECT ${TITLE_COLS} FROM articles WHERE kind = ? AND state = ${ARTICLE_STATE.published} ORDER BY published_at DESC LIMIT ? + 0 OFFSET ?`,
      )
      .bind(kind, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM articles WHERE kind = ? AND state = ${ARTICLE_STATE.published}`).bind(kind),
  ]);
  return {
    list: ((page?.results ?? []) as ArticleRow[]).map(mapTitle),
    total: ((total?.results?.[0] as { n: number } | undefined)?.n ?? 0) as number,
  };
}

/** Hot help articles, most viewed first. */
export async function listHotTitles(db: D1Database, limit: number): Promise<ArticleTitle[]> {
  const { results } = await db
    .prepare(
      `SELECT ${TITLE_COLS} FROM articles WHERE kind = 'help' AND is_hot = 1 AND state = ${ARTICLE_STATE.published} ORDER BY views DESC LIMIT ? + 0`,
    )
    .bind(limit)
    .all<ArticleRow>();
  return results.map(mapTitle);
}

/** Help articles flagged for the buy page. */
export async function listBuyShowTitles(db: D1Database, limit: number): Promise<ArticleTitle[]> {
  const { results } = await db
    .prepare(
      `SELECT ${TITLE_COLS} FROM articles WHERE kind = 'help' AND show_on_buy = 1 AND state = ${ARTICLE_STATE.published} ORDER BY published_at DESC LIMIT ? + 0`,
    )
    .bind(limit)
    .all<ArticleRow>();
  return results.map(mapTitle);
}

/** Every published title (help and news), for the sitemap and the all-titles list. */
export async function listAllTitles(db: D1Database): Promise<ArticleTitle[]> {
  const { results } = await db
    .prepare(
      `SELECT ${TITLE_COLS} FROM articles WHERE state = ${ARTICLE_STATE.published} ORDER BY kind, category_id, published_at DESC LIMIT 5000`,
    )
    .all<ArticleRow>();
  return results.map(mapTitle);
}

export interface SearchHit extends ArticleTitle {
  /** The title with FTS5 marks (MARK_OPEN/MARK_CLOSE) around the matches; '' when matched by LIKE. */
  titleMarked: string;
  /** A body excerpt around the matches with FTS5 marks; '' when matched by LIKE. */
  snippetMarked: string;
}

/**
 * Published help articles matching every search word (docs/decisions/091). Words of 3+ characters go to the FTS5
 * trigram index (substring match in title, summary, keywords or body text; ranked by bm25 with the title weighted
 * highest), 1-2 character words must appear in any of those columns of the matched rows. A query of only short words
 * matches titles by LIKE (patterns of at most 2 characters, far below D1's LIKE limit), most viewed first.
 */
export async function searchArticles(
  db: D1Database,
  words: { long: string[]; short: string[] },
  limit: number,
  offset: number,
): Promise<{ list: SearchHit[]; total: number }> {
  const patterns = words.short.map(likePattern);
  let page: D1PreparedStatement;
  let count: D1PreparedStatement;
  if (words.long.length > 0) {
    const anyColumn = patterns.flatMap((p) => [p, p, p, p]);
    const shortCond = patterns
      .map(
        () => `AND (articles_fts.title LIKE ? ESCAPE '\\' OR articles_fts.summary LIKE ? ESCAPE '\\'
          OR articles_fts.keywords LIKE ? ESCAPE '\\' OR articles_fts.body LIKE ? ESCAPE '\\')`,
      )
      .join(' ');
    const from = `FROM articles_fts JOIN articles a ON a.id = articles_fts.rowid
      WHERE articles_fts MATCH ? AND a.state = ${ARTICLE_STATE.published} AND a.kind = 'help' ${shortCond}`;
    const cols = TITLE_COLS.split(', ')
      .map((c) => `a.${c}`)
      .join(', ');
    const q = ftsQuery(words.long);
    page = db
      .prepare(
        `SELECT ${cols}, highlight(articles_fts, 0, char(1), char(2)) AS title_marked,
           snippet(articles_fts, 3, char(1), char(2), '…', 40) AS snippet_marked
         ${from} ORDER BY bm25(articles_fts, 10.0, 4.0, 4.0, 1.0), a.views DESC, a.id LIMIT ? + 0 OFFSET ?`,
      )
      .bind(q, ...anyColumn, limit, offset);
    count = db.prepare(`SELECT count(*) AS n ${from}`).bind(q, ...anyColumn);
  } else {
    const where = `state = ${ARTICLE_STATE.published} AND kind = 'help' ${patterns.map(() => `AND title LIKE ? ESCAPE '\\'`).join(' ')}`;
    page = db
      .prepare(
        `SELECT ${TITLE_COLS}, '' AS title_marked, '' AS snippet_marked FROM articles WHERE ${where}
         ORDER BY views DESC, published_at DESC, id LIMIT ? + 0 OFFSET ?`,
      )
      .bind(...patterns, limit, offset);
    count = db.prepare(`SELECT count(*) AS n FROM articles WHERE ${where}`).bind(...patterns);
  }
  const [rows, total] = await db.batch<Record<string, unknown>>([page, count]);
  return {
    list: ((rows?.results ?? []) as unknown as (ArticleRow & { title_marked: string; snippet_marked: string })[]).map(
      (r) => ({ ...mapTitle(r), titleMarked: r.title_marked, snippetMarked: r.snippet_marked }),
    ),
    total: (total?.results?.[0]?.n as number | undefined) ?? 0,
  };
}

/** Count one view of an article. */
export async function addArticleView(db: D1Database, id: number): Promise<void> {
  await db.prepare('UPDATE articles SET views = views + 1 WHERE id = ?').bind(id).run();
}
