// Demo content for the help centre (帮助中心) and the site news list, used by the database seed and the catalogue
// import. The content is data in ./help/*.json (categories, articles, news); this module types it.
// Article bodies are HTML limited to h2 h3 p ul ol li strong em code pre a(href)
// table thead tbody tr th td blockquote br; code samples are HTML-escaped inside <pre><code class="language-…">.
// Examples use documentation addresses (203.0.113.0/24, 198.51.100.0/24) and the host www.example-proxy.cn.
// Category 9 (视频教程) intentionally has no articles, to exercise the "keep categories having articles" rule.
import articles from './help/articles.json';
import categories from './help/categories.json';
import news from './help/news.json';

export interface HelpCategorySeed {
  id: number;
  /** 0 使用教程, 2 产品与功能 */
  topCategory: 0 | 2;
  name: string;
  desc: string;
  /** ascii slug, e.g. 'getting-started' */
  url: string;
  sort: number;
}

export interface HelpArticleSeed {
  id: number;
  categoryId: number;
  /** ascii slug, unique across articles and categories */
  url: string;
  title: string;
  summary: string;
  keywords: string[];
  bodyHtml: string;
  isHot: boolean;
  /** shown on the buy page */
  showOnBuy: boolean;
  /** epoch ms */
  publishedAt: number;
  views: number;
}

export interface NewsArticleSeed {
  id: number;
  url: string;
  title: string;
  summary: string;
  bodyHtml: string;
  /** epoch ms */
  publishedAt: number;
}

export const helpCategories = categories as HelpCategorySeed[];
export const helpArticles = articles as HelpArticleSeed[];
export const newsArticles: NewsArticleSeed[] = news;
