// Demo data for the operator console (development only, idempotent; docs/decisions/165): customers in every state
// (company approved, company review pending with a licence image, suspended, promoters and invitees, failed and pending
// face verifications), their orders over the last two weeks (paid, refunded, unpaid at the provider, a payment flagged
// refund_needed, closed) with payments and coupons, packages, extraction logs for the charts, commission entries and
// withdrawals in each state, red packets received, a second seller, consultations, operator redirects, one operator
// per role with audit rows, and a retention run. With `demoPool` also node health (some exits down, one node silent).
// The catalogue import never reads this file: a production deployment gets none of it.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/time';
import { hashPassword } from '../crypto';
import { recountIssuedCoupons } from './commerce';
import { insert, lookup, notExists, type Row, rawSql, update } from './sql';
import { ordersSql, promotionSql } from './console-orders';
import { auditSql, trustSql, usageSql } from './console-people';
import { CONSOLE_DEMO_OPERATORS } from './console-shared';

export { CONSOLE_DEMO_OPERATORS, DEMO_LICENCE_KEYS } from './console-shared';

/** Password of every demo customer below (like the other demo accounts) and of the demo operators. */
export const CONSOLE_DEMO_PASSWORD = 'demo1234';
export const CONSOLE_DEMO_OPERATOR_PASSWORD = 'demo-operator-1234';

interface DemoCustomer {
  phone: string;
  daysAgo: number;
  identity: boolean;
  company?: number;
  status?: number;
  seller?: string;
}

/** The console's demo customers (phones outside the ranges the browser journeys register). */
export const CONSOLE_DEMO_CUSTOMERS: DemoCustomer[] = [
  { phone: '13500135001', daysAgo: 28, identity: true, company: 1, seller: 'seller02' },
  { phone: '13500135002', daysAgo: 12, identity: true, company: 4, seller: 'seller02' },
  { phone: '13500135003', daysAgo: 20, identity: true, company: 5, status: 2 },
  { phone: '13500135004', daysAgo: 26, identity: true, seller: 'seller01' },
  { phone: '13500135005', daysAgo: 15, identity: true },
  { phone: '13500135006', daysAgo: 9, identity: true, seller: 'seller02' },
  { phone: '13500135007', daysAgo: 4, identity: false },
  { phone: '13500135008', daysAgo: 1, identity: false },
  { phone: '13500135009', daysAgo: 0, identity: false },
];

