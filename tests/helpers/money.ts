// Test fixtures for money facts the API does not show cheaply: orders, payments, refunds, packages as bought or granted,
// the catalogue (meals, sale regions), coupons, commission, balance, invoices, company transfers and notices. What a
// table holds after a payment, a refund or a job (typed rows and counts), and the states a test forces on purpose (an
// attempt that failed, a refund left in flight, a payment WeChat refunded by hand). Reads of whole records use
// src/server/db (findOrder, findPayment, findRefund, findSimTransaction, …); these cover the rest. States are the named
// constants of src/lib/*-states.ts. The console's audit log: tests/helpers/operators.ts.
import { env } from 'cloudflare:test';
import { ORDER_KIND } from '../../src/lib/commerce';
import { COMMISSION_STATE } from '../../src/lib/commission-rules';
import type { UserCouponState } from '../../src/lib/coupon-states';
import { ON_OFF } from '../../src/lib/on-off-states';
import { ORDER_STATE } from '../../src/lib/order-states';
import { HOUR_MS } from '../../src/lib/time';
import { PACKAGE_STATE, type PackageState } from '../../src/lib/package-states';
import { type PaymentState, findPayment } from '../../src/server/db/payments';
import {
  type RefundKind,
  type RefundRoute,
  type RefundRowStatus,
  reservePaymentRefund,
} from '../../src/server/db/refunds';
import { commissionReversalStatements } from '../../src/server/domain/commission';
import { count, when, where } from './rows';

// ---- orders ----

/** How many orders, optionally of some kinds (ORDER_KIND) or holding a coupon. */
export const orderCount = (f: { kinds?: number[]; userCouponId?: number } = {}) =>
  count('orders', [
    f.kinds ? [`kind IN (${f.kinds.map(() => '?').join(', ')})`, f.kinds] : undefined,
    when('user_coupon_id = ?', f.userCouponId),
  ]);

/** The renewal orders (auto-renew and the customer's own). */
export const renewalOrderCount = () => orderCount({ kinds: [ORDER_KIND.renew] });

export interface RenewalOrder {
  orderNo: string;
  payFen: number;
  state: number;
}

/** The first renewal order. */
export async function firstRenewalOrder(): Promise<RenewalOrder | null> {
  return env.DB.prepare(
    `SELECT order_no AS orderNo, pay_fen AS payFen, state FROM orders WHERE kind = ${ORDER_KIND.renew} ORDER BY created_at LIMIT 1`,
  ).first<RenewalOrder>();
}

export interface OrderRefundMarks {
  state: number;
  refundedAt: number | null;
  outRefundNo: string | null;
}

/** An order's state and the marks a full refund leaves on it. */
export async function orderRefundMarks(orderNo: string): Promise<OrderRefundMarks | null> {
  return env.DB.prepare(
    'SELECT state, refunded_at AS refundedAt, out_refund_no AS outRefundNo FROM orders WHERE order_no = ?',
  )
    .bind(orderNo)
    .first<OrderRefundMarks>();
}

