// Which link targets operator-authored HTML may keep (docs/decisions/096): one rule for the server's sanitiser
// (server/domain/html-sanitizer.ts) and the console's rich-text editor, which checks a link as it is typed.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t' };

/** Decode character references so scheme checks see what a browser would see. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** A link target that is safe to keep: a site path, an anchor, or http(s)/mailto. Null otherwise. */
export function safeHref(raw: string): { href: string; external: boolean } | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip
  const href = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (href === '' || href.length > 2048) return null;
  if (href.startsWith('//') || href.startsWith('/\\')) return null;
  if (href.startsWith('/') || href.startsWith('#') || href.startsWith('?')) return { href, external: false };
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined) return /^[\w\-./%]+(?:[?#].*)?$/.test(href) ? { href, external: false } : null;
  if (scheme === 'http' || scheme === 'https') return { href, external: true };
  if (scheme === 'mailto') return { href, external: false };
  return null;
}
