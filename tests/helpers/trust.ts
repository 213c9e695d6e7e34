// Test helpers for the trust features: valid ID numbers, the face simulator, and verified accounts (operators: tests/helpers/operators.ts).
import { env, SELF } from 'cloudflare:test';
import { ORDER_KIND } from '../../src/lib/commerce';
import { COMMISSION_STATE } from '../../src/lib/commission-rules';
import type { COMPANY_STATE } from '../../src/lib/company-states';
import { idCheckChar } from '../../src/lib/identity-number';
import { ORDER_STATE, type OrderState } from '../../src/lib/order-states';
import { VERIFICATION_STATE } from '../../src/lib/trust-states';
import { HOUR_MS } from '../../src/lib/time';
import { findUserByPhone } from '../../src/server/db/users';
import { commissionReversalStatements } from '../../src/server/domain/commission';
import { demoTrustSql } from '../../src/server/seed/trust';
import { BASE, callApi, loginBySms } from './api';

let ipSeq = 1;
/** A fresh client IP so SMS per-IP limits never interfere between helpers. */
export const freshIp = () => `203.0.113.${(ipSeq++ % 250) + 1}`;

/** A valid resident ID number from 17 digits (born 1990-03-07 by default). */
export const validId = (serial = '123', region = '440304', birth = '19900307') => {
  const first17 = `${region}${birth}${serial}`;
  return first17 + idCheckChar(first17);
};

/** Log in a new phone by SMS from its own IP. */
export const newUser = (phone: string) => loginBySms(phone, freshIp());

