// Demo data for the operator console (development only, idempotent; docs/decisions/165): customers in every state
// (company approved, company review pending with a licence image, suspended, promoters and invitees, failed and pending
// face verifications), their orders over the last two weeks (paid, refunded, unpaid at the provider, a payment flagged
// refund_needed, closed) with payments and coupons, packages, extraction logs for the charts, commission entries and
// withdrawals in each state, red packets received, a second seller, consultations, operator redirects, one operator
// per role with audit rows, and a retention run. With `demoPool` also node health (some exits down, one node silent).
// The catalogue import never reads this file: a production deployment gets none of it.
import { DAY_MS, HOUR_MS, MINUTE_MS, shanghaiDay, shanghaiStamp } from '../../lib/time';
import { hashPassword } from '../crypto';
import { COMMISSION_RATES } from '../../lib/commission-rules';

const q = (v: string | number | null) =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
const user = (phone: string) => `(SELECT id FROM users WHERE phone = ${q(phone)})`;
const op = (username: string) => `(SELECT id FROM operators WHERE username = ${q(username)})`;

/** Password of every demo customer below (like the other demo accounts) and of the demo operators. */
export const CONSOLE_DEMO_PASSWORD = 'demo1234';
export const CONSOLE_DEMO_OPERATOR_PASSWORD = 'demo-operator-1234';

/** R2 keys of the demo licence images (scripts/seed.mjs puts scripts/lib/demo-licence.png under each). */
export const DEMO_LICENCE_KEYS = [
  'licences/demo/13500135001.png',
  'licences/demo/13500135002.png',
  'licences/demo/13500135003.png',
] as const;

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

/** The demo operators, one per role (TOTP is bound at the first login, as for any operator). */
export const CONSOLE_DEMO_OPERATORS = [
  { username: 'demo.admin', name: '演示管理员', role: 'admin' },
  { username: 'demo.finance', name: '财务小刘', role: 'finance' },
  { username: 'demo.support', name: '客服小王', role: 'support' },
  { username: 'demo.content', name: '运营小李', role: 'content' },
  { username: 'demo.ops', name: '运维老张', role: 'ops' },
] as const;

interface DemoOrder {
  seq: number;
  phone: string;
  daysAgo: number;
  mealId: number;
  title: string;
  type: number;
  billing: number;
  minutes: number;
  listFen: number;
  discountFen?: number;
  couponFen?: number;
  couponId?: number;
  /** paid, refunded, pending (unpaid, attempt pending at the provider), closed, closedPaid (refund_needed). */
  state: 'paid' | 'refunded' | 'pending' | 'closed' | 'closedPaid';
  size: number;
  days: number;
}