/** An unpaid order with a pending simulator payment `P<orderNo>`, as checkout leaves it (an hour to pay). */
export async function unpaidOrderWithPayment(
  userId: number,
  orderNo: string,
  payFen: number,
  productType = 10,
): Promise<void> {
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO orders (order_no, user_id, kind, product_type, title, list_fen, pay_fen, state, expires_at, created_at)
       VALUES (?, ?, ?, ?, '测试订单', ?, ?, ?, ?, ?)`,
    ).bind(orderNo, userId, ORDER_KIND.buy, productType, payFen, payFen, ORDER_STATE.pending, now + HOUR_MS, now),
    env.DB.prepare(
      "INSERT INTO payments (out_trade_no, order_no, user_id, provider, amount_fen, state, expires_at, created_at) VALUES (?, ?, ?, 'simulator', ?, 'pending', ?, ?)",
    ).bind(`P${orderNo}`, orderNo, userId, payFen, now + HOUR_MS, now),
  ]);
}

/** Close an unpaid order as the expiry job would, without returning its coupon or closing its WeChat order. */
export async function closeOrderQuietly(orderNo: string, at = Date.now()): Promise<void> {
  await env.DB.prepare(`UPDATE orders SET state = ${ORDER_STATE.closed}, closed_at = ? WHERE order_no = ?`)
    .bind(at, orderNo)
    .run();
}

/** Mark an order paid without any payment (an order the customer can no longer delete). */
export async function forceOrderPaid(orderNo: string): Promise<void> {
  await env.DB.prepare(`UPDATE orders SET state = ${ORDER_STATE.paid} WHERE order_no = ?`).bind(orderNo).run();
}

/** Mark a paid order refunded by a refund number, as a full refund leaves it (without the rest of the refund). */
export async function forceOrderRefunded(orderNo: string, outRefundNo: string): Promise<void> {
  await env.DB.prepare(`UPDATE orders SET state = ${ORDER_STATE.refunded}, out_refund_no = ? WHERE order_no = ?`)
    .bind(outRefundNo, orderNo)
    .run();
}

/** Give an order a title (e.g. one that a spreadsheet would read as a formula). */
export async function setOrderTitle(orderNo: string, title: string): Promise<void> {
  await env.DB.prepare('UPDATE orders SET title = ? WHERE order_no = ?').bind(title, orderNo).run();
}

// ---- payment attempts ----

/** How many payment attempts, optionally of an order, in a state, of a provider, opened for a WeChat payer. */
export const paymentCount = (
  f: { orderNo?: string; state?: PaymentState; provider?: string; withPayer?: boolean; noteContains?: string } = {},
) =>
  count('payments', [
    when('order_no = ?', f.orderNo),
    when('state = ?', f.state),
    when('provider = ?', f.provider),
    f.withPayer ? ['payer_openid IS NOT NULL', []] : undefined,
    when('instr(note, ?) > 0', f.noteContains),
  ]);

/** Whether an attempt is flagged refund_needed. */
export const refundNeeded = async (outTradeNo: string): Promise<boolean | undefined> =>
  (await findPayment(env.DB, outTradeNo))?.refundNeeded;

/** An attempt's note (why it was flagged, and the refund that cleared the flag). */
export const paymentNote = async (outTradeNo: string): Promise<string | undefined> =>
  (await findPayment(env.DB, outTradeNo))?.note;

/** The refund number recorded on an attempt when its flag was cleared by a refund. */
export async function paymentRefundNo(outTradeNo: string): Promise<string | null | undefined> {
  const row = await env.DB.prepare('SELECT out_refund_no AS n FROM payments WHERE out_trade_no = ?')
    .bind(outTradeNo)
    .first<{ n: string | null }>();
  return row ? row.n : undefined;
}

export interface PaymentFlagRow {
  outTradeNo: string;
  refundNeeded: number;
  note: string;
  state: PaymentState;
}

/** Every attempt's flag, note and state, by out_trade_no (to show that a refusal changed none of them). */
export async function paymentFlags(): Promise<PaymentFlagRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT out_trade_no AS outTradeNo, refund_needed AS refundNeeded, note, state FROM payments ORDER BY 1',
  ).all<PaymentFlagRow>();
  return results;
}

/** The out_trade_no of some flagged attempt. */
export async function someFlaggedAttempt(): Promise<string | null> {
  return env.DB.prepare('SELECT out_trade_no FROM payments WHERE refund_needed = 1').first<string>('out_trade_no');
}

/** The attempt stops being offered, as if it failed at the provider (the page then asks for a new attempt). */
export async function failAttempt(outTradeNo: string): Promise<void> {
  await env.DB.prepare("UPDATE payments SET state = 'failed' WHERE out_trade_no = ?").bind(outTradeNo).run();
}

/** Set or clear an attempt's refund_needed flag by hand. */
export async function setRefundNeeded(outTradeNo: string, on: boolean): Promise<void> {
  await env.DB.prepare('UPDATE payments SET refund_needed = ? WHERE out_trade_no = ?')
    .bind(on ? 1 : 0, outTradeNo)
    .run();
}

/** Flag every attempt of an order refund_needed. */
export async function flagOrderAttempts(orderNo: string): Promise<void> {
  await env.DB.prepare('UPDATE payments SET refund_needed = 1 WHERE order_no = ?').bind(orderNo).run();
}

// ---- WeChat payer openids (remembered for JSAPI payment) ----

/** How many WeChat openids are remembered. */
export const openidCount = () => count('wechat_openids');

/** Forget every remembered WeChat openid. */
export async function forgetOpenids(): Promise<void> {
  await env.DB.prepare('DELETE FROM wechat_openids').run();
}

// ---- refunds ----

/** How many refund rows, optionally by status, kind, order, attempt or route. */
export const refundCount = (
  f: {
    status?: RefundRowStatus;
    notStatus?: RefundRowStatus;
    kind?: RefundKind;
    orderNo?: string;
    outTradeNo?: string;
    route?: RefundRoute;
  } = {},
) =>
  count('refunds', [
    when('status = ?', f.status),
    when('status != ?', f.notStatus),
    when('kind = ?', f.kind),
    when('order_no = ?', f.orderNo),
    when('out_trade_no = ?', f.outTradeNo),
    when('route = ?', f.route),
  ]);

/** What an order's refunds that did not fail returned, in fen. */
export async function liveRefundedFen(orderNo: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT coalesce(sum(amount_fen), 0) AS n FROM refunds WHERE order_no = ? AND status != 'FAILED'",
  )
    .bind(orderNo)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The note of the (first) failed refund. */
export async function failedRefundNote(): Promise<string | null> {
  return env.DB.prepare("SELECT note FROM refunds WHERE status = 'FAILED' ORDER BY id LIMIT 1").first<string>('note');
}

/**
 * A payment refund left PENDING by an earlier call whose outcome stayed unknown (the attempt must be flagged): the
 * row the refund action reserves before it asks WeChat, with nothing after it.
 */
export async function pendingPaymentRefund(
  outTradeNo: string,
  outRefundNo: string,
  operatorId: number,
  reason: string,
): Promise<void> {
  const p = await findPayment(env.DB, outTradeNo);
  if (!p) throw new Error(`no payment ${outTradeNo}`);
  const reserved = await reservePaymentRefund(
    env.DB,
    { outRefundNo, orderNo: p.orderNo, outTradeNo, userId: p.userId, amountFen: p.amountFen, operatorId, reason },
    Date.now(),
  );
  if (!reserved) throw new Error(`could not reserve a refund of ${outTradeNo}`);
}

/** A refund row of a paid order in a status, made and last changed at `at` (bypassing the refund action), by operator 1. */
export async function refundRowOfOrder(
  orderNo: string,
  outRefundNo: string,
  status: RefundRowStatus,
  at = Date.now(),
): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO refunds (out_refund_no, order_no, out_trade_no, user_id, amount_fen, total_fen, status, operator_id,
       created_at, updated_at)
     SELECT ?1, order_no, paid_out_trade_no, user_id, pay_fen, pay_fen, ?2, 1, ?3, ?3 FROM orders WHERE order_no = ?4`,
  )
    .bind(outRefundNo, status, at, orderNo)
    .run();
}

