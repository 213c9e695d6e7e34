// Help search on the FTS5 trigram index (docs/decisions/091): long Chinese and ASCII queries, 1-2 character words,
// ranking, escaped highlights, pages and an index that follows every write. Stored article HTML (decision 096).
import { beforeEach, describe, expect, it } from 'vitest';
import { ARTICLE_STATE, type ArticleState } from '../../src/lib/article-states';
import { sanitizeHtml } from '../../src/server/domain/html-sanitizer';
import { callApi } from '../helpers/api';
import {
  addHelpArticles,
  articleIndexSizes,
  changeArticle,
  deleteArticleRow,
  homeNoticeBodies,
  publishedHelpTexts,
  resetWithContent,
  seedDemoContent,
  storedArticles,
} from '../helpers/content';

beforeEach(resetWithContent);

const search = (keyword: string, extra: Record<string, unknown> = {}) =>
  callApi('HelpRenovation.GetArticleBykw', { keyword, ...extra });

const addArticle = (id: number, title: string, bodyText: string, state: ArticleState = ARTICLE_STATE.published) =>
  addHelpArticles([{ id, url: `t-${id}`, title, bodyText, state }]);

describe('HelpRenovation.GetArticleBykw', () => {
  it('answers long Chinese and ASCII queries (D1 refused LIKE patterns over 50 bytes)', async () => {
    // 17+ Chinese characters (over 50 bytes), taken from a seeded body.
    const results = await publishedHelpTexts();
    const source = results.find((r) => /[\u4e00-\u9fa5，、]{17,}/.test(r.bodyText));
    const phrase = /[\u4e00-\u9fa5，、]{17,}/.exec(source?.bodyText ?? '')?.[0] ?? '';
    expect(new TextEncoder().encode(phrase).length).toBeGreaterThan(50);
    const zh = await search(phrase);
    expect(zh.status).toBe(200);
    expect(zh.body.E).toBeUndefined();
    expect(zh.body.P?.list.map((h) => h.id)).toContain(source?.id);

    const ascii = await search('x'.repeat(49));
    expect(ascii.status).toBe(200);
    expect(ascii.body.P).toMatchObject({ total: 0, list: [] });
    const long50 = await search('how to configure the http proxy in python requests ok');
    expect(long50.status).toBe(200);
    expect(long50.body.E).toBeUndefined();
  });

  it('finds Chinese substrings, ranks title hits first and highlights matches escaped', async () => {
    await addArticle(9001, '正文里才有：某词', '这里提到了独一无二的测试短语一次');
    await addArticle(9002, '独一无二的测试短语 <b>标题</b>', '正文');
    const r = await search('无二的测试短语');
    expect(r.body.P?.total).toBe(2);
    expect(r.body.P?.list.map((h) => h.id)).toEqual([9002, 9001]);
    const [title, body] = r.body.P?.list ?? [];
    expect(title?.titleHtml).toBe('独一<mark>无二的测试短语</mark> &lt;b&gt;标题&lt;/b&gt;');
    expect(body?.snippetHtml).toContain('<mark>无二的测试短语</mark>');
    expect(body?.snippetHtml).not.toContain('<p>');
  });

  it('handles 1-2 character words by title, and them beside longer words anywhere', async () => {
    await addArticle(9003, 'IP 池说明', '长效静态代理的介绍');
    await addArticle(9004, '其他标题', '这里有 IP 也有长效静态代理');
    const short = await search('池');
    expect(short.body.P?.list.map((h) => h.id)).toEqual([9003]);
    expect(short.body.P?.list[0]?.titleHtml).toBe('IP <mark>池</mark>说明');
    const mixed = await search('ip 长效静态代理');
    expect(mixed.body.P?.list.map((h) => h.id).sort()).toEqual([9003, 9004]);
    const twoChars = await search('其他');
    expect(twoChars.body.P?.list.map((h) => h.id)).toEqual([9004]);
  });

  it('treats query syntax and wildcards literally', async () => {
    for (const kw of ['zz%_zz', '"AND" OR NOT', 'a* b*', 'title:x', "o'reilly", '(((']) {
      const r = await search(kw);
      expect(r.status, kw).toBe(200);
      expect(r.body.P?.total, kw).toBe(0);
    }
  });

  it('pages through results', async () => {
    for (let i = 0; i < 5; i++) await addArticle(9100 + i, `分页测试文章${i}`, '分页内容');
    const first = await search('分页测试', { pageSize: 2 });
    expect(first.body.P?.total).toBe(5);
    expect(first.body.P?.list).toHaveLength(2);
    const third = await search('分页测试', { pageSize: 2, page: 3 });
    expect(third.body.P?.list).toHaveLength(1);
    const ids = new Set(
      (await Promise.all([1, 2, 3].map((page) => search('分页测试', { pageSize: 2, page })))).flatMap(
        (r) => r.body.P?.list.map((h) => h.id) ?? [],
      ),
    );
    expect(ids.size).toBe(5);
  });

  it('keeps the index in step with inserts, updates, hiding and deletes', async () => {
    await addArticle(9200, '同步检查原标题', '内容');
    expect((await search('同步检查原标题')).body.P?.total).toBe(1);
    await changeArticle(9200, { title: '同步检查新标题' });
    expect((await search('同步检查原标题')).body.P?.total).toBe(0);
    expect((await search('同步检查新标题')).body.P?.total).toBe(1);
    await changeArticle(9200, { bodyText: '改写后的正文片段' });
    expect((await search('改写后的正文')).body.P?.total).toBe(1);
    await changeArticle(9200, { state: ARTICLE_STATE.draft });
    expect((await search('同步检查新标题')).body.P?.total).toBe(0);
    await changeArticle(9200, { state: ARTICLE_STATE.published });
    expect((await search('同步检查新标题')).body.P?.total).toBe(1);
    await deleteArticleRow(9200);
    expect((await search('同步检查新标题')).body.P?.total).toBe(0);
    // Re-running the seed (upserts) leaves one index row per article.
    await seedDemoContent();
    const counts = await articleIndexSizes();
    expect(counts.indexed).toBe(counts.articles);
  });
});

describe('stored article and notice HTML', () => {
  it('stores what the seed writes sanitised, with its plain text for the index', async () => {
    const results = await storedArticles();
    expect(results.length).toBeGreaterThan(30);
    for (const r of results) {
      expect(sanitizeHtml(r.bodyHtml)).toBe(r.bodyHtml);
      expect(r.bodyText).not.toMatch(/<[a-z]/);
    }
    for (const html of await homeNoticeBodies()) expect(sanitizeHtml(html)).toBe(html);
  });
});