const ORDERS: DemoOrder[] = [
  {
    seq: 1,
    phone: '13500135001',
    daysAgo: 13,
    mealId: 101_010,
    title: '短效动态IP 按量 50000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 4750,
    state: 'paid',
    size: 50_000,
    days: 365,
  },
  {
    seq: 2,
    phone: '13500135001',
    daysAgo: 11,
    mealId: 402_000,
    title: '长效静态IP 包天 200个/天 · 1小时 · 1天',
    type: 40,
    billing: 2,
    minutes: 60,
    listFen: 1600,
    discountFen: 160,
    state: 'paid',
    size: 200,
    days: 1,
  },
  {
    seq: 3,
    phone: '13500135005',
    daysAgo: 10,
    mealId: 101_020,
    title: '短效动态IP 按量 200000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 18_000,
    discountFen: 2700,
    state: 'paid',
    size: 200_000,
    days: 365,
  },
  {
    seq: 4,
    phone: '13500135004',
    daysAgo: 9,
    mealId: 302_001,
    title: '固定IP · 30天',
    type: 30,
    billing: 2,
    minutes: 0,
    listFen: 6000,
    discountFen: 300,
    couponFen: 2000,
    couponId: 3,
    state: 'paid',
    size: 1,
    days: 30,
  },
  {
    seq: 5,
    phone: '13500135006',
    daysAgo: 8,
    mealId: 101_020,
    title: '短效动态IP 按量 200000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 18_000,
    discountFen: 2700,
    state: 'refunded',
    size: 200_000,
    days: 365,
  },
  {
    seq: 6,
    phone: '13500135005',
    daysAgo: 7,
    mealId: 502_001,
    title: '优质IP · 企业精选 · 90天',
    type: 50,
    billing: 2,
    minutes: 0,
    listFen: 42_000,
    state: 'paid',
    size: 1,
    days: 90,
  },
  {
    seq: 7,
    phone: '13500135001',
    daysAgo: 6,
    mealId: 102_012,
    title: '短效动态IP 包天 1000个/天 · 3分钟 · 30天',
    type: 10,
    billing: 2,
    minutes: 3,
    listFen: 3600,
    couponFen: 360,
    couponId: 2,
    state: 'paid',
    size: 1000,
    days: 30,
  },
  {
    seq: 8,
    phone: '13500135006',
    daysAgo: 5,
    mealId: 101_000,
    title: '短效动态IP 按量 10000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 1000,
    discountFen: 150,
    state: 'paid',
    size: 10_000,
    days: 365,
  },
  {
    seq: 9,
    phone: '13500135003',
    daysAgo: 4,
    mealId: 401_000,
    title: '长效静态IP 按量 1000个 · 1小时',
    type: 40,
    billing: 1,
    minutes: 60,
    listFen: 800,
    discountFen: 80,
    state: 'paid',
    size: 1000,
    days: 365,
  },
  {
    seq: 10,
    phone: '13500135006',
    daysAgo: 3,
    mealId: 302_000,
    title: '固定IP · 7天',
    type: 30,
    billing: 2,
    minutes: 0,
    listFen: 2000,
    discountFen: 100,
    state: 'closedPaid',
    size: 1,
    days: 7,
  },
  {
    seq: 11,
    phone: '13500135004',
    daysAgo: 2,
    mealId: 101_010,
    title: '短效动态IP 按量 50000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 4750,
    discountFen: 710,
    state: 'paid',
    size: 50_000,
    days: 365,
  },
  {
    seq: 12,
    phone: '13500135007',
    daysAgo: 2,
    mealId: 101_000,
    title: '短效动态IP 按量 10000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 1000,
    state: 'closed',
    size: 10_000,
    days: 365,
  },
  {
    seq: 13,
    phone: '13500135001',
    daysAgo: 1,
    mealId: 502_101,
    title: '优质IP · 海外精选 · 90天',
    type: 50,
    billing: 2,
    minutes: 0,
    listFen: 26_900,
    state: 'paid',
    size: 1,
    days: 90,
  },
  {
    seq: 14,
    phone: '13500135005',
    daysAgo: 0,
    mealId: 101_000,
    title: '短效动态IP 按量 10000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 1000,
    discountFen: 150,
    state: 'paid',
    size: 10_000,
    days: 365,
  },
  {
    seq: 16,
    phone: '13500135006',
    daysAgo: 4,
    mealId: 502_003,
    title: '优质IP · 企业精选 · 365天',
    type: 50,
    billing: 2,
    minutes: 0,
    listFen: 150_000,
    state: 'paid',
    size: 1,
    days: 365,
  },
  {
    seq: 17,
    phone: '13500135003',
    daysAgo: 12,
    mealId: 502_102,
    title: '优质IP · 海外精选 · 365天',
    type: 50,
    billing: 2,
    minutes: 0,
    listFen: 99_000,
    state: 'paid',
    size: 1,
    days: 365,
  },
  {
    seq: 15,
    phone: '13500135002',
    daysAgo: 0,
    mealId: 101_010,
    title: '短效动态IP 按量 50000个 · 3分钟',
    type: 10,
    billing: 1,
    minutes: 3,
    listFen: 4750,
    discountFen: 710,
    couponFen: 500,
    couponId: 1,
    state: 'pending',
    size: 50_000,
    days: 365,
  },
];

const suffix = (kind: string, seq: number) => `SEED${kind}${String(seq).padStart(11, '0')}`;
const payFen = (o: DemoOrder) => o.listFen - (o.discountFen ?? 0) - (o.couponFen ?? 0);