/** Set a refund's status by hand (e.g. PROCESSING: WeChat accepted it and will notify the outcome). */
export async function setRefundStatus(outRefundNo: string, status: RefundRowStatus): Promise<void> {
  await env.DB.prepare('UPDATE refunds SET status = ? WHERE out_refund_no = ?').bind(status, outRefundNo).run();
}

/** Make a refund's last change `ms` older (a PENDING refund becomes stale and may be re-sent). */
export async function ageRefund(outRefundNo: string, ms: number): Promise<void> {
  await env.DB.prepare('UPDATE refunds SET updated_at = updated_at - ? WHERE out_refund_no = ?')
    .bind(ms, outRefundNo)
    .run();
}

// ---- the WeChat Pay simulator's side ----

/** How many refunds WeChat (the simulator) accepted, optionally of one transaction. */
export const providerRefundCount = (outTradeNo?: string) =>
  count('pay_simulator_refunds', [when('out_trade_no = ?', outTradeNo)]);

/** What WeChat (the simulator) refunded of a transaction, in fen. */
export async function providerRefundedFen(outTradeNo: string): Promise<number> {
  const row = await env.DB.prepare(
    'SELECT coalesce(sum(amount_fen), 0) AS n FROM pay_simulator_refunds WHERE out_trade_no = ?',
  )
    .bind(outTradeNo)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface ProviderRefundAsk {
  outRefundNo: string;
  amountFen: number;
  totalFen: number;
}

/** The refunds WeChat (the simulator) was asked for, oldest first, optionally of one transaction. */
export async function providerRefunds(outTradeNo?: string): Promise<ProviderRefundAsk[]> {
  const w = where([when('out_trade_no = ?', outTradeNo)]);
  const { results } = await env.DB.prepare(
    `SELECT out_refund_no AS outRefundNo, amount_fen AS amountFen, total_fen AS totalFen FROM pay_simulator_refunds${w.sql} ORDER BY created_at, out_refund_no`,
  )
    .bind(...w.binds)
    .all<ProviderRefundAsk>();
  return results;
}

/** The whole transaction refunded by hand in the merchant platform (WeChat then refuses any further refund). */
export async function refundedByHandAtWeChat(outTradeNo: string, fen: number, outRefundNo = 'RBYHAND'): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO pay_simulator_refunds (out_refund_no, out_trade_no, refund_id, amount_fen, total_fen, status, created_at) VALUES (?, ?, '50BYHAND', ?, ?, 'SUCCESS', 0)",
  )
    .bind(outRefundNo, outTradeNo, fen, fen)
    .run();
}

