// Queries behind the console's order screens: search, detail with payment attempts and refunds, and the CSV export.
import type { CouponOutcome } from '../../lib/refund-rules';
import { HOUR_MS } from '../../lib/time';
import { PACKAGE_STATE } from '../../lib/package-states';

export interface ConsoleOrderRow {
  orderNo: string;
  userId: number;
  phone: string;
  kind: number;
  productType: number;
  title: string;
  listFen: number;
  payFen: number;
  state: number;
  createdAt: number;
  paidAt: number | null;
  refundedAt: number | null;
}

const ORDER_COLUMNS = `o.order_no AS orderNo, o.user_id AS userId, u.phone, o.kind, o.product_type AS productType,
  o.title, o.list_fen AS listFen, o.pay_fen AS payFen, o.state, o.created_at AS createdAt, o.paid_at AS paidAt,
  o.refunded_at AS refundedAt`;

export interface OrderQuery {
  /** Order number, customer phone or customer id. */
  q: string;
  /** 0 = any. */
  state: number;
  from?: number;
  to?: number;
  beforeCreatedAt?: number;
  /** Only orders with a payment attempt flagged refund_needed (paid, but the order could not take it). */
  refundNeeded?: boolean;
  /** Only orders with a refund that needs a person (see refundIssueSql); the time the search runs. */
  refundIssueAt?: number;
  limit: number;
}

/** A search hit, with whether one of its payment attempts still needs a refund. */
export type ConsoleOrderHit = ConsoleOrderRow & { refundNeeded: boolean };

const REFUND_NEEDED = 'EXISTS (SELECT 1 FROM payments p WHERE p.order_no = o.order_no AND p.refund_needed = 1)';

/** How long a refund may stay PENDING (WeChat's answer unknown) or PROCESSING before a person should look at it. */
export const REFUND_STALE_MS = 24 * HOUR_MS;

/**
 * A refund row `r` that needs a person (docs/operations.md, 退款待核对): WeChat answered ABNORMAL (the money could not
 * go back to the payer's account); its answer is still unknown (PENDING) or PROCESSING a day after the last change; or
 * WeChat closed an order refund after the order had been marked refunded by it (the order reads 已退款, no money went
 * back). `now` is inlined as an integer literal so the same text serves a column and a condition.
 */
export const refundIssueSql = (now: number): string =>
  `(r.status = 'ABNORMAL'
    OR (r.status IN ('PENDING', 'PROCESSING') AND r.updated_at < ${Math.trunc(now - REFUND_STALE_MS)})
    OR (r.status = 'FAILED' AND r.kind = 'order'
        AND EXISTS (SELECT 1 FROM orders ro WHERE ro.order_no = r.order_no AND ro.out_refund_no = r.out_refund_no)))`;

const refundIssueOf = (now: number) =>
  `EXISTS (SELECT 1 FROM refunds r WHERE r.order_no = o.order_no AND ${refundIssueSql(now)})`;

/** Orders matching a query, newest first. */
export async function searchOrders(db: D1Database, query: OrderQuery): Promise<ConsoleOrderHit[]> {
  const where: string[] = [];
  const binds: unknown[] = [];
  const term = query.q.trim();
  if (term) {
    if (/^1\d{10}$/.test(term)) {
      where.push('o.user_id = (SELECT id FROM users WHERE phone = ?)');
      binds.push(term);
    } else if (/^\d{1,10}$/.test(term)) {
      where.push('o.user_id = ?');
      binds.push(Number(term));
    } else {
      where.push('o.order_no = ?');
      binds.push(term);
    }
  }
  if (query.state) {
    where.push('o.state = ?');
    binds.push(query.state);
  }
  if (query.from !== undefined) {
    where.push('o.created_at >= ?');
    binds.push(query.from);
  }
  if (query.to !== undefined) {
    where.push('o.created_at < ?');
    binds.push(query.to);
  }
  if (query.beforeCreatedAt !== undefined) {
    where.push('o.created_at < ?');
    binds.push(query.beforeCreatedAt);
  }
  if (query.refundNeeded) where.push(REFUND_NEEDED);
  if (query.refundIssueAt !== undefined) where.push(refundIssueOf(query.refundIssueAt));
  const { results } = await db
    .prepare(
      `SELECT ${ORDER_COLUMNS}, ${REFUND_NEEDED} AS refundNeeded FROM orders o JOIN users u ON u.id = o.user_id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY o.created_at DESC LIMIT ? + 0`,
    )
    .bind(...binds, query.limit)
    .all<ConsoleOrderRow & { refundNeeded: number }>();
  return results.map((r) => ({ ...r, refundNeeded: r.refundNeeded === 1 }));
}