function orderSql(o: DemoOrder, now: number): string[] {
  const at = now - o.daysAgo * DAY_MS - (o.seq % 5) * HOUR_MS - 40 * MINUTE_MS;
  const orderNo = `D${shanghaiStamp(at)}${suffix('O', o.seq)}`;
  const tradeNo = `P${shanghaiStamp(at)}${suffix('P', o.seq)}`;
  const refundNo = `R${shanghaiStamp(at + DAY_MS)}${suffix('R', o.seq)}`;
  const pay = payFen(o);
  const paid = o.state === 'paid' || o.state === 'refunded';
  const orderState = { paid: 2, refunded: 4, pending: 1, closed: 3, closedPaid: 3 }[o.state];
  const payState = { paid: 'paid', refunded: 'paid', pending: 'pending', closed: 'closed', closedPaid: 'paid' }[
    o.state
  ];
  const guard = (table: string, col: string, tail: string) =>
    `NOT EXISTS (SELECT 1 FROM ${table} WHERE substr(${col}, 16) = ${q(tail)})`;
  const expires = o.state === 'pending' ? now + 2 * HOUR_MS : at + 30 * MINUTE_MS;
  const txn = paid || o.state === 'closedPaid' ? `42000${String(o.seq).padStart(5, '0')}2026${o.seq}` : null;
  const rows = [
    `INSERT INTO orders (order_no, user_id, kind, product_type, title, list_fen, discount_fen, credit_fen, coupon_fen, pay_fen, user_coupon_id, state, source_type, expires_at, paid_at, paid_out_trade_no, transaction_id, fulfilled_at, closed_at, created_at, refunded_at, out_refund_no)
     SELECT ${q(orderNo)}, ${user(o.phone)}, 1, ${o.type}, ${q(o.title)}, ${o.listFen}, ${o.discountFen ?? 0}, 0, ${o.couponFen ?? 0}, ${pay}, NULL, ${orderState}, 1, ${expires}, ${paid ? at + MINUTE_MS : 'NULL'}, ${paid ? q(tradeNo) : 'NULL'}, ${paid ? q(txn ?? '') : 'NULL'}, ${paid ? at + MINUTE_MS : 'NULL'}, ${o.state === 'closed' || o.state === 'closedPaid' ? at + 30 * MINUTE_MS : 'NULL'}, ${at}, ${o.state === 'refunded' ? at + DAY_MS : 'NULL'}, ${o.state === 'refunded' ? q(refundNo) : 'NULL'}
     WHERE ${guard('orders', 'order_no', suffix('O', o.seq))};`,
    `INSERT INTO order_items (order_no, seq, package_id, product_type, billing_method, ip_duration_minutes, name, meal_id, units, region_id, add_count, add_daily_limit, add_ip_count, add_days, list_fen, value_fen)
     SELECT order_no, 1, NULL, ${o.type}, ${o.billing}, ${o.minutes}, ${q(o.title)}, ${o.mealId}, 1, ${o.type === 30 || o.type === 50 ? 1 : 'NULL'}, ${o.billing === 1 && o.type !== 30 && o.type !== 50 ? o.size : 0}, ${o.billing === 2 && (o.type === 10 || o.type === 40) ? o.size : 0}, ${o.type === 30 || o.type === 50 ? 1 : 0}, ${o.days}, ${o.listFen}, ${pay}
     FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))} ON CONFLICT(order_no, seq) DO NOTHING;`,
    `INSERT INTO payments (out_trade_no, order_no, user_id, provider, amount_fen, state, code_url, expires_at, transaction_id, refund_needed, note, created_at, paid_at)
     SELECT ${q(tradeNo)}, order_no, user_id, 'wechat', ${pay}, ${q(payState)}, ${o.state === 'pending' ? q(`weixin://wxpay/bizpayurl?pr=demo${o.seq}`) : 'NULL'}, ${expires}, ${q(txn ?? '')}, ${o.state === 'closedPaid' ? 1 : 0}, ${q(o.state === 'closedPaid' ? '订单关闭后才收到支付成功通知，需退款' : '')}, ${at}, ${payState === 'paid' ? at + MINUTE_MS + (o.state === 'closedPaid' ? 35 * MINUTE_MS : 0) : 'NULL'}
     FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))} AND ${guard('payments', 'out_trade_no', suffix('P', o.seq))};`,
  ];
  if (o.state === 'refunded') {
    rows.push(
      `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, refund_id, operator_id, reason, note, created_at, updated_at)
       SELECT ${q(refundNo)}, order_no, paid_out_trade_no, user_id, ${pay}, ${pay}, 'SUCCESS', ${q(`50300${o.seq}2026demo`)}, ${op('demo.finance')}, '客户误购，按规则全额退款', '', ${at + DAY_MS}, ${at + DAY_MS}
       FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))} AND ${op('demo.finance')} IS NOT NULL AND ${guard('refunds', 'out_refund_no', suffix('R', o.seq))};`,
    );
  }
  if (paid) {
    const state = o.state === 'refunded' ? 5 : at + o.days * DAY_MS > now ? 1 : 2;
    const count = o.billing === 1 && (o.type === 10 || o.type === 40);
    rows.push(
      `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count, remaining_count, daily_limit, ip_count, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
       SELECT user_id, ${o.type}, ${o.billing}, ${q(o.title)}, ${o.minutes}, ${count ? o.size : 0}, ${count ? Math.round(o.size * 0.62) : 0}, ${!count && (o.type === 10 || o.type === 40) ? o.size : 0}, ${o.type === 30 || o.type === 50 ? 1 : 0}, ${at + MINUTE_MS}, ${at + o.days * DAY_MS}, ${state}, 'order', order_no, ${at + MINUTE_MS}, ${now}
       FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))} AND NOT EXISTS (SELECT 1 FROM proxy_packages p WHERE p.source = 'order' AND p.source_ref = orders.order_no);`,
    );
  }
  if (o.state === 'closedPaid') {
    // The local WeChat Pay simulator holds the paid transaction too, so the console's 退款 of this flagged attempt
    // (Admin.RefundPayment) can be tried end to end in development (mchid/appid of SIMULATOR_MERCHANT).
    rows.push(
      `INSERT INTO pay_simulator_transactions (out_trade_no, mchid, appid, description, amount_fen, notify_url, attach, time_expire_ms, trade_state, transaction_id, success_time_ms, created_at)
       SELECT out_trade_no, '1900000001', 'wxsimulator0000001', ${q(o.title)}, amount_fen, '', order_no, expires_at, 'SUCCESS', transaction_id, paid_at, created_at
       FROM payments WHERE substr(out_trade_no, 16) = ${q(suffix('P', o.seq))} ON CONFLICT(out_trade_no) DO NOTHING;`,
    );
  }
  if (o.couponId) {
    const state = o.state === 'pending' ? 2 : 3;
    rows.push(
      `INSERT INTO user_coupons (user_id, coupon_id, state, order_no, valid_from, expires_at, received_at, used_at)
       SELECT user_id, ${o.couponId}, ${state}, order_no, ${at - DAY_MS}, ${at + 29 * DAY_MS}, ${at - DAY_MS}, ${state === 3 ? at + MINUTE_MS : 'NULL'}
       FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))} AND NOT EXISTS (SELECT 1 FROM user_coupons c WHERE c.order_no = orders.order_no);`,
      `UPDATE orders SET user_coupon_id = (SELECT c.id FROM user_coupons c WHERE c.order_no = orders.order_no) WHERE substr(order_no, 16) = ${q(suffix('O', o.seq))};`,
    );
  }
  return rows;
}

/** Commission: 13500135004 invited 005 and 006; 13500135001 invited 007 (docs/decisions/035 rates: 20% first, 10%). */
function promotionSql(now: number): string[] {
  const rows: string[] = [];
  const invites = [
    ['13500135005', '13500135004', 15],
    ['13500135006', '13500135004', 9],
    ['13500135002', '13500135001', 12],
    ['13500135003', '13500135001', 20],
  ] as const;
  for (const [invitee, promoter, daysAgo] of invites) {
    rows.push(
      `INSERT INTO invitations (invitee_id, promoter_id, keyword, created_at) SELECT ${user(invitee)}, ${user(promoter)}, '', ${now - daysAgo * DAY_MS} WHERE ${user(invitee)} IS NOT NULL ON CONFLICT(invitee_id) DO NOTHING;`,
    );
  }
  rows.push(
    `INSERT INTO user_promotions (user_id, code, created_at) SELECT id, 'demo' || substr(phone, 8), ${now} FROM users WHERE phone IN ('13500135001', '13500135004') ON CONFLICT(user_id) DO NOTHING;`,
  );
  // Withdrawals of 13500135004: paid (3) and rejected (4) earlier, one requested (1) now; 13500135001: approved (2).
  const withdrawals = [
    { ref: 'WSEED000000000001', phone: '13500135004', amount: 0, state: 3, daysAgo: 6 },
    { ref: 'WSEED000000000002', phone: '13500135004', amount: 7585, state: 4, daysAgo: 3 },
    { ref: 'WSEED000000000003', phone: '13500135004', amount: 0, state: 1, daysAgo: 0 },
    { ref: 'WSEED000000000004', phone: '13500135001', amount: 0, state: 2, daysAgo: 1 },
  ];
  for (const w of withdrawals) {
    rows.push(
      `INSERT INTO withdrawals (ref, user_id, amount_fen, account_name, account_no, state, created_at, updated_at)
       SELECT ${q(w.ref)}, ${user(w.phone)}, ${w.amount || 1}, ${q(w.phone === '13500135001' ? '陈*' : '孙*')}, ${q(w.phone === '13500135001' ? 'chen***@example.com' : 'sun***@example.com')}, ${w.state}, ${now - w.daysAgo * DAY_MS}, ${now - w.daysAgo * DAY_MS + HOUR_MS}
       WHERE ${user(w.phone)} IS NOT NULL ON CONFLICT(ref) DO NOTHING;`,
    );
  }
  // Entries: one per paid order of an invitee at the engine's rates (the refunded order's entry is reversed).
  const entries = [
    { seq: 3, promoter: '13500135004', first: true, state: 2, w: 'WSEED000000000001' },
    { seq: 6, promoter: '13500135004', first: false, state: 2, w: 'WSEED000000000001' },
    { seq: 5, promoter: '13500135004', first: true, state: 3, w: null },
    { seq: 8, promoter: '13500135004', first: false, state: 1, w: null },
    { seq: 16, promoter: '13500135004', first: false, state: 1, w: null },
    { seq: 14, promoter: '13500135004', first: false, state: 1, w: null },
    { seq: 17, promoter: '13500135001', first: true, state: 2, w: 'WSEED000000000004' },
    { seq: 9, promoter: '13500135001', first: false, state: 2, w: 'WSEED000000000004' },
  ];
  for (const e of entries) {
    const o = ORDERS.find((x) => x.seq === e.seq);
    const rates = COMMISSION_RATES[o?.type ?? 10];
    const rate = (e.first ? rates?.firstBp : rates?.recurringBp) ?? 0;
    rows.push(
      `INSERT INTO commission_entries (promoter_id, invitee_id, order_no, product_type, base_fen, rate_bp, amount_fen, is_first, state, withdrawal_id, created_at, reversed_at)
       SELECT ${user(e.promoter)}, user_id, order_no, product_type, pay_fen, ${rate}, pay_fen * ${rate} / 10000, ${e.first ? 1 : 0}, ${e.state}, ${e.w ? `(SELECT id FROM withdrawals WHERE ref = ${q(e.w)})` : 'NULL'}, paid_at, ${e.state === 3 ? 'refunded_at' : 'NULL'}
       FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', e.seq))} ON CONFLICT(order_no) DO NOTHING;`,
    );
  }
  // The paid and the open withdrawal carry the amounts of their entries; the open one holds what was available.
  rows.push(
    `UPDATE commission_entries SET state = 2, withdrawal_id = (SELECT id FROM withdrawals WHERE ref = 'WSEED000000000003') WHERE state = 1 AND promoter_id = ${user('13500135004')} AND (SELECT state FROM withdrawals WHERE ref = 'WSEED000000000003') = 1;`,
    `UPDATE withdrawals SET amount_fen = (SELECT sum(amount_fen) FROM commission_entries c WHERE c.withdrawal_id = withdrawals.id) WHERE ref IN ('WSEED000000000001', 'WSEED000000000003', 'WSEED000000000004') AND EXISTS (SELECT 1 FROM commission_entries c WHERE c.withdrawal_id = withdrawals.id);`,
  );
  const events = [
    ['WSEED000000000001', 1, 2, 'demo.finance', '核对无误'],
    ['WSEED000000000001', 2, 3, 'demo.finance', '转账流水 2026110800012345'],
    ['WSEED000000000002', 1, 4, 'demo.finance', '收款账户与实名信息不一致'],
    ['WSEED000000000004', 1, 2, 'demo.finance', '核对无误'],
  ] as const;
  for (const [ref, from, to, who, note] of events) {
    rows.push(
      `INSERT INTO withdrawal_events (withdrawal_id, from_state, to_state, actor_id, note, created_at)
       SELECT w.id, ${from}, ${to}, ${op(who)}, ${q(note)}, w.created_at + ${to === 3 ? 20 * HOUR_MS : 2 * HOUR_MS} FROM withdrawals w
       WHERE w.ref = ${q(ref)} AND ${op(who)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM withdrawal_events e WHERE e.withdrawal_id = w.id AND e.to_state = ${to});`,
    );
  }
  return rows;
}

