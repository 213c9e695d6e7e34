// Pure rules: search terms and escaped highlights, stored HTML, the sanitiser's handling of
// unterminated markup, the order page's filters and the buy form's default billing method.
import { describe, expect, it } from 'vitest';
import { billDateFilter, normalizeOrderNo } from '../../src/lib/bill-filters';
import { realDayStart } from '../../src/lib/time';
import { defaultBillingMethod } from '../../src/lib/commerce';
import { ftsQuery } from '../../src/server/db/help';
import { highlightWords, markedToHtml, searchTerms } from '../../src/server/domain/help';
import { sanitizeHtml, storedHtml } from '../../src/server/domain/html-sanitizer';

describe('help search terms and highlights', () => {
  it('splits words by what the trigram index can find', () => {
    expect(searchTerms('代理 IP 长效静态 ip')).toEqual({ long: ['长效静态'], short: ['代理', 'IP', 'ip'] });
    expect(searchTerms('a b c d e f g h').short).toHaveLength(6);
  });

  it('quotes every word as a literal phrase', () => {
    expect(ftsQuery(['say "hi"', 'NOT'])).toBe('"say ""hi""" AND "NOT"');
  });

  it('escapes everything but the marks', () => {
    expect(markedToHtml('<b>\u0001x&y\u0002</b>')).toBe('&lt;b&gt;<mark>x&amp;y</mark>&lt;/b&gt;');
    expect(markedToHtml('\u0001open')).toBe('<mark>open</mark>');
    expect(markedToHtml('\u0002stray')).toBe('stray');
    expect(highlightWords('Proxy <IP> ip', ['ip'])).toBe('Proxy &lt;<mark>IP</mark>&gt; <mark>ip</mark>');
  });
});

describe('stored HTML', () => {
  it('is the sanitised HTML and its plain text', () => {
    expect(storedHtml('<p onclick="x()">a &amp; b</p><script>alert(1)</script>')).toEqual({
      html: '<p>a &amp; b</p>',
      text: 'a & b',
    });
  });

  it('escapes unterminated tags instead of reading past the next <', () => {
    expect(sanitizeHtml('<a b <a b <p>x</p>')).toBe('&lt;a b &lt;a b <p>x</p>');
  });

  it('flattens nesting deeper than 64 levels', () => {
    const deep = sanitizeHtml(`${'<span>'.repeat(100)}x${'</span>'.repeat(100)}`);
    expect(deep.match(/<span>/g)).toHaveLength(64);
    expect(deep.match(/<\/span>/g)).toHaveLength(64);
  });
});

describe('order page filters', () => {
  it('reads Shanghai days, ignores impossible dates and swaps a reversed range', () => {
    expect(realDayStart('2026-03-01')).toBe(Date.UTC(2026, 1, 28, 16));
    expect(realDayStart('2026-02-30')).toBe(0);
    expect(realDayStart('2026-3-1')).toBe(0);
    expect(billDateFilter('2026-03-05', '2026-03-01')).toEqual({
      fromDay: '2026-03-01',
      toDay: '2026-03-05',
      from: Date.UTC(2026, 1, 28, 16),
      to: Date.UTC(2026, 2, 5, 16),
    });
    expect(billDateFilter('x', null)).toEqual({ fromDay: '', toDay: '', from: 0, to: 0 });
  });

  it('accepts only whole order numbers', () => {
    expect(normalizeOrderNo(' d20260301120000ABCDEF0123456789 ')).toBe('D20260301120000ABCDEF0123456789');
    expect(normalizeOrderNo('D2026')).toBe('');
  });
});

describe('buy form default billing method', () => {
  it('starts on 1 whenever the product sells it, whatever the catalogue order', () => {
    expect(defaultBillingMethod([{ billingMethod: 2 }, { billingMethod: 1 }])).toBe(1);
    expect(defaultBillingMethod([{ billingMethod: 2 }])).toBe(2);
    expect(defaultBillingMethod([])).toBe(1);
  });
});
