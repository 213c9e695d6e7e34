// Test helpers for commerce: the demo catalogue, verified buyers, the payment simulator and notifications.
import { env, SELF } from 'cloudflare:test';
import type { ActionInput } from '../../src/lib/api-core';
import { SIMULATOR_MERCHANT, simulatorKeys } from '../../src/server/providers/pay/simulator';
import {
  buildSignedNotification,
  buildSignedRefundNotification,
  type RefundNotificationInput,
  type SimulatedTransaction,
} from '../../src/server/providers/pay/simulator-protocol';
import { importPrivateKeyPem, randomNonce } from '../../src/server/providers/pay/wechat-crypto';
import { COMPANY_STATE } from '../../src/lib/company-states';
import { demoCommerceSql } from '../../src/server/seed/commerce';
import { BASE, callApi, loginBySms, resetDb } from './api';

/** Empty the database (packages first: they reference users) and load the demo catalogue and coupons. */
export async function resetWithCatalogue(): Promise<void> {
  await env.DB.prepare('DELETE FROM proxy_packages').run();
  await resetDb();
  await seedCatalogue();
}

/** Load the demo catalogue and coupons. */
export async function seedCatalogue(): Promise<void> {
  const sql = demoCommerceSql(Date.now());
  const stmts = sql
    .split(/;\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean);
  await env.DB.batch(stmts.map((s) => env.DB.prepare(s)));
}

let ipCounter = 1;

/** A logged-in, real-name verified user (cookie). */
export async function verifiedBuyer(phone: string): Promise<string> {
  const cookie = await loginBySms(phone, `198.51.100.${(ipCounter++ % 200) + 20}`);
  await markIdentityVerified(phone);
  return cookie;
}

/** Mark a registered phone's owner real-name verified (the flag only, for tests about what it unlocks). */
export async function markIdentityVerified(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE users SET is_identity_auth = 1 WHERE phone = ?').bind(phone).run();
}

/** The user id of a phone. */
export async function userId(phone: string): Promise<number> {
  const row = await env.DB.prepare('SELECT id FROM users WHERE phone = ?').bind(phone).first<{ id: number }>();
  if (!row) throw new Error('no user');
  return row.id;
}

/** The actions that place an order. */
type PlacingAction = 'PayOrder.BuyProxy' | 'PayOrder.RenewProxy' | 'ProxyUpgrade.mergeProxy';

/** Place an order through an action and fail loudly on E. */
export async function place<N extends PlacingAction>(action: N, params: ActionInput<N>, cookie: string) {
  const res = await callApi(action, params, { cookie });
  if (!res.body.P) throw new Error(`${action}: ${res.body.E}`);
  return res.body.P;
}

/** The out_trade_no in a simulator code_url. */
export const outTradeNoOf = (codeUrl: string): string => new URL(codeUrl, BASE).searchParams.get('out_trade_no') ?? '';