/** Real-name data: identities of verified customers, face verifications (passed, failed, pending), company reviews. */
function trustSql(now: number): string[] {
  const rows: string[] = [];
  const faces = [
    { phone: '13500135001', state: 1, sub: '', name: '陈*', id: '3301**********1024', daysAgo: 27 },
    { phone: '13500135002', state: 1, sub: '', name: '林*', id: '4403**********7168', daysAgo: 11 },
    { phone: '13500135003', state: 1, sub: '', name: '赵*', id: '1101**********2048', daysAgo: 19 },
    { phone: '13500135004', state: 1, sub: '', name: '孙*', id: '4403**********0512', daysAgo: 25 },
    { phone: '13500135005', state: 1, sub: '', name: '周*', id: '5101**********3072', daysAgo: 14 },
    { phone: '13500135006', state: 1, sub: '', name: '吴*', id: '3201**********4096', daysAgo: 8 },
    { phone: '13500135007', state: 2, sub: 'Z5120', name: '郑*', id: '4201**********6144', daysAgo: 3 },
    { phone: '13500135008', state: 0, sub: '', name: '王*', id: '6101**********8192', daysAgo: 0 },
  ];
  faces.forEach((f, i) => {
    const at = now - f.daysAgo * DAY_MS - HOUR_MS;
    const ref = `SEEDFACE${String(i + 1).padStart(4, '0')}`;
    rows.push(
      `INSERT INTO identity_verifications (user_id, outer_order_no, certify_id, provider, name_enc, id_no_enc, id_hash, id_masked, name_masked, state, sub_code, created_at, decided_at)
       SELECT ${user(f.phone)}, ${q(ref)}, ${q(`${ref}CERT`)}, 'simulator', 'demo', 'demo', ${q(`demo-id-hash-${f.phone}`)}, ${q(f.id)}, ${q(f.name)}, ${f.state}, ${q(f.sub)}, ${at}, ${f.state === 0 ? 'NULL' : at + MINUTE_MS}
       WHERE ${user(f.phone)} IS NOT NULL ON CONFLICT(outer_order_no) DO NOTHING;`,
    );
    if (f.state === 1) {
      rows.push(
        `INSERT INTO user_identities (user_id, id_hash, name_enc, id_no_enc, name_masked, id_masked, verification_id, verified_at)
         SELECT user_id, id_hash, 'demo', 'demo', name_masked, id_masked, id, decided_at FROM identity_verifications WHERE outer_order_no = ${q(ref)}
         ON CONFLICT(user_id) DO NOTHING;`,
      );
    }
  });
  const companies = [
    {
      phone: '13500135001',
      key: DEMO_LICENCE_KEYS[0],
      name: '杭州云采数据科技有限公司',
      code: '91330106MA2DEMO01X',
      legal: '陈*',
      state: 1,
      remark: '执照清晰，信息一致',
      daysAgo: 27,
    },
    {
      phone: '13500135002',
      key: DEMO_LICENCE_KEYS[1],
      name: '深圳市跨境优选电子商务有限公司',
      code: '91440300MA5DEMO02Y',
      legal: '林*',
      state: 4,
      remark: '',
      daysAgo: 0,
    },
    {
      phone: '13500135003',
      key: DEMO_LICENCE_KEYS[2],
      name: '北京某某网络工作室',
      code: '92110105MA0DEMO03Z',
      legal: '赵*',
      state: 5,
      remark: '营业执照已注销，请提交有效执照',
      daysAgo: 18,
    },
  ];
  for (const c of companies) {
    const at = now - c.daysAgo * DAY_MS - 2 * HOUR_MS;
    rows.push(
      `INSERT INTO company_licence_uploads (user_id, r2_key, mime, size, created_at) SELECT ${user(c.phone)}, ${q(c.key)}, 'image/png', 45003, ${at} WHERE ${user(c.phone)} IS NOT NULL ON CONFLICT(r2_key) DO NOTHING;`,
      `INSERT INTO company_auths (user_id, company_name, credit_code, credit_hash, legal_person, licence_upload_id, state, user_remark, review_remark, reviewer_id, created_at, reviewed_at)
       SELECT l.user_id, ${q(c.name)}, ${q(c.code)}, ${q(`demo-credit-${c.code}`)}, ${q(c.legal)}, l.id, ${c.state}, '用于数据采集业务', ${q(c.remark)}, ${c.state === 4 ? 'NULL' : op('demo.support')}, ${at}, ${c.state === 4 ? 'NULL' : at + 3 * HOUR_MS}
       FROM company_licence_uploads l WHERE l.r2_key = ${q(c.key)} AND NOT EXISTS (SELECT 1 FROM company_auths a WHERE a.licence_upload_id = l.id);`,
    );
    if (c.state !== 4) {
      rows.push(
        `INSERT INTO company_auth_events (company_auth_id, from_state, to_state, actor_id, remark, created_at)
         SELECT a.id, 4, a.state, a.reviewer_id, a.review_remark, a.reviewed_at FROM company_auths a JOIN company_licence_uploads l ON l.id = a.licence_upload_id
         WHERE l.r2_key = ${q(c.key)} AND a.reviewer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM company_auth_events e WHERE e.company_auth_id = a.id);`,
      );
    }
  }
  return rows;
}