function operatorsSql(now: number, hash: string): string[] {
  return insert(
    'operators',
    CONSOLE_DEMO_OPERATORS.map(
      (o, i): Row<'operators'> => ({
        username: o.username,
        display_name: o.name,
        role: o.role,
        status: 1,
        password_hash: hash,
        created_at: now - (30 - i) * DAY_MS,
        updated_at: now - (30 - i) * DAY_MS,
      }),
    ),
    { onConflict: { columns: ['username'], doNothing: true } },
  );
}
function siteSql(now: number): string[] {
  const consults = [
    [
      '杭州云采数据科技有限公司',
      '陈先生',
      '13500135001',
      'chen@example.com',
      '数据采集',
      '100万IP/月',
      '需要华东地区的长效IP，能否提供专线？',
      0,
      1,
    ],
    ['上海某跨境电商', '李女士', '13600136111', '', '跨境电商', '10万IP/月', '多店铺管理，需要固定IP', 0, 0],
    ['成都游戏工作室', '张先生', '13600136222', 'zhang@example.net', '游戏', '1万IP/月', '', 1, 3],
    ['广州市场调研公司', '刘经理', '13600136333', '', '市场调研', '50万IP/月', '已电话沟通，报价已发送', 2, 8],
  ] as const;
  const once = { onConflict: { columns: ['id'], doNothing: true } } as const;
  return [
    ...insert(
      'consult_requests',
      consults.map(
        ([company, contact, phone, email, scenario, volume, message, state, daysAgo], i): Row<'consult_requests'> => ({
          id: 9001 + i,
          company,
          contact_name: contact,
          phone,
          email,
          scenario,
          monthly_volume: volume,
          message,
          user_id: null,
          client_ip: '198.51.100.30',
          state,
          created_at: now - daysAgo * DAY_MS - HOUR_MS,
        }),
      ),
      once,
    ),
    ...insert(
      'path_redirects',
      [
        { from_path: '/activity/double11', to_path: '/rebate', status: 302, updated_at: now - 4 * DAY_MS },
        { from_path: '/price', to_path: '/getProxy', status: 301, updated_at: now - 9 * DAY_MS },
      ],
      { onConflict: { columns: ['from_path'], doNothing: true } },
    ),
    ...insert(
      'promotion_materials',
      [
        { id: 3, kind: 'image', title: '返利活动海报', content: '/images/banner-rebate.svg', sort: 3, enabled: true },
        {
          id: 4,
          kind: 'text',
          title: '旧版推荐语',
          content: '注册云枢代理领新人福利：{link}',
          sort: 4,
          enabled: false,
        },
      ],
      once,
    ),
    ...insert(
      'retention_runs',
      [
        {
          started_at: now - 20 * HOUR_MS,
          finished_at: now - 20 * HOUR_MS + 4200,
          retention_days: 180,
          rows_removed: 1287,
          detail: '{"extract_logs":1024,"ip_assignments":240,"sms_codes":23}',
        },
      ],
      { select: { where: notExists('retention_runs') } },
    ),
  ];
}
/** Node health for the demo pool: some short-lived exits of node 102 down, node 102 silent for two hours. */
function nodeHealthSql(now: number, demoPool: boolean): string[] {
  const rows = insert(
    'proxy_nodes',
    [
      {
        id: 104,
        name: 'retired-node-sh',
        secret: 'retired-node-secret-not-in-use-000000',
        status: 0,
        last_seen_at: now - 12 * DAY_MS,
        created_at: now - 40 * DAY_MS,
      },
    ],
    { onConflict: { columns: ['id'], doNothing: true } },
  );
  if (demoPool) {
    rows.push(
      update('proxy_nodes', { last_seen_at: now - 3 * MINUTE_MS }, { id: [101, 103] }),
      update('proxy_nodes', { last_seen_at: now - 2 * HOUR_MS }, { id: 102 }),
      update('proxy_ips', { healthy: false }, [{ node_id: 102, pool: 10 }, rawSql`id % 10 = 0`]),
    );
  }
  return rows;
}
/** All console demo data as SQL (runs after the other demo data: it uses the demo catalogue, launch and seller). */
export async function demoConsoleSql(now: number, opts: { demoPool: boolean }): Promise<string> {
  const customerHash = await hashPassword(CONSOLE_DEMO_PASSWORD);
  const operatorHash = await hashPassword(CONSOLE_DEMO_OPERATOR_PASSWORD);
  return [
    ...insert('sellers', [{ id: 2, code: 'seller02', name: '李经理', phone: '13600136001', enabled: true }], {
      onConflict: { columns: ['id'], doNothing: true },
    }),
    ...insert(
      'users',
      CONSOLE_DEMO_CUSTOMERS.map((c): Row<'users'> => {
        const at = now - c.daysAgo * DAY_MS - 3 * HOUR_MS;
        return {
          phone: c.phone,
          password_hash: customerHash,
          status: c.status ?? 1,
          is_identity_auth: c.identity,
          company_auth_state: c.company ?? 0,
          created_at: at,
          updated_at: at,
          seller_id: c.seller ? lookup('sellers', 'id', { code: c.seller }) : null,
        };
      }),
      { onConflict: { columns: ['phone'], doNothing: true } },
    ),
    ...operatorsSql(now, operatorHash),
    ...ordersSql(now),
    ...promotionSql(now),
    ...trustSql(now),
    ...usageSql(now),
    ...siteSql(now),
    ...nodeHealthSql(now, opts.demoPool),
    ...auditSql(now),
    recountIssuedCoupons(),
  ].join('\n');
}
