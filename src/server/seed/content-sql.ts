// The public site's demo content as idempotent SQL with stable ids: help categories, articles and news (from
// content/help.ts), friend links, the home notice, marketing images, settings and region coverage. Re-running the
// seed refreshes these rows in place (operator edits to seeded ids are overwritten; new ids are untouched). HTML is
// stored sanitised (docs/decisions/096).

import { storedHtml } from '../domain/html-sanitizer';
import { helpArticles, helpCategories, newsArticles } from './content/help';
import { regionSeeds } from './content/regions';
import { insert, type Row } from './sql';
import { ARTICLE_STATE } from '../../lib/article-states';

/** Every seeded content row is refreshed in place: its columns but the key are set from the seed. */
const refresh = { onConflict: { columns: ['id'], update: 'rest' } } as const;

const FRIEND_LINKS = [
  { id: 1, name: '云枢海外动态代理', url: 'https://global.example-proxy.com', target: '_blank', noFollow: false },
  { id: 2, name: '云枢海外静态代理', url: 'https://static.example-proxy.com', target: '_blank', noFollow: false },
  { id: 3, name: '开发者社区', url: 'https://dev.example.org', target: '_blank', noFollow: true },
  { id: 4, name: '数据采集技术论坛', url: 'https://crawler.example.net', target: '_blank', noFollow: true },
  { id: 5, name: '跨境电商导航', url: 'https://ecommerce.example.com', target: '_blank', noFollow: true },
  { id: 6, name: '网络安全资讯', url: 'https://security.example.org', target: '_blank', noFollow: true },
];

const NOTICE = {
  id: 1,
  title: '关于加强实名认证与合规使用的公告',
  content: `<p>根据《中华人民共和国网络安全法》等法律法规的要求，自即日起所有账号须<strong>完成实名认证</strong>后方可购买和使用代理服务。未认证账号可继续浏览网站，认证步骤见 <a href="/helpDetails/register-and-verify.html">注册账号与完成实名认证</a>。</p>
<p>严禁将代理服务用于任何违法违规用途，平台依法留存使用日志不少于6个月。感谢您的理解与支持！</p>`,
  startsAt: Date.UTC(2026, 0, 1),
  endsAt: Date.UTC(2027, 11, 31),
};

const MARKETING = [
  {
    id: 1,
    slot: 'centerImg',
    img: '/images/banner-rebate.svg',
    isClick: true,
    clickUrl: '/rebate',
    inOrOut: 1,
    alt: '邀请好友注册购买，最高可得20%返佣',
  },
  {
    id: 2,
    slot: 'bottomBtn2',
    img: '/images/banner-firms.svg',
    isClick: true,
    clickUrl: '/firmsServer',
    inOrOut: 1,
    alt: '企业定制方案，专属顾问一对一服务',
  },
];

/** All public-site demo content as SQL statements. */
export function demoContentSql(now: number): string {
  return demoContentStatements(now).join('\n');
}

/** The same content, one statement per entry (tests run them as a D1 batch). */
export function demoContentStatements(now: number): string[] {
  return [
    ...insert(
      'help_categories',
      helpCategories.map(
        (c): Row<'help_categories'> => ({
          id: c.id,
          top_category: c.topCategory,
          name: c.name,
          description: c.desc,
          url: c.url,
          sort: c.sort,
          created_at: now,
          updated_at: now,
        }),
      ),
      refresh,
    ),
    ...insert(
      'articles',
      helpArticles.map(
        (a): Row<'articles'> => ({
          id: a.id,
          kind: 'help',
          category_id: a.categoryId,
          url: a.url,
          title: a.title,
          summary: a.summary,
          keywords: a.keywords.join(','),
          body_html: storedHtml(a.bodyHtml).html,
          body_text: storedHtml(a.bodyHtml).text,
          is_hot: a.isHot,
          show_on_buy: a.showOnBuy,
          views: a.views,
          state: ARTICLE_STATE.published,
          published_at: a.publishedAt,
          updated_at: a.publishedAt,
        }),
      ),
      refresh,
    ),
    ...insert(
      'articles',
      newsArticles.map(
        (n): Row<'articles'> => ({
          id: n.id,
          kind: 'news',
          category_id: null,
          url: n.url,
          title: n.title,
          summary: n.summary,
          keywords: '',
          body_html: storedHtml(n.bodyHtml).html,
          body_text: storedHtml(n.bodyHtml).text,
          is_hot: false,
          show_on_buy: false,
          views: 0,
          state: ARTICLE_STATE.published,
          published_at: n.publishedAt,
          updated_at: n.publishedAt,
        }),
      ),
      refresh,
    ),
    ...insert(
      'friend_links',
      FRIEND_LINKS.map(
        (l, i): Row<'friend_links'> => ({
          id: l.id,
          link_name: l.name,
          link_url: l.url,
          link_target: l.target,
          no_follow: l.noFollow,
          sort: i + 1,
          enabled: true,
        }),
      ),
      refresh,
    ),
    ...insert(
      'home_notices',
      [
        {
          id: NOTICE.id,
          title: NOTICE.title,
          content_html: storedHtml(NOTICE.content).html,
          starts_at: NOTICE.startsAt,
          ends_at: NOTICE.endsAt,
          enabled: true,
          created_at: now,
        },
      ],
      refresh,
    ),
    ...insert(
      'marketing_images',
      MARKETING.map(
        (m): Row<'marketing_images'> => ({
          id: m.id,
          slot: m.slot,
          img: m.img,
          is_click: m.isClick,
          click_url: m.clickUrl,
          in_or_out: m.inOrOut,
          alt: m.alt,
          audience: 'all',
          starts_at: NOTICE.startsAt,
          ends_at: NOTICE.endsAt,
          enabled: true,
        }),
      ),
      refresh,
    ),
    ...insert('site_settings', [{ key: 'online_chat', value: '1', updated_at: now }], {
      onConflict: { columns: ['key'], update: 'rest' },
    }),
    ...insert(
      'region_coverage',
      regionSeeds().map(
        (r): Row<'region_coverage'> => ({
          id: r.id,
          province: r.province,
          city: r.city,
          carriers: r.carriers,
          node_count: r.nodeCount,
          availability_bp: r.availabilityBp,
          hot_rank: r.hotRank,
          dynamic_ok: r.dynamicOk,
          static_ok: r.staticOk,
        }),
      ),
      refresh,
    ),
  ];
}