/** Press "pay" on the simulator page (optionally without sending the notification). */
export async function payInSimulator(codeUrl: string, skipNotify = false): Promise<Response> {
  const form = new URLSearchParams({ out_trade_no: outTradeNoOf(codeUrl) });
  if (skipNotify) form.set('skip_notify', '1');
  return SELF.fetch(`${BASE}/dev/wechatpay/pay`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** A notification for a transaction, signed with the simulator's platform key (or another key) as WeChat would. */
export async function notification(
  t: Partial<SimulatedTransaction> & { outTradeNo: string; amountTotalFen: number },
  o: { nowMs?: number; probe?: boolean; platformPrivatePem?: string } = {},
): Promise<{ headers: Record<string, string>; body: string }> {
  const keys = await simulatorKeys(env.DB, false, Date.now());
  return buildSignedNotification({
    transaction: {
      mchid: SIMULATOR_MERCHANT.mchid,
      appid: SIMULATOR_MERCHANT.appid,
      tradeState: 'SUCCESS',
      transactionId: `4200${Date.now()}`,
      successTimeMs: Date.now(),
      ...t,
    },
    apiV3Key: keys.apiV3Key,
    platformPrivateKey: await importPrivateKeyPem(o.platformPrivatePem ?? keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: o.nowMs ?? Date.now(),
    nonce: randomNonce(),
    ...(o.probe ? { probe: true } : {}),
  });
}

/** A refund notification (REFUND.SUCCESS / CLOSED / ABNORMAL), signed with the simulator's platform key as WeChat would. */
export async function refundNotification(
  refund: RefundNotificationInput['refund'],
  o: { eventType?: string; mchid?: string } = {},
): Promise<{ headers: Record<string, string>; body: string }> {
  const keys = await simulatorKeys(env.DB, false, Date.now());
  return buildSignedRefundNotification({
    mchid: o.mchid ?? SIMULATOR_MERCHANT.mchid,
    refund,
    apiV3Key: keys.apiV3Key,
    platformPrivateKey: await importPrivateKeyPem(keys.platformPrivatePem),
    platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
    nowMs: Date.now(),
    nonce: randomNonce(),
    ...(o.eventType ? { eventType: o.eventType } : {}),
  });
}

/** POST a notification to the real notify route. */
export const postNotify = (n: { headers: Record<string, string>; body: string }) =>
  SELF.fetch(`${BASE}/pay/notify/wechat`, { method: 'POST', headers: n.headers, body: n.body });

/** One row's number. */
export async function scalar(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

/** Give a user an extraction key stored as given (rate limit 100 a second), for /extract calls with that key. */
export async function giveExtractionKey(userId: number, key: string): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, rate_limit, created_at, updated_at)
     VALUES (?, ?, 'aeskey0000000001', 'aesiv00000000001', 100, ?, ?)`,
  )
    .bind(userId, key, now, now)
    .run();
}

// ---- Fixtures of other domains that the money and console tests need (accounts, sessions, retention, trust): the
// lead may move them next to their domain's fixtures. ----

/** Expire sessions: one user's, or everyone's (the daily purge then removes them). */
export async function expireSessions(userId?: number): Promise<void> {
  if (userId === undefined) await env.DB.prepare('UPDATE sessions SET expires_at = 1').run();
  else await env.DB.prepare('UPDATE sessions SET expires_at = 1 WHERE user_id = ?').bind(userId).run();
}

/** Date a phone's SMS codes at the epoch (older than any retention). */
export async function ageSmsCodes(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE sms_codes SET created_at = 1 WHERE phone = ?').bind(phone).run();
}

async function countOf(table: 'sessions' | 'sms_codes' | 'extract_logs' | 'ip_assignments' | 'login_attempts') {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>('n')) ?? 0;
}

/** How many customer sessions exist, optionally of one user. */
export async function sessionCount(userId?: number): Promise<number> {
  if (userId === undefined) return countOf('sessions');
  return (
    (await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').bind(userId).first<number>('n')) ?? 0
  );
}

/** How many SMS codes are stored. */
export const smsCodeCount = () => countOf('sms_codes');

/** `n` extraction log rows of user 1 dated `at` (written 100 to a batch). */
export async function extractLogsAt(n: number, at: number): Promise<void> {
  const stmts = Array.from({ length: n }, () =>
    env.DB.prepare(
      "INSERT INTO extract_logs (user_id, client_ip, requested, returned, code, created_at) VALUES (1, '192.0.2.1', 1, 1, 0, ?)",
    ).bind(at),
  );
  for (let i = 0; i < stmts.length; i += 100) await env.DB.batch(stmts.slice(i, i + 100));
}

/** An IP lease of user 1 handed out at `assignedAt` and running until `expiresAt`. */
export async function ipAssignment(assignedAt: number, expiresAt: number): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day, assigned_at, expires_at)
     VALUES (1, 1, 1, 10, '203.0.113.9', 8000, 'http', 'x', '电信', '2026-01-01', ?, ?)`,
  )
    .bind(assignedAt, expiresAt)
    .run();
}

/** Login attempts from one address at the given times. */
export async function loginAttemptsAt(...ats: number[]): Promise<void> {
  await env.DB.batch(
    ats.map((at) =>
      env.DB.prepare("INSERT INTO login_attempts (client_ip, created_at) VALUES ('192.0.2.1', ?)").bind(at),
    ),
  );
}

/** How many rows the retention purge's tables hold. */
export const retainedRows = async () => ({
  extractLogs: await countOf('extract_logs'),
  ipAssignments: await countOf('ip_assignments'),
  loginAttempts: await countOf('login_attempts'),
});

export interface RetentionRun {
  retentionDays: number;
  rowsRemoved: number;
  finishedAt: number | null;
}

/** The newest retention run as recorded. */
export async function latestRetentionRun(): Promise<RetentionRun | null> {
  return env.DB.prepare(
    'SELECT retention_days AS retentionDays, rows_removed AS rowsRemoved, finished_at AS finishedAt FROM retention_runs ORDER BY id DESC LIMIT 1',
  ).first<RetentionRun>();
}

/** A customer row with a chosen id and phone (nothing else), e.g. to search by id and phone tail. */
export async function customerWithId(id: number, phone: string): Promise<void> {
  const now = Date.now();
  await env.DB.prepare('INSERT INTO users (id, phone, created_at, updated_at) VALUES (?, ?, ?, ?)')
    .bind(id, phone, now, now)
    .run();
}

/** Lock a customer's password login until `until` after five failures. */
export async function lockCustomer(userId: number, until: number): Promise<void> {
  await env.DB.prepare('UPDATE users SET failed_logins = 5, locked_until = ? WHERE id = ?').bind(until, userId).run();
}

/** How many changes of a customer the proxy nodes' change feed carries. */
export async function customerFeedChanges(userId: number): Promise<number> {
  return (
    (await env.DB.prepare("SELECT count(*) AS n FROM node_changes WHERE kind = 'u' AND ref = ?")
      .bind(userId)
      .first<number>('n')) ?? 0
  );
}

/** How SQLite would run the customer search by phone tail (the EXPLAIN QUERY PLAN details, joined). */
export async function phoneTailSearchPlan(tail: string): Promise<string> {
  const plan = await env.DB.prepare('EXPLAIN QUERY PLAN SELECT id FROM users u WHERE substr(u.phone, -4) = ?')
    .bind(tail)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail).join(' ');
}