/** Extraction calls over two weeks (the dashboard's chart and the customers' figures), a white list, red packets. */
function usageSql(now: number): string[] {
  const rows: string[] = [];
  const callers = ['13500135001', '13500135004', '13500135005'];
  for (let d = 13; d >= 0; d--) {
    callers.forEach((phone, i) => {
      const calls = 2 + ((d * 7 + i * 3) % 5);
      for (let k = 0; k < calls; k++) {
        const at = now - d * DAY_MS - (k + 1) * 47 * MINUTE_MS - i * 600_000;
        const returned = 5 + ((d + k + i) % 4) * 5;
        const code = (d + k) % 9 === 0 ? 121 : 0;
        const tag = `seed:${d}:${i}:${k}`;
        rows.push(
          `INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned, code, query, created_at)
           SELECT ${user(phone)}, NULL, 10, '198.51.100.10', ${returned}, ${code === 0 ? returned : 0}, ${code}, ${q(tag)}, ${at}
           WHERE ${user(phone)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM extract_logs WHERE query = ${q(tag)} AND user_id = ${user(phone)});`,
        );
      }
      rows.push(
        `INSERT INTO usage_daily (user_id, day, extract_calls, extract_ips, bytes_in, bytes_out)
         SELECT ${user(phone)}, ${q(shanghaiDay(now - d * DAY_MS))}, ${calls}, ${calls * 10}, ${(d + 3) * 7_340_032}, ${(d + 2) * 1_048_576} WHERE ${user(phone)} IS NOT NULL
         ON CONFLICT(user_id, day) DO NOTHING;`,
      );
    });
  }
  const whiteList = [
    ['13500135001', '198.51.100.10', '公司出口'],
    ['13500135001', '198.51.100.11', '备用出口'],
    ['13500135004', '203.0.113.77', '采集服务器'],
  ] as const;
  for (const [phone, ip, remark] of whiteList) {
    rows.push(
      `INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at) SELECT ${user(phone)}, ${q(ip)}, ${q(remark)}, 1, 0, ${now}, ${now} WHERE ${user(phone)} IS NOT NULL ON CONFLICT(user_id, ip) DO NOTHING;`,
    );
  }
  // Red packets of the demo launch (id 1): two received, one used.
  const packets = [
    ['13500135004', 2, 12],
    ['13500135005', 1, 5],
    ['13500135006', 2, 3],
  ] as const;
  for (const [phone, state, daysAgo] of packets) {
    const at = now - daysAgo * DAY_MS;
    rows.push(
      `INSERT INTO red_records (ref, launch_id, user_id, state, package_id, seen_at, received_at, used_at, expires_at)
       SELECT ${q(`SEEDRED${phone}`)}, 1, ${user(phone)}, ${state}, NULL, ${at}, ${at}, ${state === 2 ? at + HOUR_MS : 'NULL'}, ${at + 7 * DAY_MS}
       WHERE ${user(phone)} IS NOT NULL AND EXISTS (SELECT 1 FROM red_launches WHERE id = 1) ON CONFLICT(ref) DO NOTHING;`,
    );
  }
  rows.push(
    `INSERT INTO red_launches (id, title, description, product_type, ip_duration_minutes, ip_count, valid_days, budget, received, starts_at, ends_at, enabled)
     VALUES (2, '双十一长效IP红包', '长效静态IP 100个，限时领取', 40, 60, 100, 7, 50, 0, ${now - 20 * DAY_MS}, ${now - 10 * DAY_MS}, 0) ON CONFLICT(id) DO NOTHING;`,
    'UPDATE red_launches SET received = (SELECT count(*) FROM red_records r WHERE r.launch_id = red_launches.id), budget = max(budget, (SELECT count(*) FROM red_records r WHERE r.launch_id = red_launches.id));',
  );
  return rows;
}