/** WeChat (the simulator) forgets refunds it accepted (one, or all): the money counts as not returned. */
export async function forgetProviderRefunds(outRefundNo?: string): Promise<void> {
  if (outRefundNo)
    await env.DB.prepare('DELETE FROM pay_simulator_refunds WHERE out_refund_no = ?').bind(outRefundNo).run();
  else await env.DB.prepare('DELETE FROM pay_simulator_refunds').run();
}

/** How many WeChat (simulator) transactions, optionally in a trade state. */
export const simTransactionCount = (tradeState?: string) =>
  count('pay_simulator_transactions', [when('trade_state = ?', tradeState)]);

export interface SimTransactionFacts {
  tradeState: string;
  amountFen: number;
}

/** The (first) WeChat (simulator) transaction's trade state and amount, or null. */
export async function firstSimTransaction(): Promise<SimTransactionFacts | null> {
  return env.DB.prepare(
    'SELECT trade_state AS tradeState, amount_fen AS amountFen FROM pay_simulator_transactions ORDER BY rowid LIMIT 1',
  ).first<SimTransactionFacts>();
}

// ---- packages ----

export interface PackageFacts {
  id: number;
  userId: number;
  /** How the package came: 'order', 'operator', 'welfare', 'red_packet', 'demo', … */
  source: string;
  sourceRef: string;
  totalCount: number;
  remainingCount: number;
  /** Extractions counted on `usageDay` against the daily limit. */
  usedToday: number;
  /** The Shanghai day `usedToday` belongs to. */
  usageDay: string;
  ipCount: number;
  expiresAt: number;
  state: number;
  /** Fixed-IP allocations of the package. */
  allocations: number;
  /** Of those, the ones that expire exactly with the package. */
  expiringWithPackage: number;
}

const PACKAGE_FACTS = `id, user_id AS userId, source, source_ref AS sourceRef, total_count AS totalCount,
  remaining_count AS remainingCount, used_today AS usedToday, usage_day AS usageDay, ip_count AS ipCount, expires_at AS expiresAt, state,
  (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id) AS allocations,
  (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id AND f.expires_at = p.expires_at)
    AS expiringWithPackage`;

/** A package's owner, source, counts (daily use too), expiry, state and fixed-IP allocations; null when there is none. */
export async function packageFacts(id: number): Promise<PackageFacts | null> {
  return env.DB.prepare(`SELECT ${PACKAGE_FACTS} FROM proxy_packages p WHERE id = ?`).bind(id).first<PackageFacts>();
}

