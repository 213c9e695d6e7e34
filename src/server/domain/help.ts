// Help-centre rules: what a /help or /helpDetails slug means, which categories are shown, search keyword hygiene and
// the public shapes of articles and categories (seed: Help category type, desc, articleList; News article Title, Url).

export {
  articlePath,
  categoryPath,
  type HelpSlug,
  isValidUrlSlug,
  normalizeKeyword,
  parseHelpSlug,
} from '../../lib/help-paths';

export interface CategoryWithCount {
  id: number;
  topCategory: 0 | 2;
  articleCount: number;
  sort: number;
}

/**
 * Categories to show for a top category: only those holding articles, in sort order, at most `limit`
 * (seed: ArticleSecondCategoryListV2 keeps categories having articles, first 4).
 */
export function visibleCategories<T extends CategoryWithCount>(all: T[], topCategory: 0 | 2 | null, limit = 4): T[] {
  return all
    .filter((c) => (topCategory === null || c.topCategory === topCategory) && c.articleCount > 0)
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .slice(0, limit);
}

/** Page bounds: page from 1, size 1..50. */
export function pageWindow(page: number, pageSize: number): { limit: number; offset: number } {
  const size = Math.min(50, Math.max(1, Math.trunc(pageSize)));
  const p = Math.max(1, Math.trunc(page));
  return { limit: size, offset: (p - 1) * size };
}

/** Marks FTS5's highlight()/snippet() put around matches (never present in stored text: see plainTextOf). */
export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';

/** The terms of a search keyword: up to 6 distinct whitespace-separated words, split by what the index can find. */
export function searchTerms(keyword: string): { long: string[]; short: string[] } {
  const words = [...new Set(keyword.split(' ').filter(Boolean))].slice(0, 6);
  // The trigram index matches substrings of 3+ characters; 1-2 character words are matched by a bounded LIKE.
  const isLong = (w: string) => [...w].length >= 3;
  return { long: words.filter(isLong), short: words.filter((w) => !isLong(w)) };
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text with FTS5 marks -> HTML: everything escaped, the marked matches in <mark>. */
export function markedToHtml(marked: string): string {
  let open = false;
  let out = '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the marks are control characters on purpose
  for (const part of marked.split(/([\u0001\u0002])/)) {
    if (part === MARK_OPEN) {
      if (!open) out += '<mark>';
      open = true;
    } else if (part === MARK_CLOSE) {
      if (open) out += '</mark>';
      open = false;
    } else out += escapeHtml(part);
  }
  return open ? `${out}</mark>` : out;
}

/** Plain text -> HTML with every case-insensitive occurrence of the words in <mark> (for LIKE-matched titles). */
export function highlightWords(text: string, words: string[]): string {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return escapeHtml(text);
  const marks = new Array<boolean>(text.length).fill(false);
  for (const w of words) {
    const lw = w.toLowerCase();
    if (!lw) continue;
    for (let at = lower.indexOf(lw); at !== -1; at = lower.indexOf(lw, at + lw.length)) {
      for (let k = at; k < at + lw.length; k++) marks[k] = true;
    }
  }
  let marked = '';
  for (let k = 0; k < text.length; k++) {
    if (marks[k] && !marks[k - 1]) marked += MARK_OPEN;
    marked += text[k];
    if (marks[k] && !marks[k + 1]) marked += MARK_CLOSE;
  }
  return markedToHtml(marked);
}