function operatorsSql(now: number, hash: string): string[] {
  const rows: string[] = [];
  CONSOLE_DEMO_OPERATORS.forEach((o, i) => {
    rows.push(
      `INSERT INTO operators (username, display_name, role, status, password_hash, created_at, updated_at) VALUES (${q(o.username)}, ${q(o.name)}, ${q(o.role)}, 1, ${q(hash)}, ${now - (30 - i) * DAY_MS}, ${now - (30 - i) * DAY_MS}) ON CONFLICT(username) DO NOTHING;`,
    );
  });
  return rows;
}

/** Audit rows as the real actions write them (action names, targets and summaries), oldest first. */
function auditSql(now: number): string[] {
  const rows: string[] = [];
  const w = (ref: string) => `(SELECT id FROM withdrawals WHERE ref = ${q(ref)})`;
  const company = (key: string) =>
    `(SELECT a.id FROM company_auths a JOIN company_licence_uploads l ON l.id = a.licence_upload_id WHERE l.r2_key = ${q(key)})`;
  const order = (seq: number) => `(SELECT order_no FROM orders WHERE substr(order_no, 16) = ${q(suffix('O', seq))})`;
  const audit: [string, string, string, string, string, string, number][] = [
    [
      'demo.admin',
      'Admin.OperatorCreate',
      `'operator:' || ${op('demo.finance')}`,
      '',
      '{"username":"demo.finance","displayName":"财务小刘","role":"finance"}',
      '',
      29 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      `'company_auth:' || ${company(DEMO_LICENCE_KEYS[0])}`,
      '{"state":4}',
      '{"state":1,"decision":"approve"}',
      '执照清晰，信息一致',
      27 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      `'company_auth:' || ${company(DEMO_LICENCE_KEYS[2])}`,
      '{"state":4}',
      '{"state":5,"decision":"reject"}',
      '营业执照已注销，请提交有效执照',
      18 * DAY_MS,
    ],
    [
      'demo.ops',
      'Admin.NodeSetEnabled',
      "'node:104'",
      '{"status":1}',
      '{"status":0}',
      '机房迁移，节点下线',
      12 * DAY_MS,
    ],
    [
      'demo.finance',
      'Order.RefundByOrderNo',
      `'order:' || ${order(5)}`,
      '{"state":2}',
      '{"status":"SUCCESS","amountFen":15300}',
      '客户误购，按规则全额退款',
      7 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      `'withdrawal:' || ${w('WSEED000000000001')}`,
      '{"state":2}',
      '{"state":3,"decision":"paid"}',
      '转账流水 2026110800012345',
      6 * DAY_MS,
    ],
    [
      'demo.content',
      'Admin.ArticlePublish',
      "'article:' || (SELECT min(id) FROM articles WHERE kind = 'help')",
      '{"state":0}',
      '{"state":1}',
      '',
      5 * DAY_MS,
    ],
    [
      'demo.ops',
      'Redirect.Save',
      "'redirect:/activity/double11'",
      '',
      '{"toPath":"/rebate","status":302}',
      '活动结束，跳转到返利页',
      4 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      `'withdrawal:' || ${w('WSEED000000000002')}`,
      '{"state":1}',
      '{"state":4,"decision":"reject"}',
      '收款账户与实名信息不一致',
      3 * DAY_MS,
    ],
    [
      'demo.support',
      'Admin.SuspendCustomer',
      `'user:' || ${user('13500135003')}`,
      '{"status":1}',
      '{"status":2}',
      '多次投诉：用于违规采集',
      2 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      `'withdrawal:' || ${w('WSEED000000000004')}`,
      '{"state":1}',
      '{"state":2,"decision":"approve"}',
      '核对无误',
      DAY_MS,
    ],
    ['demo.admin', 'Operator.Login', `'operator:' || ${op('demo.admin')}`, '', '', '', 2 * HOUR_MS],
  ];
  for (const [who, action, target, before, after, reason, ago] of audit) {
    const role = CONSOLE_DEMO_OPERATORS.find((o) => o.username === who)?.role ?? 'admin';
    rows.push(
      `INSERT INTO audit_log (operator_id, operator_name, role, action, target, before_summary, after_summary, reason, client_ip, created_at)
       SELECT ${op(who)}, ${q(who)}, ${q(role)}, ${q(action)}, ${target}, ${q(before)}, ${q(after)}, ${q(reason)}, '198.51.100.20', ${now - ago}
       WHERE ${op(who)} IS NOT NULL AND ${target} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = ${q(action)} AND operator_name = ${q(who)} AND target = ${target});`,
    );
  }
  return rows;
}

