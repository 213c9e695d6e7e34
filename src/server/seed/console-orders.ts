// The console demo's orders over the last two weeks (paid, refunded, unpaid at the provider, a payment flagged
// refund_needed, closed) with their items, payments, refunds, packages and coupons, and the promotion built on them:
// invitations, commission entries and withdrawals in each state (docs/decisions/165).
import { DAY_MS, HOUR_MS, MINUTE_MS, shanghaiStamp } from '../../lib/time';
import { COMMISSION_RATES, COMMISSION_STATE, WITHDRAWAL_STATE } from '../../lib/commission-rules';
import { USER_COUPON_STATE } from '../../lib/coupon-states';
import { col, exists, insert, isNotNull, lookup, notExists, rawSql, sumOf, update } from './sql';
import { fromOrder, op, orderNo, seededOrder, seededTail, suffix, user } from './console-shared';

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
const payFen = (o: DemoOrder) => o.listFen - (o.discountFen ?? 0) - (o.couponFen ?? 0);

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
            used_at: state === USER_COUPON_STATE.used ? at + MINUTE_MS : null,
          },
        ],
        { select: fromOrder(o.seq, notExists('user_coupons', { order_no: orderNo })) },
      ),
      update('orders', { user_coupon_id: lookup('user_coupons', 'id', { order_no: orderNo }) }, seededOrder(o.seq)),
    );
  }
  return rows;
}
/** Every demo order with its payment, package and coupon rows. */
export const ordersSql = (now: number): string[] => ORDERS.flatMap((o) => orderSql(o, now));

/** Commission: 13500135004 invited 005 and 006; 13500135001 invited 007 (docs/decisions/035 rates: 20% first, 10%). */
export function promotionSql(now: number): string[] {
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
    { ref: 'WSEED000000000001', phone: '13500135004', amount: 0, state: WITHDRAWAL_STATE.paid, daysAgo: 6 },
    { ref: 'WSEED000000000002', phone: '13500135004', amount: 7585, state: WITHDRAWAL_STATE.rejected, daysAgo: 3 },
    { ref: 'WSEED000000000003', phone: '13500135004', amount: 0, state: WITHDRAWAL_STATE.requested, daysAgo: 0 },
    { ref: 'WSEED000000000004', phone: '13500135001', amount: 0, state: WITHDRAWAL_STATE.approved, daysAgo: 1 },
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
    { seq: 3, promoter: '13500135004', first: true, state: COMMISSION_STATE.withdrawn, w: 'WSEED000000000001' },
    { seq: 6, promoter: '13500135004', first: false, state: COMMISSION_STATE.withdrawn, w: 'WSEED000000000001' },
    { seq: 5, promoter: '13500135004', first: true, state: COMMISSION_STATE.reversed, w: null },
    { seq: 8, promoter: '13500135004', first: false, state: COMMISSION_STATE.available, w: null },
    { seq: 16, promoter: '13500135004', first: false, state: COMMISSION_STATE.available, w: null },
    { seq: 14, promoter: '13500135004', first: false, state: COMMISSION_STATE.available, w: null },
    { seq: 17, promoter: '13500135001', first: true, state: COMMISSION_STATE.withdrawn, w: 'WSEED000000000004' },
    { seq: 9, promoter: '13500135001', first: false, state: COMMISSION_STATE.withdrawn, w: 'WSEED000000000004' },
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
            reversed_at: e.state === COMMISSION_STATE.reversed ? col('orders', 'refunded_at') : null,
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
    update('commission_entries', { state: COMMISSION_STATE.withdrawn, withdrawal_id: withdrawal(open) }, [
      { state: COMMISSION_STATE.available, promoter_id: user('13500135004') },
      exists('withdrawals', { ref: open, state: WITHDRAWAL_STATE.requested }),
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
