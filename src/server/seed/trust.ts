// Demo data of the trust and growth features (idempotent, stable ids): the welfare trial meal, a red-packet launch
// with a budget, notices for the unread badge, promotion material and a demo seller.

import { storedHtml } from '../domain/html-sanitizer';
import { DAY_MS } from '../../lib/time';

const q = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);

function upsert(table: string, row: Record<string, string | number>, key = 'id'): string {
  const cols = Object.keys(row);
  const sets = cols.filter((c) => c !== key).map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => q(row[c] as string | number)).join(', ')}) ON CONFLICT(${key}) DO UPDATE SET ${sets.join(', ')};`;
}

/** Stable ids of the demo rows (tests refer to them). */
export const TRUST_DEMO = {
  welfareMealId: 1,
  redLaunchId: 1,
  sellerCode: 'seller01',
  noticeIds: [9101, 9102],
} as const;

/** SQL for the trust and growth demo data. */
export function demoTrustSql(now: number): string {
  const rows = [
    upsert('welfare_meals', {
      id: TRUST_DEMO.welfareMealId,
      name: '新用户免费试用 · 短效动态IP 1000个',
      product_type: 10,
      billing_method: 1,
      ip_duration_minutes: 5,
      ip_count: 1000,
      valid_days: 3,
      enabled: 1,
    }),
    // The budget and window are reset on every seed; `received` is left alone so re-seeding keeps the count true.
    `INSERT INTO red_launches (id, title, description, product_type, ip_duration_minutes, ip_count, valid_days, budget, received, starts_at, ends_at, enabled)
     VALUES (${TRUST_DEMO.redLaunchId}, '新人红包', '实名认证用户专享：500个短效动态IP', 10, 3, 500, 7, 200, 0, ${now - DAY_MS}, ${now + 60 * DAY_MS}, 1)
     ON CONFLICT(id) DO UPDATE SET title = excluded.title, description = excluded.description, budget = max(excluded.budget, red_launches.received), starts_at = excluded.starts_at, ends_at = excluded.ends_at, enabled = 1;`,
    upsert('home_notices', {
      id: TRUST_DEMO.noticeIds[0],
      title: '实名认证福利：认证即送1000个短效IP',
      content_html: storedHtml(
        '<p>根据国家相关规定，使用代理服务前需完成<strong>实名认证</strong>。</p><p>完成个人或企业认证后，可在“实名认证”页面领取免费试用套餐（每个实名身份限一次）。</p>',
      ).html,
      starts_at: Date.UTC(2025, 11, 1),
      ends_at: Date.UTC(2027, 11, 31),
      enabled: 1,
      created_at: now,
    }),
    upsert('home_notices', {
      id: TRUST_DEMO.noticeIds[1],
      title: '推广返利计划上线',
      content_html: storedHtml(
        '<p>邀请好友注册并购买，首单最高可得<strong>20%</strong>佣金，后续订单10%，佣金满50元即可申请提现。</p><ul><li>邀请关系30天内有效</li><li>退款订单的佣金将被冲销</li></ul>',
      ).html,
      starts_at: Date.UTC(2025, 11, 15),
      ends_at: Date.UTC(2027, 11, 31),
      enabled: 1,
      created_at: now,
    }),
    upsert('promotion_materials', {
      id: 1,
      kind: 'text',
      title: '通用推荐语',
      content: '我在用云枢代理，高匿稳定的企业级代理IP，{cities}个城市节点。通过我的链接注册立享新人福利：{link}',
      sort: 1,
      enabled: 1,
    }),
    upsert('promotion_materials', {
      id: 2,
      kind: 'text',
      title: '数据采集场景',
      content: '做数据采集需要稳定代理？云枢代理IP可用率{availability}，按量、包天灵活计费，点此注册：{link}',
      sort: 2,
      enabled: 1,
    }),
    upsert('sellers', { id: 1, code: TRUST_DEMO.sellerCode, name: '王经理', phone: '13600136000', enabled: 1 }),
  ];
  return rows.join('\n');
}
