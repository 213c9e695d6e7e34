// The public site's demo content as idempotent SQL with stable ids: help categories, articles and news (from
// content/help.ts), friend links, the home notice, marketing images, settings and region coverage. Re-running the
// seed refreshes these rows in place (operator edits to seeded ids are overwritten; new ids are untouched). HTML is
// stored sanitised (docs/decisions/096).

import { storedHtml } from '../domain/html-sanitizer';
import { helpArticles, helpCategories, newsArticles } from './content/help';
import { regionSeeds } from './content/regions';

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const b = (v: boolean) => (v ? 1 : 0);

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

function upsert(table: string, cols: string[], values: (string | number | null)[], key = 'id'): string {
  const lit = values.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : q(v)));
  const updates = cols.filter((c) => c !== key).map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${lit.join(', ')}) ON CONFLICT(${key}) DO UPDATE SET ${updates.join(', ')};`;
}

/** All public-site demo content as SQL statements. */
export function demoContentSql(now: number): string {
  return demoContentStatements(now).join('\n');
}

/** The same content, one statement per entry (tests run them as a D1 batch). */
export function demoContentStatements(now: number): string[] {
  const rows: string[] = [];
  for (const c of helpCategories) {
    rows.push(
      upsert(
        'help_categories',
        ['id', 'top_category', 'name', 'description', 'url', 'sort', 'created_at', 'updated_at'],
        [c.id, c.topCategory, c.name, c.desc, c.url, c.sort, now, now],
      ),
    );
  }
  const articleCols = [
    'id',
    'kind',
    'category_id',
    'url',
    'title',
    'summary',
    'keywords',
    'body_html',
    'body_text',
    'is_hot',
    'show_on_buy',
    'views',
    'state',
    'published_at',
    'updated_at',
  ];
  for (const a of helpArticles) {
    rows.push(
      upsert('articles', articleCols, [
        a.id,
        'help',
        a.categoryId,
        a.url,
        a.title,
        a.summary,
        a.keywords.join(','),
        storedHtml(a.bodyHtml).html,
        storedHtml(a.bodyHtml).text,
        b(a.isHot),
        b(a.showOnBuy),
        a.views,
        1,
        a.publishedAt,
        a.publishedAt,
      ]),
    );
  }
  for (const n of newsArticles) {
    rows.push(
      upsert('articles', articleCols, [
        n.id,
        'news',
        null,
        n.url,
        n.title,
        n.summary,
        '',
        storedHtml(n.bodyHtml).html,
        storedHtml(n.bodyHtml).text,
        0,
        0,
        0,
        1,
        n.publishedAt,
        n.publishedAt,
      ]),
    );
  }
  FRIEND_LINKS.forEach((l, i) => {
    rows.push(
      upsert(
        'friend_links',
        ['id', 'link_name', 'link_url', 'link_target', 'no_follow', 'sort', 'enabled'],
        [l.id, l.name, l.url, l.target, b(l.noFollow), i + 1, 1],
      ),
    );
  });
  rows.push(
    upsert(
      'home_notices',
      ['id', 'title', 'content_html', 'starts_at', 'ends_at', 'enabled', 'created_at'],
      [NOTICE.id, NOTICE.title, storedHtml(NOTICE.content).html, NOTICE.startsAt, NOTICE.endsAt, 1, now],
    ),
  );
  for (const m of MARKETING) {
    rows.push(
      upsert(
        'marketing_images',
        [
          'id',
          'slot',
          'img',
          'is_click',
          'click_url',
          'in_or_out',
          'alt',
          'audience',
          'starts_at',
          'ends_at',
          'enabled',
        ],
        [m.id, m.slot, m.img, b(m.isClick), m.clickUrl, m.inOrOut, m.alt, 'all', NOTICE.startsAt, NOTICE.endsAt, 1],
      ),
    );
  }
  rows.push(upsert('site_settings', ['key', 'value', 'updated_at'], ['online_chat', '1', now], 'key'));
  for (const r of regionSeeds()) {
    rows.push(
      upsert(
        'region_coverage',
        ['id', 'province', 'city', 'carriers', 'node_count', 'availability_bp', 'hot_rank', 'dynamic_ok', 'static_ok'],
        [r.id, r.province, r.city, r.carriers, r.nodeCount, r.availabilityBp, r.hotRank, b(r.dynamicOk), b(r.staticOk)],
      ),
    );
  }
  return rows;
}