/** A user's packages (any state), oldest first. */
export async function packagesOfUser(userId: number): Promise<PackageFacts[]> {
  const { results } = await env.DB.prepare(
    `SELECT ${PACKAGE_FACTS} FROM proxy_packages p WHERE user_id = ? ORDER BY id`,
  )
    .bind(userId)
    .all<PackageFacts>();
  return results;
}

/** The package an order created (source 'order'), or null. */
export async function packageOfOrder(orderNo: string): Promise<PackageFacts | null> {
  return env.DB.prepare(
    `SELECT ${PACKAGE_FACTS} FROM proxy_packages p WHERE source = 'order' AND source_ref = ? ORDER BY id LIMIT 1`,
  )
    .bind(orderNo)
    .first<PackageFacts>();
}

/** The packages granted by a source (the welfare trial, a red packet, an operator), oldest first. */
export async function grantedPackages(source: 'welfare' | 'red_packet' | 'operator'): Promise<PackageFacts[]> {
  const { results } = await env.DB.prepare(`SELECT ${PACKAGE_FACTS} FROM proxy_packages p WHERE source = ? ORDER BY id`)
    .bind(source)
    .all<PackageFacts>();
  return results;
}

/** How many packages, optionally of a user, from a source ('operator': granted in the console) or created by an order. */
export const packageCount = (f: { userId?: number; source?: string; orderNo?: string } = {}) =>
  count('proxy_packages', [
    when('user_id = ?', f.userId),
    when('source = ?', f.source),
    when("source = 'order' AND source_ref = ?", f.orderNo),
  ]);

/** Set what is left of a package (as if the customer had used the rest). */
export async function setRemainingCount(packageId: number, remaining: number): Promise<void> {
  await env.DB.prepare('UPDATE proxy_packages SET remaining_count = ? WHERE id = ?').bind(remaining, packageId).run();
}

/** Use up a share of a package: what is left becomes `percentLeft`% of its total. */
export async function useUpPackageTo(packageId: number, percentLeft: number): Promise<void> {
  await env.DB.prepare('UPDATE proxy_packages SET remaining_count = total_count * ? / 100 WHERE id = ?')
    .bind(percentLeft, packageId)
    .run();
}

/** Set a package's state by hand (e.g. disabled by an operator or a refund, then active again). */
export async function setPackageState(packageId: number, state: PackageState): Promise<void> {
  await env.DB.prepare('UPDATE proxy_packages SET state = ?, updated_at = ? WHERE id = ?')
    .bind(state, Date.now(), packageId)
    .run();
}

