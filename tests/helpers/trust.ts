// Test helpers for the trust features: valid ID numbers, the face simulator, real-name identity and verified accounts,
// company verification, welfare and red packets, and promotion (invitations, withdrawals). Commission and granted
// packages: tests/helpers/money.ts; operators: tests/helpers/operators.ts.
import { env, SELF } from 'cloudflare:test';
import { WITHDRAWAL_STATE } from '../../src/lib/commission-rules';
import { COMPANY_STATE } from '../../src/lib/company-states';
import { idCheckChar } from '../../src/lib/identity-number';
import { VERIFICATION_STATE } from '../../src/lib/trust-states';
import { demoTrustSql } from '../../src/server/seed/trust';
import { userIdOf } from './accounts';
import { BASE, callApi, loginBySms } from './api';
import { count, seedStatements, when } from './rows';

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

/** Mark a registered phone's owner real-name verified (the flag only, for tests about what it unlocks). */
export async function markIdentityVerified(phone: string): Promise<void> {
  await env.DB.prepare('UPDATE users SET is_identity_auth = 1 WHERE phone = ?').bind(phone).run();
}

/** Mark a user verified directly in the database, with a bound identity (for tests about what verification unlocks). */
export async function markVerified(phone: string, idHash = `hash-${phone}`): Promise<number> {
  const userId = await userIdOf(phone);
  await env.DB.batch([
    env.DB.prepare('UPDATE users SET is_identity_auth = 1 WHERE id = ?').bind(userId),
    env.DB.prepare(
      "INSERT INTO user_identities (user_id, id_hash, name_enc, id_no_enc, name_masked, id_masked, verification_id, verified_at) VALUES (?, ?, 'x', 'x', '*三', '4403**********1234', 0, 0)",
    ).bind(userId, idHash),
  ]);
  return userId;
}

/** Load the demo trust data (red packet launch, welfare meal, notices, promotion materials), one statement at a time. */
export async function seedDemoTrust(now = Date.now()): Promise<void> {
  for (const stmt of seedStatements(demoTrustSql(now))) await env.DB.prepare(stmt).run();
}

// --- real-name identity ---

/** How many accounts are real-name verified. */
export const verifiedUserCount = () => count('users', [['is_identity_auth = 1', []]]);

/** How many identities are bound to accounts. */
export const boundIdentityCount = () => count('user_identities');

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

/** How many face verifications were started: all, one phone's, those ending in a state (or both). */
export const verificationCount = (by: { phone?: string; state?: number } = {}) =>
  count('identity_verifications', [
    when('user_id = (SELECT id FROM users WHERE phone = ?)', by.phone),
    when('state = ?', by.state),
  ]);

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

/** How many verifications found the identity already bound to another account. */
export const takenVerificationCount = () => verificationCount({ state: VERIFICATION_STATE.taken });

/** How many face simulator sessions exist (or only those with a verdict). */
export const simulatorSessionCount = (decided = false) =>
  count('face_simulator_sessions', [decided ? ['verdict IS NOT NULL', []] : undefined]);

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
  count('company_licence_uploads', [reservedOnly ? ["mime = ''", []] : undefined]);

/** How many company application events there are: of one application, from a state, to a state (COMPANY_STATE). */
export const companyEventCount = (f: { applicationId?: number; from?: CompanyState; to?: CompanyState } = {}) =>
  count('company_auth_events', [
    when('company_auth_id = ?', f.applicationId),
    when('from_state = ?', f.from),
    when('to_state = ?', f.to),
  ]);

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

/** A completed licence upload (a PNG) of a user at `now`; returns its id. */
export async function addLicenceUpload(userId: number, now = Date.now()): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO company_licence_uploads (user_id, r2_key, mime, size, created_at) VALUES (?, ?, 'image/png', 10, ?)
     RETURNING id`,
  )
    .bind(userId, `private/company-licence/${userId}-${now}.png`, now)
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/** Mark a customer's 企业认证 passed for a company name (as the support review would), with its licence upload. */
export async function approveCompany(userId: number, name: string): Promise<void> {
  const now = Date.now();
  const upload = await addLicenceUpload(userId, now);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO company_auths (user_id, company_name, credit_code, credit_hash, legal_person, licence_upload_id,
         state, created_at, reviewed_at) VALUES (?, ?, 'x', ?, '张三', ?, ${COMPANY_STATE.approved}, ?, ?)`,
    ).bind(userId, name, `hash-${userId}`, upload, now, now),
    env.DB.prepare(`UPDATE users SET company_auth_state = ${COMPANY_STATE.approved} WHERE id = ?`).bind(userId),
  ]);
}