function siteSql(now: number): string[] {
  const out: string[] = [];
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
  consults.forEach(([company, contact, phone, email, scenario, volume, message, state, daysAgo], i) => {
    out.push(
      `INSERT INTO consult_requests (id, company, contact_name, phone, email, scenario, monthly_volume, message, user_id, client_ip, state, created_at)
       VALUES (${9001 + i}, ${q(company)}, ${q(contact)}, ${q(phone)}, ${q(email)}, ${q(scenario)}, ${q(volume)}, ${q(message)}, NULL, '198.51.100.30', ${state}, ${now - daysAgo * DAY_MS - HOUR_MS}) ON CONFLICT(id) DO NOTHING;`,
    );
  });
  out.push(
    `INSERT INTO path_redirects (from_path, to_path, status, updated_at) VALUES ('/activity/double11', '/rebate', 302, ${now - 4 * DAY_MS}) ON CONFLICT(from_path) DO NOTHING;`,
    `INSERT INTO path_redirects (from_path, to_path, status, updated_at) VALUES ('/price', '/getProxy', 301, ${now - 9 * DAY_MS}) ON CONFLICT(from_path) DO NOTHING;`,
    `INSERT INTO promotion_materials (id, kind, title, content, sort, enabled) VALUES (3, 'image', '返利活动海报', '/images/banner-rebate.svg', 3, 1) ON CONFLICT(id) DO NOTHING;`,
    `INSERT INTO promotion_materials (id, kind, title, content, sort, enabled) VALUES (4, 'text', '旧版推荐语', '注册云枢代理领新人福利：{link}', 4, 0) ON CONFLICT(id) DO NOTHING;`,
    `INSERT INTO retention_runs (started_at, finished_at, retention_days, rows_removed, detail)
     SELECT ${now - 20 * HOUR_MS}, ${now - 20 * HOUR_MS + 4200}, 180, 1287, '{"extract_logs":1024,"ip_assignments":240,"sms_codes":23}'
     WHERE NOT EXISTS (SELECT 1 FROM retention_runs);`,
  );
  return out;
}

