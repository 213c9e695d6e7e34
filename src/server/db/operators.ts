// Queries for operator accounts and operator sessions (migrations/0015). Only the SHA-256 of a session token is stored.
import type { OperatorRole } from '../../lib/operator-roles';
import { type SessionTimes, type SessionTimesRow, sessionTimesOf, storedUserAgent } from './sessions';
import { reserveLockoutAttempt, reserveNameLockoutAttempt } from './users';
import { ACCOUNT_STATUS } from '../../lib/console-states';

export interface OperatorRecord {
  id: number;
  username: string;
  displayName: string;
  role: OperatorRole;
  status: 1 | 2;
  passwordHash: string;
  totpSecretEnc: string | null;
  totpLastStep: number;
  failedLogins: number;
  lockedUntil: number;
  lastLoginAt: number | null;
  createdAt: number;
}

interface OperatorRow {
  id: number;
  username: string;
  display_name: string;
  role: OperatorRole;
  status: 1 | 2;
  password_hash: string;
  totp_secret_enc: string | null;
  totp_last_step: number;
  failed_logins: number;
  locked_until: number;
  last_login_at: number | null;
  created_at: number;
}

const mapOperator = (r: OperatorRow): OperatorRecord => ({
  id: r.id,
  username: r.username,
  displayName: r.display_name,
  role: r.role,
  status: r.status,
  passwordHash: r.password_hash,
  totpSecretEnc: r.totp_secret_enc,
  totpLastStep: r.totp_last_step,
  failedLogins: r.failed_logins,
  lockedUntil: r.locked_until,
  lastLoginAt: r.last_login_at,
  createdAt: r.created_at,
});

/** An operator by login name (case-insensitive), or null. */
export async function findOperatorByUsername(db: D1Database, username: string): Promise<OperatorRecord | null> {
  const row = await db.prepare('SELECT * FROM operators WHERE username = ?').bind(username).first<OperatorRow>();
  return row ? mapOperator(row) : null;
}

/** An operator by id, or null. */
export async function findOperatorById(db: D1Database, id: number): Promise<OperatorRecord | null> {
  const row = await db.prepare('SELECT * FROM operators WHERE id = ?').bind(id).first<OperatorRow>();
  return row ? mapOperator(row) : null;
}

/** Every operator, admins first. */
export async function listOperators(db: D1Database): Promise<OperatorRecord[]> {
  const { results } = await db.prepare("SELECT * FROM operators ORDER BY role != 'admin', id").all<OperatorRow>();
  return results.map(mapOperator);
}

/** The INSERT of a new operator (no second factor yet: it is enrolled at the first login). */
export function insertOperatorStatement(
  db: D1Database,
  o: { username: string; displayName: string; role: OperatorRole; passwordHash: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE NOT EXISTS (SELECT 1 FROM operators WHERE username = ?1)`,
    )
    .bind(o.username, o.displayName, o.role, o.passwordHash, o.now);
}

/**
 * Count a login attempt (a password or a second-factor code) against the operator before checking it, locking the
 * account on the maxFailures-th failure; the same statement as customers' reservePasswordAttempt. Returns the
 * failure count including this attempt, or null while the account is locked.
 */
export async function reserveOperatorAttempt(
  db: D1Database,
  operatorId: number,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> {
  return reserveLockoutAttempt(db, 'operators', operatorId, maxFailures, lockUntil, now);
}

/**
 * Give back the attempt a correct password reserved (reserveOperatorAttempt counted it before the check): only that
 * one, so earlier failures, wrong codes included, still count until a whole login succeeds (acceptTotpStepStatement
 * clears them), and a lock stands while the failures left reach maxFailures.
 */
export async function releaseOperatorAttempt(
  db: D1Database,
  operatorId: number,
  maxFailures: number,
  now: number,
): Promise<void> {
  await db
    .prepare(
      `UPDATE operators SET failed_logins = max(failed_logins - 1, 0),
         locked_until = CASE WHEN failed_logins - 1 >= ?1 THEN locked_until ELSE 0 END, updated_at = ?2
       WHERE id = ?3`,
    )
    .bind(maxFailures, now, operatorId)
    .run();
}

/** The reservation for a name that is not an active operator (reserveNameLockoutAttempt; names compared lower-case). */
export const reserveOperatorNameAttempt = (
  db: D1Database,
  username: string,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> =>
  reserveNameLockoutAttempt(
    db,
    'operator_name_failures',
    username.toLowerCase().slice(0, 64),
    maxFailures,
    lockUntil,
    now,
  );

/** Forget name counters untouched since `before` whose lock (if any) has lapsed; returns how many went. */
export async function purgeOperatorNameFailures(db: D1Database, before: number, now: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM operator_name_failures WHERE updated_at < ? AND locked_until <= ?')
    .bind(before, now)
    .run();
  return res.meta.changes;
}

/** Store an operator's new password (their own change); the caller ends their other sessions in the same batch. */
export function setOperatorPasswordStatement(
  db: D1Database,
  p: { id: number; passwordHash: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE operators SET password_hash = ?, updated_at = ? WHERE id = ? AND status = ${ACCOUNT_STATUS.active}`,
    )
    .bind(p.passwordHash, p.now, p.id);
}

/** The DELETE of an operator's sessions other than one (a password change ends the others). */
export function deleteOtherOperatorSessionsStatement(
  db: D1Database,
  operatorId: number,
  keepSessionId: number,
): D1PreparedStatement {
  return db.prepare('DELETE FROM operator_sessions WHERE operator_id = ? AND id != ?').bind(operatorId, keepSessionId);
}