/** Replace every company application by one pending application of the user (the user marked pending); returns its id. */
export async function onlyPendingCompanyApplication(
  userId: number,
  creditHash: string,
  uploadId: number,
  now: number,
): Promise<number> {
  const [, , , inserted] = await env.DB.batch<{ id: number }>([
    env.DB.prepare('DELETE FROM company_auth_events'),
    env.DB.prepare('DELETE FROM company_auths'),
    env.DB.prepare('UPDATE users SET company_auth_state = ? WHERE id = ?').bind(COMPANY_STATE.pending, userId),
    env.DB.prepare(
      `INSERT INTO company_auths (user_id, company_name, credit_code, credit_hash, legal_person, licence_upload_id,
         state, created_at) VALUES (?, '上海示例科技有限公司', '91350100M000100Y43', ?, '张三', ?, ?, ?) RETURNING id`,
    ).bind(userId, creditHash, uploadId, COMPANY_STATE.pending, now),
  ]);
  return inserted?.results[0]?.id ?? 0;
}

/** Set a phone's company state directly (e.g. approved, to see what the identity label shows next to it). */
export async function setCompanyState(phone: string, state: CompanyState): Promise<void> {
  await env.DB.prepare('UPDATE users SET company_auth_state = ? WHERE phone = ?').bind(state, phone).run();
}

/** Rename a customer's certified company (as if the certificate named it so). */
export async function renameCertifiedCompany(userId: number, name: string): Promise<void> {
  await env.DB.prepare('UPDATE company_auths SET company_name = ? WHERE user_id = ?').bind(name, userId).run();
}

// --- welfare, red packets, account settings ---

/** Change a red packet launch's budget or end time. */
export async function changeRedLaunch(id: number, change: { budget?: number; endsAt?: number }): Promise<void> {
  if (change.budget !== undefined)
    await env.DB.prepare('UPDATE red_launches SET budget = ? WHERE id = ?').bind(change.budget, id).run();
  if (change.endsAt !== undefined)
    await env.DB.prepare('UPDATE red_launches SET ends_at = ? WHERE id = ?').bind(change.endsAt, id).run();
}

/** How many red packets a launch has handed out (its counter). */
export const redLaunchReceived = async (id: number): Promise<number> =>
  (await env.DB.prepare('SELECT received FROM red_launches WHERE id = ?').bind(id).first<number>('received')) ?? 0;

/** How many red packets were received (records), optionally of one launch. */
export const redRecordCount = (launchId?: number) => count('red_records', [when('launch_id = ?', launchId)]);

/** How many one-time phone change grants are outstanding. */
export const phoneChangeGrantCount = () => count('phone_change_grants');

// --- promotion ---

/** How many invitations were recorded (or only those carrying a search keyword). */
export const invitationCount = (keyword?: string) => count('invitations', [when('keyword = ?', keyword)]);

export interface Withdrawal {
  id: number;
  amountFen: number;
  /** WITHDRAWAL_STATE */
  state: number;
  /** How many state changes it has recorded. */
  events: number;
}

/** Every withdrawal request, oldest first. */
export async function withdrawals(): Promise<Withdrawal[]> {
  const { results } = await env.DB.prepare(
    `SELECT id, amount_fen AS amountFen, state,
       (SELECT count(*) FROM withdrawal_events e WHERE e.withdrawal_id = w.id) AS events
     FROM withdrawals w ORDER BY id`,
  ).all<Withdrawal>();
  return results;
}

/** Replace every withdrawal by one requested withdrawal of 100元 (ref `ref`) of a user; returns its id. */
export async function onlyRequestedWithdrawal(userId: number, ref: string, now: number): Promise<number> {
  const [, , inserted] = await env.DB.batch<{ id: number }>([
    env.DB.prepare('DELETE FROM withdrawal_events'),
    env.DB.prepare('DELETE FROM withdrawals'),
    env.DB.prepare(
      `INSERT INTO withdrawals (ref, user_id, amount_fen, account_name, account_no, state, created_at, updated_at)
       VALUES (?, ?, 10000, '张三', 'zhang@example.com', ?, ?, ?) RETURNING id`,
    ).bind(ref, userId, WITHDRAWAL_STATE.requested, now, now),
  ]);
  return inserted?.results[0]?.id ?? 0;
}