/** A statement that fails (it empties a customer's NOT NULL phone), to show a batch that fails as a whole. */
export const failingCustomerChange = (userId: number): D1PreparedStatement =>
  env.DB.prepare('UPDATE users SET phone = NULL WHERE id = ?').bind(userId);

/** Try to rewrite an operator's audit rows (the append-only trigger must refuse). */
export const rewriteAuditRows = (operatorId: number) =>
  env.DB.prepare('UPDATE audit_log SET reason = ? WHERE operator_id = ?').bind('x', operatorId).run();

/** Try to delete an operator's audit rows (the append-only trigger must refuse). */
export const deleteAuditRows = (operatorId: number) =>
  env.DB.prepare('DELETE FROM audit_log WHERE operator_id = ?').bind(operatorId).run();

/** Personal verifications of a user, the i-th made at `from + i` in `stateOf(i)`, with masked and encrypted fields. */
export async function personalVerifications(userId: number, n: number, stateOf: (i: number) => number, from: number) {
  await env.DB.batch(
    Array.from({ length: n }, (_, i) =>
      env.DB.prepare(
        `INSERT INTO identity_verifications (user_id, outer_order_no, certify_id, provider, name_enc, id_no_enc, id_hash,
           id_masked, name_masked, state, created_at) VALUES (?, ?, ?, 'simulator', 'ENC-NAME', 'ENC-ID', ?, ?, '张*', ?, ?)`,
      ).bind(userId, `o${i}`, `c${i}`, `h${i}`, `1101**********${String(i).padStart(4, '0')}`, stateOf(i), from + i),
    ),
  );
}

/** Mark a customer's 企业认证 passed for a company name (as the support review would), with its licence upload. */
export async function approveCompany(userId: number, name: string): Promise<void> {
  const now = Date.now();
  const up = await env.DB.prepare(
    `INSERT INTO company_licence_uploads (user_id, r2_key, mime, size, created_at) VALUES (?, ?, 'image/png', 1, ?)
     RETURNING id`,
  )
    .bind(userId, `private/test/${userId}-${now}.png`, now)
    .first<{ id: number }>();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO company_auths (user_id, company_name, credit_code, credit_hash, legal_person, licence_upload_id,
         state, created_at, reviewed_at) VALUES (?, ?, 'x', ?, '张三', ?, ${COMPANY_STATE.approved}, ?, ?)`,
    ).bind(userId, name, `hash-${userId}`, up?.id, now, now),
    env.DB.prepare(`UPDATE users SET company_auth_state = ${COMPANY_STATE.approved} WHERE id = ?`).bind(userId),
  ]);
}

/** Rename a customer's certified company (as if the certificate named it so). */
export async function renameCertifiedCompany(userId: number, name: string): Promise<void> {
  await env.DB.prepare('UPDATE company_auths SET company_name = ? WHERE user_id = ?').bind(name, userId).run();
}

/** How many WeChat openids are remembered. */
export const openidCount = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM wechat_openids').first<number>('n')) ?? 0;

/** Forget every remembered WeChat openid. */
export async function forgetOpenids(): Promise<void> {
  await env.DB.prepare('DELETE FROM wechat_openids').run();
}
