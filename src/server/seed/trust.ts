// Demo data of the trust and growth features (idempotent, stable ids): the welfare trial meal, a red-packet launch
// with a budget, notices for the unread badge, promotion material and a demo seller.

import { storedHtml } from '../domain/html-sanitizer';
import { DAY_MS } from '../../lib/time';
import { insert, rawSql } from './sql';

/** Seeded rows are refreshed in place: every column but the id is set from the seed. */
const refresh = { onConflict: { columns: ['id'], update: 'rest' } } as const;

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
    ...insert(
      'welfare_meals',
      [
        {
          id: TRUST_DEMO.welfareMealId,
          name: '新用户免费试用 · 短效动态IP 1000个',
          product_type: 10,
          billing_method: 1,
          ip_duration_minutes: 5,
          ip_count: 1000,
          valid_days: 3,
          enabled: true,
        },
      ],
      refresh,
    ),
    // The budget and window are reset on every seed; `received` is left alone so re-seeding keeps the count true.
    ...insert(
      'red_launches',
      [
        {
          id: TRUST_DEMO.redLaunchId,
          title: '新人红包',
          description: '实名认证用户专享：500个短效动态IP',
          product_type: 10,
          ip_duration_minutes: 3,
          ip_count: 500,
          valid_days: 7,
          budget: 200,
          received: 0,
          starts_at: now - DAY_MS,
          ends_at: now + 60 * DAY_MS,
          enabled: true,
        },
      ],
      {
        onConflict: {
          columns: ['id'],
          update: ['title', 'description', 'starts_at', 'ends_at', 'enabled'],
          set: { budget: rawSql`max(excluded.budget, red_launches.received)` },
        },
      },
    ),
    ...insert(
      'home_notices',
      [
        {
          id: TRUST_DEMO.noticeIds[0],
          title: '实名认证福利：认证即送1000个短效IP',
          content_html: storedHtml(
            '<p>根据国家相关规定，使用代理服务前需完成<strong>实名认证</strong>。</p><p>完成个人或企业认证后，可在“实名认证”页面领取免费试用套餐（每个实名身份限一次）。</p>',
          ).html,
          starts_at: Date.UTC(2025, 11, 1),
          ends_at: Date.UTC(2027, 11, 31),
          enabled: true,
          created_at: now,
        },
        {
          id: TRUST_DEMO.noticeIds[1],
          title: '推广返利计划上线',
          content_html: storedHtml(
            '<p>邀请好友注册并购买，首单最高可得<strong>20%</strong>佣金，后续订单10%，佣金满50元即可申请提现。</p><ul><li>邀请关系30天内有效</li><li>退款订单的佣金将被冲销</li></ul>',
          ).html,
          starts_at: Date.UTC(2025, 11, 15),
          ends_at: Date.UTC(2027, 11, 31),
          enabled: true,
          created_at: now,
        },
      ],
      refresh,
    ),
    ...insert(
      'promotion_materials',
      [
        {
          id: 1,
          kind: 'text',
          title: '通用推荐语',
          content: '我在用云枢代理，高匿稳定的企业级代理IP，{cities}个城市节点。通过我的链接注册立享新人福利：{link}',
          sort: 1,
          enabled: true,
        },
        {
          id: 2,
          kind: 'text',
          title: '数据采集场景',
          content: '做数据采集需要稳定代理？云枢代理IP可用率{availability}，按量、包天灵活计费，点此注册：{link}',
          sort: 2,
          enabled: true,
        },
      ],
      refresh,
    ),
    ...insert(
      'sellers',
      [{ id: 1, code: TRUST_DEMO.sellerCode, name: '王经理', phone: '13600136000', enabled: true }],
      refresh,
    ),
  ];
  return rows.join('\n');
}
