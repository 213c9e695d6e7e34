// What a person must never meet on a screen (issue 24): an error toast, a raw code (a snake_case code, node:103, a JSON
// object, an epoch in milliseconds, undefined/NaN), an English word, or (on a 390 px phone) a page wider than the
// screen. One scan of the text the page shows in its own words: visible text only; left out are code (<code>, <pre>:
// samples, parameter names), what a person types (inputs, the editor), operator-authored content (articles, marked
// translate="no" where it is listed, such as an article's title naming a tool) and identifiers (addresses, paths,
// slugs, order numbers, login names).
import type { Page } from '@playwright/test';

/**
 * Latin words a Chinese-speaking customer or operator reads as product terms (compared case-insensitively). Kept short
 * on purpose: a word missing here is a word to translate, not to add. JSON and TXT name formats; B to TB are data
 * sizes; ICP is the licence number every Chinese site shows; SEO is how the trade names search-engine optimisation.
 */
export const ALLOWED_WORDS = [
  'IP',
  'API',
  'HTTP',
  'HTTPS',
  'SOCKS5',
  'ID',
  'URL',
  'CSV',
  'PDF',
  'JSON',
  'TXT',
  'QR',
  'ICP',
  'SEO',
  'B',
  'KB',
  'MB',
  'GB',
  'TB',
] as const;

/** Where the scan does not look: code, typed input, operator-authored content. */
const NOT_OUR_WORDS =
  'script, style, noscript, template, code, pre, kbd, samp, textarea, [contenteditable], .prose-help, [translate="no"], a[href*="/helpDetails/"]';

/** Watches for error toasts from the start of every page load (they disappear after a few seconds). */
export async function watchErrorToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __errorToasts: string[] };
    w.__errorToasts = [];
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('[data-testid="toast"][role="alert"]'))) {
        const text = el.textContent ?? '';
        if (!w.__errorToasts.includes(text)) w.__errorToasts.push(text);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Everything wrong with what the page shows now: each problem as a short line (empty when the screen is clean). */
export async function screenProblems(page: Page): Promise<string[]> {
  const phone = (page.viewportSize()?.width ?? 0) <= 390;
  return page.evaluate(
    ({ allowed, skip, phone }) => {
      const out: string[] = [];
      const toasts = (window as unknown as { __errorToasts?: string[] }).__errorToasts ?? [];
      for (const t of toasts) out.push(`error toast: ${t}`);
      if (phone && document.documentElement.scrollWidth > window.innerWidth)
        out.push(`wider than the phone: ${document.documentElement.scrollWidth}px`);

      const words = new Set(allowed.map((w) => w.toLowerCase()));
      const seen = new Set<string>();
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        // An element's own text (its text children joined: React splits "v{version}" into two text nodes).
        const text = Array.from(el.childNodes)
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent ?? '')
          .join('');
        if (!/[A-Za-z{]/.test(text) || el.closest(skip)) continue;
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        // Runs of printable ASCII: a path, address, number, code or word, each judged whole.
        for (const run of text.match(/[\x21-\x7e]+/g) ?? []) {
          const say = (what: string) => {
            const line = `${what}: ${run} (in 「${text.trim().slice(0, 60)}」)`;
            if (!seen.has(line)) out.push(line);
            seen.add(line);
          };
          if (/^[{[]\s*["{[]/.test(run) || /":/.test(run)) say('raw JSON');
          // An identifier of letters and digits: an order number (D2026…), a login name (editor_desktop1234).
          else if (/^@?(?=.*\d)(?=.*[A-Za-z])[\w.-]+$/.test(run)) continue;
          // A masked number: a phone (138****0001) or a resident ID, whose check digit may be X (1101**********395X).
          else if (/^\d[\d*]+[\dX]$/.test(run) && run.includes('*')) continue;
          else if (/\b[a-z]+(?:_[a-z0-9]+)+\b/.test(run) || /\b[a-z]+:\d+\b/.test(run)) say('raw code');
          else if (/(?:^|\D)1\d{12}(?:\D|$)/.test(run)) say('raw epoch milliseconds');
          else if (/^(?:undefined|null|NaN|\[object)/.test(run)) say('raw value');
          // An address, path, query, e-mail, domain, file name or slug is not a word (/x/y, ?did=, a@b, example.com,
          // .html, local-dev-node), nor a template's placeholder ({link}).
          else if (
            /[/@\\=?&]|[A-Za-z0-9]\.[A-Za-z]|^\.[a-z]+$/.test(run) ||
            /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(run) ||
            /^\{[a-z]+\}$/.test(run)
          )
            continue;
          else {
            for (const word of run.match(/[A-Za-z]+[0-9]*/g) ?? []) {
              if (!words.has(word.toLowerCase())) say(`English word 「${word}」`);
            }
          }
        }
      }
      return out;
    },
    { allowed: [...ALLOWED_WORDS] as string[], skip: NOT_OUR_WORDS, phone },
  );
}
