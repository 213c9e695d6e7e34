// The strict allow-list HTML sanitiser for operator-authored content (help articles, news, the home notice). It keeps
// a small set of formatting tags and safe links, drops everything else (script-like elements with their content),
// escapes stray markup and balances tags, so the output can be rendered with dangerouslySetInnerHTML.
import { decodeEntities, safeHref } from '../../lib/safe-href';

// The link rule lives in lib (the console's rich-text editor checks a link with it before the save does).
export { safeHref };

const ALLOWED_TAGS = new Set([
  'h2',
  'h3',
  'h4',
  'p',
  'ul',
  'ol',
  'li',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'code',
  'pre',
  'a',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'blockquote',
  'span',
]);
const VOID_TAGS = new Set(['br']);
const MAX_DEPTH = 64;
/** Elements removed together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'textarea',
  'title',
  'svg',
  'math',
  'select',
  'xmp',
  'plaintext',
  'head',
]);

// Sticky (matched at lastIndex, never on a copy of the rest of the input). Attribute names and unquoted values never
// contain '<', so a failed tag attempt reads at most to the next '<' outside a quoted value (or to the end of that
// value): the scan stays linear in the input (docs/decisions/096).
const TAG_RE =
  /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const ATTR_RE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Plain text made safe to put between HTML tags (a notice's sentence, say). */
export const escapeText = (s: string) =>
  s
    .replace(/&(?!(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function renderAttributes(tag: string, raw: string): string {
  const out: string[] = [];
  let external = false;
  for (const m of raw.matchAll(ATTR_RE)) {
    const name = (m[1] ?? '').toLowerCase();
    const value = m[2] ?? m[3] ?? m[4] ?? '';
    if (tag === 'a' && name === 'href') {
      const link = safeHref(value);
      if (!link) continue;
      external = link.external;
      out.push(`href="${escapeAttr(link.href)}"`);
    } else if (tag === 'a' && name === 'title') {
      out.push(`title="${escapeAttr(decodeEntities(value).slice(0, 200))}"`);
    } else if (tag === 'code' && name === 'class' && /^language-[a-z0-9+#-]{1,20}$/.test(value)) {
      out.push(`class="${value}"`);
    } else if (
      (tag === 'td' || tag === 'th') &&
      (name === 'colspan' || name === 'rowspan') &&
      /^\d{1,2}$/.test(value)
    ) {
      out.push(`${name}="${value}"`);
    }
  }
  if (tag === 'a' && external) out.push('target="_blank"', 'rel="noopener noreferrer nofollow"');
  return out.length ? ` ${out.join(' ')}` : '';
}

/** Sanitise untrusted HTML down to the content allow-list. */
export function sanitizeHtml(input: string): string {
  const out: string[] = [];
  const stack: string[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const lt = input.indexOf('<', i);
    if (lt === -1) {
      out.push(escapeText(input.slice(i)));
      break;
    }
    if (lt > i) out.push(escapeText(input.slice(i, lt)));
    i = lt;
    if (input.startsWith('<!--', i)) {
      const end = input.indexOf('-->', i + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    if (input.startsWith('<!', i) || input.startsWith('<?', i)) {
      const end = input.indexOf('>', i);
      i = end === -1 ? n : end + 1;
      continue;
    }
    TAG_RE.lastIndex = i;
    const m = TAG_RE.exec(input);
    if (!m) {
      out.push('&lt;');
      i += 1;
      continue;
    }
    i += m[0].length;
    const closing = m[1] === '/';
    const tag = (m[2] ?? '').toLowerCase();
    if (DROP_WITH_CONTENT.has(tag)) {
      if (!closing && m[4] !== '/') {
        const endRe = new RegExp(`</${tag}\\s*>`, 'gi');
        endRe.lastIndex = i;
        const found = endRe.exec(input);
        i = found ? found.index + found[0].length : n;
      }
      continue;
    }
    if (!ALLOWED_TAGS.has(tag)) continue;
    if (closing) {
      const at = stack.lastIndexOf(tag);
      if (at === -1) continue;
      while (stack.length > at) out.push(`</${stack.pop()}>`);
      continue;
    }
    if (VOID_TAGS.has(tag)) {
      out.push(`<${tag}>`);
      continue;
    }
    // Nesting deeper than MAX_DEPTH is flattened, so closing-tag lookups stay bounded (linear overall).
    if (stack.length >= MAX_DEPTH) continue;
    out.push(`<${tag}${renderAttributes(tag, m[3] ?? '')}>`);
    stack.push(tag);
  }
  while (stack.length) out.push(`</${stack.pop()}>`);
  return out.join('');
}

/** Plain text of HTML (tags removed, entities decoded, whitespace collapsed), for descriptions and search. */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<[^<>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What an article or notice stores (docs/decisions/096): the sanitised HTML, served as stored, and its plain text for
 * the search index (control characters removed, so they can never be confused with the search highlight marks).
 */
export function storedHtml(raw: string): { html: string; text: string } {
  const html = sanitizeHtml(raw);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
  return { html, text: htmlToText(html).replace(/[\u0000-\u001f\u007f]/g, ' ') };
}