/** Node health for the demo pool: some short-lived exits of node 102 down, node 102 silent for two hours. */
function nodeHealthSql(now: number, demoPool: boolean): string[] {
  const rows = [
    `INSERT INTO proxy_nodes (id, name, secret, status, last_seen_at, created_at) VALUES (104, 'retired-node-sh', 'retired-node-secret-not-in-use-000000', 0, ${now - 12 * DAY_MS}, ${now - 40 * DAY_MS}) ON CONFLICT(id) DO NOTHING;`,
  ];
  if (demoPool) {
    rows.push(
      `UPDATE proxy_nodes SET last_seen_at = ${now - 3 * MINUTE_MS} WHERE id IN (101, 103);`,
      `UPDATE proxy_nodes SET last_seen_at = ${now - 2 * HOUR_MS} WHERE id = 102;`,
      `UPDATE proxy_ips SET healthy = 0 WHERE node_id = 102 AND pool = 10 AND id % 10 = 0;`,
    );
  }
  return rows;
}

/** All console demo data as SQL (runs after the other demo data: it uses the demo catalogue, launch and seller). */
export async function demoConsoleSql(now: number, opts: { demoPool: boolean }): Promise<string> {
  const customerHash = await hashPassword(CONSOLE_DEMO_PASSWORD);
  const operatorHash = await hashPassword(CONSOLE_DEMO_OPERATOR_PASSWORD);
  const rows = [
    `INSERT INTO sellers (id, code, name, phone, enabled) VALUES (2, 'seller02', '李经理', '13600136001', 1) ON CONFLICT(id) DO NOTHING;`,
  ];
  for (const c of CONSOLE_DEMO_CUSTOMERS) {
    const at = now - c.daysAgo * DAY_MS - 3 * HOUR_MS;
    rows.push(
      `INSERT INTO users (phone, password_hash, status, is_identity_auth, company_auth_state, created_at, updated_at, seller_id) VALUES (${q(c.phone)}, ${q(customerHash)}, ${c.status ?? 1}, ${c.identity ? 1 : 0}, ${c.company ?? 0}, ${at}, ${at}, ${c.seller ? `(SELECT id FROM sellers WHERE code = ${q(c.seller)})` : 'NULL'}) ON CONFLICT(phone) DO NOTHING;`,
    );
  }
  rows.push(...operatorsSql(now, operatorHash));
  for (const o of ORDERS) rows.push(...orderSql(o, now));
  rows.push(
    ...promotionSql(now),
    ...trustSql(now),
    ...usageSql(now),
    ...siteSql(now),
    ...nodeHealthSql(now, opts.demoPool),
    ...auditSql(now),
    'UPDATE coupons SET issued = (SELECT count(*) FROM user_coupons WHERE coupon_id = coupons.id);',
  );
  return rows.join('\n');
}
