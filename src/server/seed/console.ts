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
import { recountIssuedCoupons } from './commerce';
import {
  col,
  countOf,
  exists,
  insert,
  isNotNull,
  lookup,
  notExists,
  type Row,
  rawSql,
  type SqlText,
  sumOf,
  update,
} from './sql';

const user = (phone: string) => lookup('users', 'id', { phone });
const op = (username: string) => lookup('operators', 'id', { username });
const licenceUpload = (r2Key: string) => lookup('company_licence_uploads', 'id', { r2_key: r2Key });

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
/** Seeded numbers end in a fixed tail (their first 15 characters carry the time of the seed run). */
const seededTail = (column: SqlText, kind: string, seq: number) => rawSql`substr(${column}, 16) = ${suffix(kind, seq)}`;
const orderNo = col('orders', 'order_no');
/** The seeded order `seq`: the row an INSERT … SELECT FROM orders reads. */
const seededOrder = (seq: number) => seededTail(orderNo, 'O', seq);
const fromOrder = (seq: number, ...also: SqlText[]) =>
  ({ from: 'orders', where: [seededOrder(seq), ...also] }) as const;

function orderSql(o: DemoOrder, now: number): string[] {
  const at = now - o.daysAgo * DAY_MS - (o.seq % 5) * HOUR_MS - 40 * MINUTE_MS;
  const tradeNo = `P${shanghaiStamp(at)}${suffix('P', o.seq)}`;
  const refundNo = `R${shanghaiStamp(at + DAY_MS)}${suffix('R', o.seq)}`;
  const pay = payFen(o);
  const paid = o.state === 'paid' || o.state === 'refunded';
  const closed = o.state === 'closed' || o.state === 'closedPaid';
  const orderState = { paid: 2, refunded: 4, pending: 1, closed: 3, closedPaid: 3 }[o.state];
  const payState = { paid: 'paid', refunded: 'paid', pending: 'pending', closed: 'closed', closedPaid: 'paid' }[
    o.state
  ];
  const expires = o.state === 'pending' ? now + 2 * HOUR_MS : at + 30 * MINUTE_MS;
  const txn = paid || o.state === 'closedPaid' ? `42000${String(o.seq).padStart(5, '0')}2026${o.seq}` : null;
  const dedicated = o.type === 30 || o.type === 50;
  const extractable = o.type === 10 || o.type === 40;
  const rows = [
    ...insert(
      'orders',
      [
        {
          order_no: `D${shanghaiStamp(at)}${suffix('O', o.seq)}`,
          user_id: user(o.phone),
          kind: 1,
          product_type: o.type,
          title: o.title,
          list_fen: o.listFen,
          discount_fen: o.discountFen ?? 0,
          credit_fen: 0,
          coupon_fen: o.couponFen ?? 0,
          pay_fen: pay,
          user_coupon_id: null,
          state: orderState,
          source_type: 1,
          expires_at: expires,
          paid_at: paid ? at + MINUTE_MS : null,
          paid_out_trade_no: paid ? tradeNo : null,
          transaction_id: paid ? (txn ?? '') : null,
          fulfilled_at: paid ? at + MINUTE_MS : null,
          closed_at: closed ? at + 30 * MINUTE_MS : null,
          created_at: at,
          refunded_at: o.state === 'refunded' ? at + DAY_MS : null,
          out_refund_no: o.state === 'refunded' ? refundNo : null,
        },
      ],
      { select: { where: notExists('orders', seededOrder(o.seq)) } },
    ),
    ...insert(
      'order_items',
      [
        {
          order_no: orderNo,
          seq: 1,
          package_id: null,
          product_type: o.type,
          billing_method: o.billing,
          ip_duration_minutes: o.minutes,
          name: o.title,
          meal_id: o.mealId,
          units: 1,
          region_id: dedicated ? 1 : null,
          add_count: o.billing === 1 && !dedicated ? o.size : 0,
          add_daily_limit: o.billing === 2 && extractable ? o.size : 0,
          add_ip_count: dedicated ? 1 : 0,
          add_days: o.days,
          list_fen: o.listFen,
          value_fen: pay,
        },
      ],
      { select: fromOrder(o.seq), onConflict: { columns: ['order_no', 'seq'], doNothing: true } },
    ),
    ...insert(
      'payments',
      [
        {
          out_trade_no: tradeNo,
          order_no: orderNo,
          user_id: col('orders', 'user_id'),
          provider: 'wechat',
          amount_fen: pay,
          state: payState,
          code_url: o.state === 'pending' ? `weixin://wxpay/bizpayurl?pr=demo${o.seq}` : null,
          expires_at: expires,
          transaction_id: txn ?? '',
          refund_needed: o.state === 'closedPaid',
          note: o.state === 'closedPaid' ? '订单关闭后才收到支付成功通知，需退款' : '',
          created_at: at,
          paid_at: payState === 'paid' ? at + MINUTE_MS + (o.state === 'closedPaid' ? 35 * MINUTE_MS : 0) : null,
        },
      ],
      { select: fromOrder(o.seq, notExists('payments', seededTail(col('payments', 'out_trade_no'), 'P', o.seq))) },
    ),
  ];
  if (o.state === 'refunded') {
    rows.push(
      ...insert(
        'refunds',
        [
          {
            out_refund_no: refundNo,
            order_no: orderNo,
            out_trade_no: col('orders', 'paid_out_trade_no'),
            user_id: col('orders', 'user_id'),
            amount_fen: pay,
            total_fen: pay,
            status: 'SUCCESS',
            refund_id: `50300${o.seq}2026demo`,
            operator_id: op('demo.finance'),
            reason: '客户误购，按规则全额退款',
            note: '',
            created_at: at + DAY_MS,
            updated_at: at + DAY_MS,
          },
        ],
        {
          select: fromOrder(
            o.seq,
            isNotNull(op('demo.finance')),
            notExists('refunds', seededTail(col('refunds', 'out_refund_no'), 'R', o.seq)),
          ),
        },
      ),
    );
  }
  if (paid) {
    const count = o.billing === 1 && extractable;
    rows.push(
      ...insert(
        'proxy_packages',
        [
          {
            user_id: col('orders', 'user_id'),
            product_type: o.type,
            billing_method: o.billing,
            name: o.title,
            ip_duration_minutes: o.minutes,
            total_count: count ? o.size : 0,
            remaining_count: count ? Math.round(o.size * 0.62) : 0,
            daily_limit: !count && extractable ? o.size : 0,
            ip_count: dedicated ? 1 : 0,
            starts_at: at + MINUTE_MS,
            expires_at: at + o.days * DAY_MS,
            state: o.state === 'refunded' ? 5 : at + o.days * DAY_MS > now ? 1 : 2,
            source: 'order',
            source_ref: orderNo,
            created_at: at + MINUTE_MS,
            updated_at: now,
          },
        ],
        { select: fromOrder(o.seq, notExists('proxy_packages', { source: 'order', source_ref: orderNo })) },
      ),
    );
  }
  if (o.state === 'closedPaid') {
    // The local WeChat Pay simulator holds the paid transaction too, so the console's 退款 of this flagged attempt
    // (Admin.RefundPayment) can be tried end to end in development (mchid/appid of SIMULATOR_MERCHANT).
    const payment = (
      c: 'out_trade_no' | 'amount_fen' | 'order_no' | 'expires_at' | 'transaction_id' | 'paid_at' | 'created_at',
    ) => col('payments', c);
    rows.push(
      ...insert(
        'pay_simulator_transactions',
        [
          {
            out_trade_no: payment('out_trade_no'),
            mchid: '1900000001',
            appid: 'wxsimulator0000001',
            description: o.title,
            amount_fen: payment('amount_fen'),
            notify_url: '',
            attach: payment('order_no'),
            time_expire_ms: payment('expires_at'),
            trade_state: 'SUCCESS',
            transaction_id: payment('transaction_id'),
            success_time_ms: payment('paid_at'),
            created_at: payment('created_at'),
          },
        ],
        {
          select: { from: 'payments', where: seededTail(payment('out_trade_no'), 'P', o.seq) },
          onConflict: { columns: ['out_trade_no'], doNothing: true },
        },
      ),
    );
  }
  if (o.couponId) {
    const state = o.state === 'pending' ? 2 : 3;
    rows.push(
      ...insert(
        'user_coupons',
        [
          {
            user_id: col('orders', 'user_id'),
            coupon_id: o.couponId,
            state,
            order_no: orderNo,
            valid_from: at - DAY_MS,
            expires_at: at + 29 * DAY_MS,
            received_at: at - DAY_MS,
            used_at: state === 3 ? at + MINUTE_MS : null,
          },
        ],
        { select: fromOrder(o.seq, notExists('user_coupons', { order_no: orderNo })) },
      ),
      update('orders', { user_coupon_id: lookup('user_coupons', 'id', { order_no: orderNo }) }, seededOrder(o.seq)),
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
      ...insert(
        'invitations',
        [{ invitee_id: user(invitee), promoter_id: user(promoter), keyword: '', created_at: now - daysAgo * DAY_MS }],
        { select: { where: isNotNull(user(invitee)) }, onConflict: { columns: ['invitee_id'], doNothing: true } },
      ),
    );
  }
  rows.push(
    ...insert(
      'user_promotions',
      [
        {
          user_id: col('users', 'id'),
          code: rawSql`${'demo'} || substr(${col('users', 'phone')}, 8)`,
          created_at: now,
        },
      ],
      {
        select: { from: 'users', where: { phone: ['13500135001', '13500135004'] } },
        onConflict: { columns: ['user_id'], doNothing: true },
      },
    ),
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
      ...insert(
        'withdrawals',
        [
          {
            ref: w.ref,
            user_id: user(w.phone),
            amount_fen: w.amount || 1,
            account_name: w.phone === '13500135001' ? '陈*' : '孙*',
            account_no: w.phone === '13500135001' ? 'chen***@example.com' : 'sun***@example.com',
            state: w.state,
            created_at: now - w.daysAgo * DAY_MS,
            updated_at: now - w.daysAgo * DAY_MS + HOUR_MS,
          },
        ],
        { select: { where: isNotNull(user(w.phone)) }, onConflict: { columns: ['ref'], doNothing: true } },
      ),
    );
  }
  const withdrawal = (ref: string) => lookup('withdrawals', 'id', { ref });
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
      ...insert(
        'commission_entries',
        [
          {
            promoter_id: user(e.promoter),
            invitee_id: col('orders', 'user_id'),
            order_no: orderNo,
            product_type: col('orders', 'product_type'),
            base_fen: col('orders', 'pay_fen'),
            rate_bp: rate,
            amount_fen: rawSql`${col('orders', 'pay_fen')} * ${rate} / 10000`,
            is_first: e.first,
            state: e.state,
            withdrawal_id: e.w ? withdrawal(e.w) : null,
            created_at: col('orders', 'paid_at'),
            reversed_at: e.state === 3 ? col('orders', 'refunded_at') : null,
          },
        ],
        { select: fromOrder(e.seq), onConflict: { columns: ['order_no'], doNothing: true } },
      ),
    );
  }
  // The paid and the open withdrawal carry the amounts of their entries; the open one holds what was available.
  const open = 'WSEED000000000003';
  const entriesOf = { withdrawal_id: col('withdrawals', 'id') };
  rows.push(
    update('commission_entries', { state: 2, withdrawal_id: withdrawal(open) }, [
      { state: 1, promoter_id: user('13500135004') },
      exists('withdrawals', { ref: open, state: 1 }),
    ]),
    update('withdrawals', { amount_fen: sumOf('commission_entries', 'amount_fen', entriesOf) }, [
      { ref: ['WSEED000000000001', open, 'WSEED000000000004'] },
      exists('commission_entries', entriesOf),
    ]),
  );
  const events = [
    ['WSEED000000000001', 1, 2, 'demo.finance', '核对无误'],
    ['WSEED000000000001', 2, 3, 'demo.finance', '转账流水 2026110800012345'],
    ['WSEED000000000002', 1, 4, 'demo.finance', '收款账户与实名信息不一致'],
    ['WSEED000000000004', 1, 2, 'demo.finance', '核对无误'],
  ] as const;
  const withdrawalId = col('withdrawals', 'id');
  for (const [ref, from, to, who, note] of events) {
    rows.push(
      ...insert(
        'withdrawal_events',
        [
          {
            withdrawal_id: withdrawalId,
            from_state: from,
            to_state: to,
            actor_id: op(who),
            note,
            created_at: rawSql`${col('withdrawals', 'created_at')} + ${to === 3 ? 20 * HOUR_MS : 2 * HOUR_MS}`,
          },
        ],
        {
          select: {
            from: 'withdrawals',
            where: [
              { ref },
              isNotNull(op(who)),
              notExists('withdrawal_events', { withdrawal_id: withdrawalId, to_state: to }),
            ],
          },
        },
      ),
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
  const verification = (c: 'user_id' | 'id_hash' | 'name_masked' | 'id_masked' | 'id' | 'decided_at') =>
    col('identity_verifications', c);
  faces.forEach((f, i) => {
    const at = now - f.daysAgo * DAY_MS - HOUR_MS;
    const ref = `SEEDFACE${String(i + 1).padStart(4, '0')}`;
    rows.push(
      ...insert(
        'identity_verifications',
        [
          {
            user_id: user(f.phone),
            outer_order_no: ref,
            certify_id: `${ref}CERT`,
            provider: 'simulator',
            name_enc: 'demo',
            id_no_enc: 'demo',
            id_hash: `demo-id-hash-${f.phone}`,
            id_masked: f.id,
            name_masked: f.name,
            state: f.state,
            sub_code: f.sub,
            created_at: at,
            decided_at: f.state === 0 ? null : at + MINUTE_MS,
          },
        ],
        { select: { where: isNotNull(user(f.phone)) }, onConflict: { columns: ['outer_order_no'], doNothing: true } },
      ),
    );
    if (f.state === 1) {
      rows.push(
        ...insert(
          'user_identities',
          [
            {
              user_id: verification('user_id'),
              id_hash: verification('id_hash'),
              name_enc: 'demo',
              id_no_enc: 'demo',
              name_masked: verification('name_masked'),
              id_masked: verification('id_masked'),
              verification_id: verification('id'),
              verified_at: verification('decided_at'),
            },
          ],
          {
            select: { from: 'identity_verifications', where: { outer_order_no: ref } },
            onConflict: { columns: ['user_id'], doNothing: true },
          },
        ),
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
  const upload = (c: 'id' | 'user_id') => col('company_licence_uploads', c);
  const auth = (c: 'id' | 'state' | 'reviewer_id' | 'review_remark' | 'reviewed_at') => col('company_auths', c);
  for (const c of companies) {
    const at = now - c.daysAgo * DAY_MS - 2 * HOUR_MS;
    rows.push(
      ...insert(
        'company_licence_uploads',
        [{ user_id: user(c.phone), r2_key: c.key, mime: 'image/png', size: 45003, created_at: at }],
        { select: { where: isNotNull(user(c.phone)) }, onConflict: { columns: ['r2_key'], doNothing: true } },
      ),
      ...insert(
        'company_auths',
        [
          {
            user_id: upload('user_id'),
            company_name: c.name,
            credit_code: c.code,
            credit_hash: `demo-credit-${c.code}`,
            legal_person: c.legal,
            licence_upload_id: upload('id'),
            state: c.state,
            user_remark: '用于数据采集业务',
            review_remark: c.remark,
            reviewer_id: c.state === 4 ? null : op('demo.support'),
            created_at: at,
            reviewed_at: c.state === 4 ? null : at + 3 * HOUR_MS,
          },
        ],
        {
          select: {
            from: 'company_licence_uploads',
            where: [{ r2_key: c.key }, notExists('company_auths', { licence_upload_id: upload('id') })],
          },
        },
      ),
    );
    if (c.state !== 4) {
      rows.push(
        ...insert(
          'company_auth_events',
          [
            {
              company_auth_id: auth('id'),
              from_state: 4,
              to_state: auth('state'),
              actor_id: auth('reviewer_id'),
              remark: auth('review_remark'),
              created_at: auth('reviewed_at'),
            },
          ],
          {
            select: {
              from: 'company_auths',
              where: [
                { licence_upload_id: licenceUpload(c.key) },
                isNotNull(auth('reviewer_id')),
                notExists('company_auth_events', { company_auth_id: auth('id') }),
              ],
            },
          },
        ),
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
          ...insert(
            'extract_logs',
            [
              {
                user_id: user(phone),
                package_id: null,
                product_type: 10,
                client_ip: '198.51.100.10',
                requested: returned,
                returned: code === 0 ? returned : 0,
                code,
                query: tag,
                created_at: at,
              },
            ],
            {
              select: {
                where: [isNotNull(user(phone)), notExists('extract_logs', { query: tag, user_id: user(phone) })],
              },
            },
          ),
        );
      }
      rows.push(
        ...insert(
          'usage_daily',
          [
            {
              user_id: user(phone),
              day: shanghaiDay(now - d * DAY_MS),
              extract_calls: calls,
              extract_ips: calls * 10,
              bytes_in: (d + 3) * 7_340_032,
              bytes_out: (d + 2) * 1_048_576,
            },
          ],
          { select: { where: isNotNull(user(phone)) }, onConflict: { columns: ['user_id', 'day'], doNothing: true } },
        ),
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
      ...insert(
        'white_list',
        [{ user_id: user(phone), ip, remark, enabled: true, expires_at: 0, created_at: now, updated_at: now }],
        { select: { where: isNotNull(user(phone)) }, onConflict: { columns: ['user_id', 'ip'], doNothing: true } },
      ),
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
      ...insert(
        'red_records',
        [
          {
            ref: `SEEDRED${phone}`,
            launch_id: 1,
            user_id: user(phone),
            state,
            package_id: null,
            seen_at: at,
            received_at: at,
            used_at: state === 2 ? at + HOUR_MS : null,
            expires_at: at + 7 * DAY_MS,
          },
        ],
        {
          select: { where: [isNotNull(user(phone)), exists('red_launches', { id: 1 })] },
          onConflict: { columns: ['ref'], doNothing: true },
        },
      ),
    );
  }
  const received = countOf('red_records', { launch_id: col('red_launches', 'id') });
  rows.push(
    ...insert(
      'red_launches',
      [
        {
          id: 2,
          title: '双十一长效IP红包',
          description: '长效静态IP 100个，限时领取',
          product_type: 40,
          ip_duration_minutes: 60,
          ip_count: 100,
          valid_days: 7,
          budget: 50,
          received: 0,
          starts_at: now - 20 * DAY_MS,
          ends_at: now - 10 * DAY_MS,
          enabled: false,
        },
      ],
      { onConflict: { columns: ['id'], doNothing: true } },
    ),
    update('red_launches', { received, budget: rawSql`max(budget, ${received})` }),
  );
  return rows;
}

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

/** Audit rows as the real actions write them (action names, targets and summaries), oldest first. */
function auditSql(now: number): string[] {
  const rows: string[] = [];
  const w = (ref: string) => lookup('withdrawals', 'id', { ref });
  const company = (key: string) => lookup('company_auths', 'id', { licence_upload_id: licenceUpload(key) });
  const order = (seq: number) => lookup('orders', 'order_no', seededOrder(seq));
  /** `'<kind>:' || <id>`: the target of a seeded row, NULL while that row is missing. */
  const target = (kind: string, id: SqlText) => rawSql`${`${kind}:`} || ${id}`;
  const audit: [string, string, string | SqlText, string, string, string, number][] = [
    [
      'demo.admin',
      'Admin.OperatorCreate',
      target('operator', op('demo.finance')),
      '',
      '{"username":"demo.finance","displayName":"财务小刘","role":"finance"}',
      '',
      29 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      target('company_auth', company(DEMO_LICENCE_KEYS[0])),
      '{"state":4}',
      '{"state":1,"decision":"approve"}',
      '执照清晰，信息一致',
      27 * DAY_MS,
    ],
    [
      'demo.support',
      'Auth.CompanyReview',
      target('company_auth', company(DEMO_LICENCE_KEYS[2])),
      '{"state":4}',
      '{"state":5,"decision":"reject"}',
      '营业执照已注销，请提交有效执照',
      18 * DAY_MS,
    ],
    ['demo.ops', 'Admin.NodeSetEnabled', 'node:104', '{"status":1}', '{"status":0}', '机房迁移，节点下线', 12 * DAY_MS],
    [
      'demo.finance',
      'Order.RefundByOrderNo',
      target('order', order(5)),
      '{"state":2}',
      '{"status":"SUCCESS","amountFen":15300}',
      '客户误购，按规则全额退款',
      7 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000001')),
      '{"state":2}',
      '{"state":3,"decision":"paid"}',
      '转账流水 2026110800012345',
      6 * DAY_MS,
    ],
    [
      'demo.content',
      'Admin.ArticlePublish',
      target('article', rawSql`(SELECT min(id) FROM articles WHERE kind = ${'help'})`),
      '{"state":0}',
      '{"state":1}',
      '',
      5 * DAY_MS,
    ],
    [
      'demo.ops',
      'Redirect.Save',
      'redirect:/activity/double11',
      '',
      '{"toPath":"/rebate","status":302}',
      '活动结束，跳转到返利页',
      4 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000002')),
      '{"state":1}',
      '{"state":4,"decision":"reject"}',
      '收款账户与实名信息不一致',
      3 * DAY_MS,
    ],
    [
      'demo.support',
      'Admin.SuspendCustomer',
      target('user', user('13500135003')),
      '{"status":1}',
      '{"status":2}',
      '多次投诉：用于违规采集',
      2 * DAY_MS,
    ],
    [
      'demo.finance',
      'UserPromotion.ReviewWithdrawal',
      target('withdrawal', w('WSEED000000000004')),
      '{"state":1}',
      '{"state":2,"decision":"approve"}',
      '核对无误',
      DAY_MS,
    ],
    ['demo.admin', 'Operator.Login', target('operator', op('demo.admin')), '', '', '', 2 * HOUR_MS],
  ];
  for (const [who, action, on, before, after, reason, ago] of audit) {
    const role = CONSOLE_DEMO_OPERATORS.find((o) => o.username === who)?.role ?? 'admin';
    rows.push(
      ...insert(
        'audit_log',
        [
          {
            operator_id: op(who),
            operator_name: who,
            role,
            action,
            target: on,
            before_summary: before,
            after_summary: after,
            reason,
            client_ip: '198.51.100.20',
            created_at: now - ago,
          },
        ],
        {
          select: {
            where: [
              isNotNull(op(who)),
              ...(typeof on === 'string' ? [] : [isNotNull(on)]),
              notExists('audit_log', { action, operator_name: who, target: on }),
            ],
          },
        },
      ),
    );
  }
  return rows;
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
    ...ORDERS.flatMap((o) => orderSql(o, now)),
    ...promotionSql(now),
    ...trustSql(now),
    ...usageSql(now),
    ...siteSql(now),
    ...nodeHealthSql(now, opts.demoPool),
    ...auditSql(now),
    recountIssuedCoupons(),
  ].join('\n');
}
