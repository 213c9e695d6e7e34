// Help-centre addresses and search keywords: what a /help or /helpDetails slug means, the canonical paths, and the
// keyword as typed. Pure functions shared by the pages and the server.

export type HelpSlug = { kind: 'id'; id: number } | { kind: 'url'; url: string };

const URL_SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** Parse the last segment of /help/{x}.html or /helpDetails/{x}.html; null when it cannot name anything. */
export function parseHelpSlug(segment: string): HelpSlug | null {
  let s: string;
  try {
    s = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (!s.endsWith('.html')) return null;
  const base = s.slice(0, -5);
  const byId = /^detail_([1-9]\d{0,8})$/.exec(base);
  if (byId) return { kind: 'id', id: Number(byId[1]) };
  return URL_SLUG.test(base) ? { kind: 'url', url: base } : null;
}

/** True for a valid article/category url slug (the console's editor checks it before saving). */
export const isValidUrlSlug = (s: string): boolean => URL_SLUG.test(s);

/** The canonical address of an article. */
export const articlePath = (url: string): string => `/helpDetails/${url}.html`;
/** The address of a category listing. */
export const categoryPath = (url: string): string => `/help/${url}.html`;

/** A search keyword as typed (trimmed, inner whitespace collapsed, bounded), or null when nothing is left. */
export function normalizeKeyword(raw: string): string | null {
  const kw = raw
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 50);
  return kw.length ? kw : null;
}