/**
 * Accept a TOTP step: only a step newer than the last accepted one (a code is never used twice), storing the
 * secret when the login enrols it (only while none is enrolled). Clears the failure count. Null when refused.
 */
export function acceptTotpStepStatement(
  db: D1Database,
  a: { operatorId: number; step: number; enrolSecretEnc: string | null; now: number },
): D1PreparedStatement {
  return a.enrolSecretEnc
    ? db
        .prepare(
          `UPDATE operators SET totp_secret_enc = ?1, totp_last_step = ?2, failed_logins = 0, locked_until = 0,
             last_login_at = ?3, updated_at = ?3
           WHERE id = ?4 AND totp_secret_enc IS NULL AND status = ${ACCOUNT_STATUS.active}`,
        )
        .bind(a.enrolSecretEnc, a.step, a.now, a.operatorId)
    : db
        .prepare(
          `UPDATE operators SET totp_last_step = ?1, failed_logins = 0, locked_until = 0, last_login_at = ?2, updated_at = ?2
           WHERE id = ?3 AND totp_last_step < ?1 AND totp_secret_enc IS NOT NULL AND status = ${ACCOUNT_STATUS.active}`,
        )
        .bind(a.step, a.now, a.operatorId);
}

/** Use a TOTP step outside a login (re-authentication): only a step newer than the last one; clears the failures. */
export function spendTotpStepStatement(
  db: D1Database,
  u: { operatorId: number; step: number; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE operators SET totp_last_step = ?1, failed_logins = 0, locked_until = 0, updated_at = ?2
       WHERE id = ?3 AND totp_last_step < ?1 AND totp_secret_enc IS NOT NULL AND status = ${ACCOUNT_STATUS.active}`,
    )
    .bind(u.step, u.now, u.operatorId);
}

/** Change an operator's role or status (the last active admin is kept by a trigger). */
export function updateOperatorStatement(
  db: D1Database,
  u: { id: number; role: OperatorRole; status: 1 | 2; now: number },
): D1PreparedStatement {
  return db
    .prepare('UPDATE operators SET role = ?, status = ?, updated_at = ? WHERE id = ?')
    .bind(u.role, u.status, u.now, u.id);
}

/** Reset an operator's password and second factor (they enrol again at the next login). */
export function resetOperatorCredentialsStatement(
  db: D1Database,
  r: { id: number; passwordHash: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE operators SET password_hash = ?, totp_secret_enc = NULL, totp_last_step = 0, failed_logins = 0,
         locked_until = 0, updated_at = ? WHERE id = ?`,
    )
    .bind(r.passwordHash, r.now, r.id);
}

// ---- sessions ----

export interface OperatorSessionRecord extends SessionTimes {
  operatorId: number;
  stage: 'totp' | 'active';
  enrolSecretEnc: string | null;
}

interface OperatorSessionRow extends SessionTimesRow {
  operator_id: number;
  stage: 'totp' | 'active';
  enrol_secret_enc: string | null;
}

/** Insert a session at the second-factor stage. */
export async function insertOperatorSession(
  db: D1Database,
  s: { tokenHash: string; operatorId: number; now: number; expiresAt: number; ip: string; userAgent: string },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO operator_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip, user_agent)
       VALUES (?, ?, 'totp', ?, ?, ?, ?, ?)`,
    )
    .bind(s.tokenHash, s.operatorId, s.now, s.now, s.expiresAt, s.ip, storedUserAgent(s.userAgent))
    .run();
}

/** The session for a token hash, or null. */
export async function findOperatorSession(db: D1Database, tokenHash: string): Promise<OperatorSessionRecord | null> {
  const r = await db
    .prepare('SELECT * FROM operator_sessions WHERE token_hash = ?')
    .bind(tokenHash)
    .first<OperatorSessionRow>();
  return r
    ? { ...sessionTimesOf(r), operatorId: r.operator_id, stage: r.stage, enrolSecretEnc: r.enrol_secret_enc }
    : null;
}

/** Remember the secret offered to a session that is enrolling (replaced if enrolment is restarted). */
export async function setSessionEnrolSecret(db: D1Database, sessionId: number, sealed: string): Promise<void> {
  await db
    .prepare("UPDATE operator_sessions SET enrol_secret_enc = ? WHERE id = ? AND stage = 'totp'")
    .bind(sealed, sessionId)
    .run();
}

/** Promote a second-factor session to an active one under a new token (the pending token stops working). */
export function activateOperatorSessionStatement(
  db: D1Database,
  a: {
    sessionId: number;
    tokenHash: string;
    now: number;
    expiresAt: number;
    /** Only when the operator's newest accepted step is this one (set by acceptTotpStepStatement in the batch). */
    onlyIfStep: { operatorId: number; step: number };
  },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE operator_sessions SET stage = 'active', token_hash = ?1, enrol_secret_enc = NULL, last_seen_at = ?2,
         expires_at = ?3 WHERE id = ?4 AND stage = 'totp'
         AND EXISTS (SELECT 1 FROM operators WHERE id = ?5 AND totp_last_step = ?6 AND last_login_at = ?2)`,
    )
    .bind(a.tokenHash, a.now, a.expiresAt, a.sessionId, a.onlyIfStep.operatorId, a.onlyIfStep.step);
}

/** The DELETE of every session of an operator (disabled, demoted or reset). */
export function deleteOperatorSessionsStatement(db: D1Database, operatorId: number): D1PreparedStatement {
  return db.prepare('DELETE FROM operator_sessions WHERE operator_id = ?').bind(operatorId);
}
