import { describe, expect, it } from 'vitest';
import { likePattern } from '../../../src/server/db/help';
import { normalizeKeyword, pageWindow, parseHelpSlug, visibleCategories } from '../../../src/server/domain/help';
import { helpArticles, helpCategories, newsArticles } from '../../../src/server/seed/content/help';

describe('parseHelpSlug', () => {
  it('reads url slugs and detail ids', () => {
    expect(parseHelpSlug('getting-started.html')).toEqual({ kind: 'url', url: 'getting-started' });
    expect(parseHelpSlug('detail_105.html')).toEqual({ kind: 'id', id: 105 });
    expect(parseHelpSlug('detail%5F105.html')).toEqual({ kind: 'id', id: 105 });
  });

  it('refuses anything else', () => {
    for (const s of [
      'getting-started',
      'Getting.html',
      '.html',
      'detail_0.html',
      'detail_x.html',
      'a/b.html',
      '%E0.html',
      `${'a'.repeat(81)}.html`,
      '-x.html',
    ]) {
      expect(parseHelpSlug(s)).toBeNull();
    }
  });
});

describe('visibleCategories', () => {
  const all = helpCategories.map((c) => ({
    ...c,
    articleCount: helpArticles.filter((a) => a.categoryId === c.id).length,
  }));

  it('keeps tutorial categories having articles, first 4 by sort', () => {
    const tutorials = visibleCategories(all, 0);
    expect(tutorials.map((c) => c.url)).toEqual([
      'getting-started',
      'api-extraction',
      'whitelist-and-auth',
      'code-examples',
    ]);
    expect(tutorials.some((c) => c.url === 'video-tutorials')).toBe(false); // sort 3 but empty
  });

  it('filters product categories and honours the limit', () => {
    expect(visibleCategories(all, 2).map((c) => c.url)).toEqual(['products', 'billing', 'account']);
    expect(visibleCategories(all, null, 100)).toHaveLength(8);
  });
});

describe('keywords and paging', () => {
  it('normalises keywords', () => {
    expect(normalizeKeyword('  白名单 \n 添加 ')).toBe('白名单 添加');
    expect(normalizeKeyword('   ')).toBeNull();
    expect(normalizeKeyword('x'.repeat(80))).toHaveLength(50);
  });

  it('escapes LIKE wildcards', () => {
    expect(likePattern('100%_a\\')).toBe('%100\\%\\_a\\\\%');
  });

  it('bounds page windows', () => {
    expect(pageWindow(3, 6)).toEqual({ limit: 6, offset: 12 });
    expect(pageWindow(0, 500)).toEqual({ limit: 50, offset: 0 });
  });
});

describe('seed content invariants', () => {
  it('uses unique, valid slugs across categories, articles and news', () => {
    const slugs = [
      ...helpCategories.map((c) => c.url),
      ...helpArticles.map((a) => a.url),
      ...newsArticles.map((n) => n.url),
    ];
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const s of slugs) expect(parseHelpSlug(`${s}.html`)).toEqual({ kind: 'url', url: s });
  });
});

import { discountTag, overviewMaxima, startingPrices } from '../../../src/lib/meal-tags';

describe('meal tags', () => {
  it('follows the seed tag rules', () => {
    expect(discountTag({ discount: 15, send: 20 })).toBe('折扣15%');
    expect(discountTag({ discount: 0, send: 20 })).toBe('赠量20%');
    expect(discountTag({})).toBeNull();
    expect(discountTag({ overseas: true })).toBe('超低折扣');
  });

  it('reads overview maxima and prices defensively', () => {
    expect(overviewMaxima({ meaDiscountMax: { 10: 15 }, mealSendMax: { 40: 10 } })['10']).toEqual({
      discount: 15,
      send: null,
    });
    expect(overviewMaxima(false)).toEqual({});
    expect(startingPrices({ mealMinPrice: { 10: 990, 40: 0, 30: 'x', 50: 19900 } })).toEqual({ 10: 990, 50: 19900 });
    expect(startingPrices({ meaDiscountMax: {} })).toEqual({});
    expect(startingPrices(null)).toEqual({});
  });
});