/** Press 通过 (T) or 不通过 (F) on the development simulator page for a certifyId. */
export async function simulatorVerdict(certifyId: string, verdict: 'T' | 'F'): Promise<Response> {
  return SELF.fetch(`${BASE}/dev/faceverify/${certifyId}`, {
    method: 'POST',
    body: new URLSearchParams({ verdict }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
}

/** Verify a logged-in user through the simulator; returns the certifyId. */
export async function verifyPerson(cookie: string, idNumber: string, name = '张三'): Promise<string> {
  const init = await callApi('Auth.CertifyInit', { name, idNumber }, { cookie });
  if (!init.body.P) throw new Error(init.body.E);
  await simulatorVerdict(init.body.P.certifyId, 'T');
  const res = await callApi('Auth.CertifyResult', { certifyId: init.body.P.certifyId }, { cookie });
  if (res.body.E) throw new Error(res.body.E);
  return init.body.P.certifyId;
}

/** Mark a user verified directly in the database (for tests about what verification unlocks). */
export async function markVerified(phone: string, idHash = `hash-${phone}`): Promise<number> {
  const user = await env.DB.prepare('SELECT id FROM users WHERE phone = ?').bind(phone).first<{ id: number }>();
  if (!user) throw new Error(`no user ${phone}`);
  await env.DB.batch([
    env.DB.prepare('UPDATE users SET is_identity_auth = 1 WHERE id = ?').bind(user.id),
    env.DB.prepare(
      "INSERT INTO user_identities (user_id, id_hash, name_enc, id_no_enc, name_masked, id_masked, verification_id, verified_at) VALUES (?, ?, 'x', 'x', '*三', '4403**********1234', 0, 0)",
    ).bind(user.id, idHash),
  ]);
  return user.id;
}

/**
 * A single number from a query.
 * @deprecated SQL in tests lives in named fixtures: kept only for the test files not yet moved to them.
 */
export async function scalar(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

/** Load the demo trust data (red packet launch, welfare meal, notices, promotion materials), one statement at a time. */
export async function seedDemoTrust(now = Date.now()): Promise<void> {
  for (const stmt of demoTrustSql(now)
    .split(/;\n/)
    .map((s) => s.trim())
    .filter(Boolean))
    await env.DB.prepare(stmt).run();
}

/** The id of the user holding a phone (throws when there is none). */
export async function userIdOf(phone: string): Promise<number> {
  const user = await findUserByPhone(env.DB, phone);
  if (!user) throw new Error(`no user ${phone}`);
  return user.id;
}

const countOf = async (stmt: D1PreparedStatement): Promise<number> => (await stmt.first<{ n: number }>())?.n ?? 0;

// --- real-name identity ---

/** How many accounts are real-name verified. */
export const verifiedUserCount = () =>
  countOf(env.DB.prepare('SELECT count(*) AS n FROM users WHERE is_identity_auth = 1'));

/** How many identities are bound to accounts. */
export const boundIdentityCount = () => countOf(env.DB.prepare('SELECT count(*) AS n FROM user_identities'));

/** The identity keys (hashes) bound to accounts, by user. */
export async function boundIdentityHashes(): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT id_hash FROM user_identities ORDER BY user_id').all<{
    id_hash: string;
  }>();
  return results.map((r) => r.id_hash);
}

/** Rebind an identity to another key, as an operator moving it off an account would leave the old key free. */
export async function moveIdentityKey(fromHash: string, toHash = 'moved'): Promise<void> {
  await env.DB.prepare('UPDATE user_identities SET id_hash = ? WHERE id_hash = ?').bind(toHash, fromHash).run();
}

/** Every stored identity and verification row as JSON text (to prove what is never stored in the clear). */
export async function identityStorageText(): Promise<{ identityRows: number; text: string }> {
  const identities = await env.DB.prepare('SELECT * FROM user_identities').all();
  const verifications = await env.DB.prepare('SELECT * FROM identity_verifications').all();
  return {
    identityRows: identities.results.length,
    text: JSON.stringify(identities.results) + JSON.stringify(verifications.results),
  };
}

/** How many face verifications were started: all, one phone's, or those ending in a state. */
export async function verificationCount(by: { phone?: string; state?: number } = {}): Promise<number> {
  if (by.phone !== undefined)
    return countOf(
      env.DB.prepare(
        'SELECT count(*) AS n FROM identity_verifications WHERE user_id = (SELECT id FROM users WHERE phone = ?)',
      ).bind(by.phone),
    );
  if (by.state !== undefined)
    return countOf(env.DB.prepare('SELECT count(*) AS n FROM identity_verifications WHERE state = ?').bind(by.state));
  return countOf(env.DB.prepare('SELECT count(*) AS n FROM identity_verifications'));
}

/** How many verifications found the identity already bound to another account. */
export const takenVerificationCount = () => verificationCount({ state: VERIFICATION_STATE.taken });

/** How many face simulator sessions exist (or only those with a verdict). */
export const simulatorSessionCount = (decided = false) =>
  countOf(
    env.DB.prepare(`SELECT count(*) AS n FROM face_simulator_sessions${decided ? ' WHERE verdict IS NOT NULL' : ''}`),
  );

/** A face simulator session waiting for a verdict (as the simulator provider's init leaves one). */
export async function addSimulatorSession(certifyId: string, nameMasked = '*三'): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO face_simulator_sessions (certify_id, outer_order_no, name_masked, return_url, created_at) VALUES (?, 'o', ?, 'https://portal.test/', 0)",
  )
    .bind(certifyId, nameMasked)
    .run();
}

type CompanyState = (typeof COMPANY_STATE)[keyof typeof COMPANY_STATE];

/** How many licence images were uploaded (or reserved), optionally only those still reserved (no type yet). */
export const licenceUploadCount = (reservedOnly = false) =>
  countOf(env.DB.prepare(`SELECT count(*) AS n FROM company_licence_uploads${reservedOnly ? " WHERE mime = ''" : ''}`));

/** How many times an application moved from one state to another (COMPANY_STATE). */
export const companyTransitionCount = (from: CompanyState, to: CompanyState) =>
  countOf(
    env.DB.prepare('SELECT count(*) AS n FROM company_auth_events WHERE from_state = ? AND to_state = ?').bind(
      from,
      to,
    ),
  );

/** The newest company verification application's id. */
export async function newestCompanyApplication(): Promise<number> {
  const ids = await companyApplicationIds();
  const id = ids.at(-1);
  if (id === undefined) throw new Error('no company application');
  return id;
}

/** The ids of the company verification applications, oldest first. */
export async function companyApplicationIds(): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT id FROM company_auths ORDER BY id').all<{ id: number }>();
  return results.map((r) => r.id);
}

// --- welfare, red packets, notices, account settings ---

/** The packages granted by a growth source (the welfare trial or a red packet), with what is left on them. */
export async function grantedPackages(source: 'welfare' | 'red_packet'): Promise<{ remainingCount: number }[]> {
  const { results } = await env.DB.prepare('SELECT remaining_count FROM proxy_packages WHERE source = ? ORDER BY id')
    .bind(source)
    .all<{ remaining_count: number }>();
  return results.map((r) => ({ remainingCount: r.remaining_count }));
}