export interface ConsoleOrderDetail {
  order:
    | (ConsoleOrderRow & {
        discountFen: number;
        creditFen: number;
        couponFen: number;
        transactionId: string | null;
        outRefundNo: string | null;
        /** The attempt that paid the order (refunded with the order, never on its own). */
        paidOutTradeNo: string | null;
      })
    | undefined;
  payments: {
    outTradeNo: string;
    provider: string;
    amountFen: number;
    state: string;
    transactionId: string | null;
    refundNeeded: number;
    /** The single-payment refund that cleared refund_needed (docs/decisions/180). */
    outRefundNo: string | null;
    note: string;
    createdAt: number;
    paidAt: number | null;
  }[];
  refunds: {
    outRefundNo: string;
    /** 'order': refunded the order; 'payment': refunded one flagged attempt (outTradeNo) only. */
    kind: 'order' | 'payment';
    outTradeNo: string;
    amountFen: number;
    status: string;
    reason: string;
    note: string;
    operatorId: number;
    /** 1: returned all that was left (the order became refunded); 0: a partial refund (decision 205). */
    endsOrder: number;
    endsPackages: number;
    couponOutcome: CouponOutcome | '';
    /** 'balance': the money went to the account balance; 'original': back to the rail of outTradeNo. */
    route: 'original' | 'balance';
    createdAt: number;
  }[];
}

/** One order with its payment attempts and refunds. */
export async function orderDetail(db: D1Database, orderNo: string): Promise<ConsoleOrderDetail> {
  const [order, payments, refunds] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${ORDER_COLUMNS}, o.discount_fen AS discountFen, o.credit_fen AS creditFen, o.coupon_fen AS couponFen,
           o.transaction_id AS transactionId, o.out_refund_no AS outRefundNo, o.paid_out_trade_no AS paidOutTradeNo
         FROM orders o JOIN users u ON u.id = o.user_id WHERE o.order_no = ?`,
      )
      .bind(orderNo),
    db
      .prepare(
        `SELECT out_trade_no AS outTradeNo, provider, amount_fen AS amountFen, state, transaction_id AS transactionId,
           refund_needed AS refundNeeded, out_refund_no AS outRefundNo, note, created_at AS createdAt, paid_at AS paidAt
         FROM payments WHERE order_no = ? ORDER BY created_at`,
      )
      .bind(orderNo),
    db
      .prepare(
        `SELECT out_refund_no AS outRefundNo, kind, out_trade_no AS outTradeNo, amount_fen AS amountFen, status, reason,
           note, operator_id AS operatorId, ends_order AS endsOrder, ends_packages AS endsPackages,
           coupon_outcome AS couponOutcome, route, created_at AS createdAt FROM refunds WHERE order_no = ? ORDER BY id`,
      )
      .bind(orderNo),
  ]);
  return {
    order: order?.results[0] as ConsoleOrderDetail['order'],
    payments: (payments?.results ?? []) as ConsoleOrderDetail['payments'],
    refunds: (refunds?.results ?? []) as ConsoleOrderDetail['refunds'],
  };
}

/** A package the order created, as stored (proxy_packages). */
export interface PackageForUsage {
  id: number;
  name: string;
  state: number;
  productType: number;
  billingMethod: number;
  totalCount: number;
  remainingCount: number;
  dailyLimit: number;
  ipCount: number;
  startsAt: number;
  expiresAt: number;
}

/**
 * What a refund of an order would take back: the packages it created (all of them, with what their usage needs; those
 * in state 1/2/3 are the ones a refund disables) and its commission.
 */
export async function refundEffects(
  db: D1Database,
  orderNo: string,
): Promise<{
  packages: PackageForUsage[];
  commission: { amountFen: number; state: number } | null;
}> {
  const [packages, commission] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT id, name, state, product_type AS productType, billing_method AS billingMethod, total_count AS totalCount,
           remaining_count AS remainingCount, daily_limit AS dailyLimit, ip_count AS ipCount, starts_at AS startsAt,
           expires_at AS expiresAt
         FROM proxy_packages WHERE source = 'order' AND source_ref = ? AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}, ${PACKAGE_STATE.disabled}) ORDER BY id`,
      )
      .bind(orderNo),
    db.prepare('SELECT amount_fen AS amountFen, state FROM commission_entries WHERE order_no = ?').bind(orderNo),
  ]);
  return {
    packages: (packages?.results ?? []) as unknown as PackageForUsage[],
    commission: (commission?.results[0] as { amountFen: number; state: number } | undefined) ?? null,
  };
}