/** A red-packet package of the catalogue meal `mealId` for a user, active from `startsAt` to `expiresAt`. */
export async function redPacketPackage(userId: number, mealId: number, startsAt: number, expiresAt: number) {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
       remaining_count, daily_limit, ip_count, starts_at, expires_at, state, source, created_at, updated_at)
     SELECT ?, product_type, billing_method, name, ip_duration_minutes, size, size, 0, 0, ?, ?, ${PACKAGE_STATE.active},
       'red_packet', ?, ? FROM meals WHERE id = ? RETURNING id`,
  )
    .bind(userId, startsAt, expiresAt, now, now, mealId)
    .first<{ id: number }>();
  if (!row) throw new Error('package insert failed');
  return row.id;
}

/** What a package's bought terms were paid, in fen. */
export async function termsPaidFen(packageId: number): Promise<number | null> {
  return env.DB.prepare('SELECT paid_fen FROM package_terms WHERE package_id = ?')
    .bind(packageId)
    .first<number>('paid_fen');
}

/** The terms of a package bought for a meal region (order `orderNo`, one unit of meal 1, paid 1元). */
export async function addRegionTerms(packageId: number, orderNo: string, regionId: number): Promise<void> {
  await env.DB.prepare(
    'INSERT INTO package_terms (package_id, order_no, meal_id, units, region_id, paid_fen) VALUES (?, ?, 1, 1, ?, 100)',
  )
    .bind(packageId, orderNo, regionId)
    .run();
}

/** How many packages an upgrade order still holds as its sources. */
export const activeMergeSources = () => count('order_merge_sources', [when('active = ?', 1)]);

/** Reserve a package as the credit source of a merge order still awaiting payment. */
export async function reserveForMerge(packageId: number, orderNo: string, creditFen: number): Promise<void> {
  await env.DB.prepare('INSERT INTO order_merge_sources (order_no, package_id, credit_fen) VALUES (?, ?, ?)')
    .bind(orderNo, packageId, creditFen)
    .run();
}

/** Release every merge reservation (as when their orders are closed unpaid). */
export async function releaseMergeReservations(): Promise<void> {
  await env.DB.prepare('UPDATE order_merge_sources SET active = 0').run();
}

// ---- the catalogue (meals and sale regions) ----

/** How many meals exist in any state (or carry a name). */
export const mealCount = (name?: string) => count('meals', [when('name = ?', name)]);

/** The id of the meal region named `name` (throws when there is none). */
export async function mealRegionId(name: string): Promise<number> {
  const row = await env.DB.prepare('SELECT id FROM meal_regions WHERE name = ?').bind(name).first<{ id: number }>();
  if (!row) throw new Error(`no meal region ${name}`);
  return row.id;
}

export interface MealRegionSpec {
  id: number;
  name: string;
  province: string;
  provinceKey: string;
  cityKey: string;
  productTypes: number[];
}

/** Offer regions for sale (on) under chosen ids, in one batch. */
export async function addMealRegions(regions: MealRegionSpec[]): Promise<void> {
  await env.DB.batch(
    regions.map((r) =>
      env.DB.prepare(
        `INSERT INTO meal_regions (id, name, province, province_key, city_key, product_types, state)
         VALUES (?, ?, ?, ?, ?, ?, ${ON_OFF.on})`,
      ).bind(r.id, r.name, r.province, r.provinceKey, r.cityKey, r.productTypes.join(',')),
    ),
  );
}

export interface StoredRegion {
  productTypes: string;
  provinceKey: string;
  cityKey: string;
  state: number;
}

/** A sale region's stored product types (comma separated), match keys and state; null when there is none. */
export async function storedRegion(id: number): Promise<StoredRegion | null> {
  return env.DB.prepare(
    'SELECT product_types AS productTypes, province_key AS provinceKey, city_key AS cityKey, state FROM meal_regions WHERE id = ?',
  )
    .bind(id)
    .first<StoredRegion>();
}

// ---- coupons and commission ----

export interface UserCouponFacts {
  state: UserCouponState;
  orderNo: string | null;
}

/** A user's coupon: its state and the order holding or using it. */
export async function userCouponFacts(id: number): Promise<UserCouponFacts | null> {
  return env.DB.prepare('SELECT state, order_no AS orderNo FROM user_coupons WHERE id = ?')
    .bind(id)
    .first<UserCouponFacts>();
}

/** The newest coupon received (optionally by one user). */
export async function newestUserCoupon(userId?: number): Promise<number> {
  const w = where([when('user_id = ?', userId)]);
  const id = await env.DB.prepare(`SELECT max(id) AS id FROM user_coupons${w.sql}`)
    .bind(...w.binds)
    .first<number | null>('id');
  if (!id) throw new Error('no coupon');
  return id;
}

/** Let a coupon lapse (its expiry in the past). */
export async function expireUserCoupon(id: number, at = Date.now() - 1000): Promise<void> {
  await env.DB.prepare('UPDATE user_coupons SET expires_at = ? WHERE id = ?').bind(at, id).run();
}

/** How many coupons customers hold (in any state). */
export const userCouponCount = () => count('user_coupons');

/** The coupons issued from a coupon rule (id and holder), oldest first. */
export async function issuedCoupons(couponId: number): Promise<{ id: number; userId: number }[]> {
  const { results } = await env.DB.prepare(
    'SELECT id, user_id AS userId FROM user_coupons WHERE coupon_id = ? ORDER BY id',
  )
    .bind(couponId)
    .all<{ id: number; userId: number }>();
  return results;
}

/** A coupon rule's stored issued counter: how many were handed out (kept in step by the issuing batch). */
export async function couponIssued(couponId: number): Promise<number | null> {
  return env.DB.prepare('SELECT issued FROM coupons WHERE id = ?').bind(couponId).first<number>('issued');
}

/** The commission that can still be withdrawn (of one promoter, or of all), in fen. */
export async function availableCommissionFen(promoterId?: number): Promise<number> {
  const w = where([[`state = ${COMMISSION_STATE.available}`, []], when('promoter_id = ?', promoterId)]);
  const row = await env.DB.prepare(`SELECT coalesce(sum(amount_fen), 0) AS n FROM commission_entries${w.sql}`)
    .bind(...w.binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The state of an order's commission entry. */
export async function commissionStateOf(orderNo: string): Promise<number | null> {
  return env.DB.prepare('SELECT state FROM commission_entries WHERE order_no = ?').bind(orderNo).first<number>('state');
}

export interface CommissionEntry {
  orderNo: string;
  amountFen: number;
  state: number;
}

/** Every commission entry (accruals, reversals), oldest first. */
export async function commissionEntries(): Promise<CommissionEntry[]> {
  const { results } = await env.DB.prepare(
    'SELECT order_no AS orderNo, amount_fen AS amountFen, state FROM commission_entries ORDER BY id',
  ).all<CommissionEntry>();
  return results;
}

export interface CommissionAccrual {
  promoterId: number;
  inviteeId: number;
  orderNo: string;
  productType: number;
  baseFen: number;
  rateBp: number;
  amountFen: number;
}

/** Record an available commission entry as a paid order would accrue it. */
export async function accrueCommission(c: CommissionAccrual, now = Date.now()): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO commission_entries (promoter_id, invitee_id, order_no, product_type, base_fen, rate_bp, amount_fen,
       state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ${COMMISSION_STATE.available}, ?)`,
  )
    .bind(c.promoterId, c.inviteeId, c.orderNo, c.productType, c.baseFen, c.rateBp, c.amountFen, now)
    .run();
}