/** Change a red packet launch's budget or end time. */
export async function changeRedLaunch(id: number, change: { budget?: number; endsAt?: number }): Promise<void> {
  if (change.budget !== undefined)
    await env.DB.prepare('UPDATE red_launches SET budget = ? WHERE id = ?').bind(change.budget, id).run();
  if (change.endsAt !== undefined)
    await env.DB.prepare('UPDATE red_launches SET ends_at = ? WHERE id = ?').bind(change.endsAt, id).run();
}

/** How many red packets a launch has handed out (its counter). */
export const redLaunchReceived = (id: number) =>
  countOf(env.DB.prepare('SELECT received AS n FROM red_launches WHERE id = ?').bind(id));

/** How many red packets were received (records). */
export const redRecordCount = () => countOf(env.DB.prepare('SELECT count(*) AS n FROM red_records'));

/** How many one-time phone change grants are outstanding. */
export const phoneChangeGrantCount = () => countOf(env.DB.prepare('SELECT count(*) AS n FROM phone_change_grants'));

// --- promotion ---

/** How many invitations were recorded (or only those carrying a search keyword). */
export const invitationCount = (keyword?: string) =>
  keyword === undefined
    ? countOf(env.DB.prepare('SELECT count(*) AS n FROM invitations'))
    : countOf(env.DB.prepare('SELECT count(*) AS n FROM invitations WHERE keyword = ?').bind(keyword));

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

/** Force an order into a state (e.g. closed before its money arrives). */
export async function setOrderState(orderNo: string, state: OrderState): Promise<void> {
  await env.DB.prepare('UPDATE orders SET state = ? WHERE order_no = ?').bind(state, orderNo).run();
}

/** Reverse an order's commission as a refund does (the statements the refund batch runs). */
export async function reverseCommission(orderNo: string, now = Date.now()): Promise<void> {
  await env.DB.batch(commissionReversalStatements(env.DB, orderNo, now));
}

export interface CommissionEntry {
  orderNo: string;
  amountFen: number;
  state: number;
}

/** Every commission entry (accruals, reversals), oldest first. */
export async function commissionEntries(): Promise<CommissionEntry[]> {
  const { results } = await env.DB.prepare(
    'SELECT order_no, amount_fen, state FROM commission_entries ORDER BY id',
  ).all<{ order_no: string; amount_fen: number; state: number }>();
  return results.map((r) => ({ orderNo: r.order_no, amountFen: r.amount_fen, state: r.state }));
}

/** The sum of the commission still available to withdraw (entries in the available state). */
export async function availableCommissionFen(): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT coalesce(sum(amount_fen), 0) AS n FROM commission_entries WHERE state = ${COMMISSION_STATE.available}`,
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface Withdrawal {
  id: number;
  amountFen: number;
}

/** Every withdrawal request, oldest first. */
export async function withdrawals(): Promise<Withdrawal[]> {
  const { results } = await env.DB.prepare('SELECT id, amount_fen FROM withdrawals ORDER BY id').all<{
    id: number;
    amount_fen: number;
  }>();
  return results.map((r) => ({ id: r.id, amountFen: r.amount_fen }));
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

/** How many red packets a launch handed out (records). */
export async function redRecordsOfLaunch(launchId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM red_records WHERE launch_id = ?')
    .bind(launchId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

// --- coupons (campaigns) ---

/** The coupons issued from a coupon rule (id and holder), oldest first. */
export async function issuedCoupons(couponId: number): Promise<{ id: number; userId: number }[]> {
  const { results } = await env.DB.prepare('SELECT id, user_id FROM user_coupons WHERE coupon_id = ? ORDER BY id')
    .bind(couponId)
    .all<{ id: number; user_id: number }>();
  return results.map((r) => ({ id: r.id, userId: r.user_id }));
}

/** A coupon rule's stored issued counter (kept in step with the issued coupons by the issuing batch). */
export async function couponIssuedCounter(couponId: number): Promise<number | null> {
  const row = await env.DB.prepare('SELECT issued FROM coupons WHERE id = ?')
    .bind(couponId)
    .first<{ issued: number }>();
  return row?.issued ?? null;
}