/** Reverse an order's commission as a refund does (the statements the refund batch runs). */
export async function reverseCommission(orderNo: string, now = Date.now()): Promise<void> {
  await env.DB.batch(commissionReversalStatements(env.DB, orderNo, now));
}

// ---- balance ----

/** How many balance ledger rows of a kind ('pay', 'topup', …). */
export const ledgerCount = (kind: string) => count('balance_ledger', [when('kind = ?', kind)]);

/** Take money from a customer's balance behind the domain's back (the table's CHECK must refuse going below zero). */
export async function debitBalanceRaw(userId: number, fen: number): Promise<void> {
  await env.DB.prepare('UPDATE customer_balances SET balance_fen = balance_fen - ? WHERE user_id = ?')
    .bind(fen, userId)
    .run();
}

// ---- invoices and company transfers ----

/** How many invoice requests a user has, and what they ask for in total (fen). */
export async function invoiceRequestTotals(userId: number): Promise<{ count: number; fen: number }> {
  const row = await env.DB.prepare(
    'SELECT count(*) AS count, coalesce(sum(amount_fen), 0) AS fen FROM invoice_requests WHERE user_id = ?',
  )
    .bind(userId)
    .first<{ count: number; fen: number }>();
  return row ?? { count: 0, fen: 0 };
}

/** How many company transfers were reserved. */
export const bankTransferCount = () => count('bank_transfers');

// ---- notices the customer receives ----

export interface NoticeText {
  title: string;
  html: string;
}

/** The notices addressed to a user, oldest first. */
export async function noticesOf(userId: number): Promise<NoticeText[]> {
  const { results } = await env.DB.prepare(
    'SELECT title, content_html AS html FROM home_notices WHERE user_id = ? ORDER BY id',
  )
    .bind(userId)
    .all<NoticeText>();
  return results;
}

/** The newest notice with a title. */
export async function newestNoticeTitled(title: string): Promise<NoticeText | null> {
  return env.DB.prepare('SELECT title, content_html AS html FROM home_notices WHERE title = ? ORDER BY id DESC LIMIT 1')
    .bind(title)
    .first<NoticeText>();
}

/** How many notices say a text. */
export async function noticesSaying(text: string): Promise<number> {
  return count('home_notices', [when('instr(content_html, ?) > 0', text)]);
}
