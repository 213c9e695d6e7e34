// Operator authentication (docs/decisions/101): password (hashed and rate-limited like customers'), then a TOTP
// second factor enrolled at the first login; sessions with a short idle timeout under their own cookie.
import { Secret, TOTP } from 'otpauth';
import { AppError } from '../../lib/errors';
import type { OperatorRole } from '../../lib/operator-roles';
import { randomToken, sha256Hex, verifyPassword } from '../crypto';
import {
  acceptTotpStepStatement,
  activateOperatorSessionStatement,
  findOperatorById,
  findOperatorByUsername,
  findOperatorSession,
  insertOperatorSession,
  type OperatorRecord,
  type OperatorSessionRecord,
  reserveOperatorAttempt,
  resetOperatorFailures,
  setSessionEnrolSecret,
} from '../db/operators';
import { auditInsertStatement } from '../db/operators-audit';
import { deleteSession, touchSession } from '../db/sessions';
import { releaseIpLoginAttempt } from '../db/users';
import { DUMMY_HASH, LOCK_MS, MAX_PASSWORD_FAILURES, reserveIpAttempt } from './accounts';
import { decryptField, encryptField, type IdentityKeys } from './identity-crypto';
import { endedOnSight } from './session';

/** The operator session cookie (HttpOnly, SameSite=Strict, Secure in production; never the customer's `token`). */
export const OPERATOR_COOKIE = 'admin_token';
/** An operator session ends after this long without a request. */
export const OPERATOR_IDLE_MS = 30 * 60_000;
/** ...and at the latest this long after the second factor. */
export const OPERATOR_ABSOLUTE_MS = 12 * 3_600_000;
/** Between the password and the code (or the enrolment) at most this long may pass. */
export const OPERATOR_PENDING_MS = 5 * 60_000;
const TOUCH_INTERVAL_MS = 60_000;
const TOTP_PERIOD_S = 30;
const TOTP_ISSUER = '云枢代理运营后台';

/** Who is acting in an operator action. */
export interface OperatorPrincipal {
  id: number;
  username: string;
  displayName: string;
  role: OperatorRole;
  sessionId: number;
}

const principalOf = (op: OperatorRecord, sessionId: number): OperatorPrincipal => ({
  id: op.id,
  username: op.username,
  displayName: op.displayName,
  role: op.role,
  sessionId,
});

function totpFor(secretBase32: string, username: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The code an authenticator shows for a secret at a time (tests and the bootstrap script use it). */
export const totpCodeAt = (secretBase32: string, at: number): string =>
  totpFor(secretBase32, 'x').generate({ timestamp: at });

async function failureAudit(db: D1Database, op: OperatorRecord | null, username: string, ip: string, now: number) {
  await auditInsertStatement(
    db,
    { operatorId: op?.id ?? null, operatorName: op?.username ?? username, role: op?.role ?? 'none', ip, now },
    { action: 'Operator.LoginFailed', target: op ? `operator:${op.id}` : '' },
  ).run();
}

/**
 * Check a username and password. Attempts are reserved before checking, per client IP and per operator (five
 * failures, passwords and codes together, lock the account for 15 minutes). Returns a token for the second-factor
 * stage and whether the operator must enrol a TOTP secret first.
 */
export async function operatorPasswordLogin(
  db: D1Database,
  r: { username: string; password: string; ip: string; userAgent: string; now: number },
): Promise<{ token: string; needsEnrolment: boolean }> {
  const ipAttempt = await reserveIpAttempt(db, r.ip, r.now, 'operatorTooFrequent');
  const op = await findOperatorByUsername(db, r.username);
  if (op?.status !== 1) {
    await verifyPassword(r.password, DUMMY_HASH);
    await failureAudit(db, op, r.username, r.ip, r.now);
    throw new AppError('operatorLoginFailed');
  }
  if (op.lockedUntil > r.now) throw new AppError('operatorLocked');
  const failures = await reserveOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
  if (failures === null) throw new AppError('operatorLocked');
  if (!(await verifyPassword(r.password, op.passwordHash))) {
    await failureAudit(db, op, r.username, r.ip, r.now);
    throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'operatorLocked' : 'operatorLoginFailed');
  }
  await resetOperatorFailures(db, op.id, r.now);
  await releaseIpLoginAttempt(db, ipAttempt);
  const token = randomToken(32);
  await insertOperatorSession(db, {
    tokenHash: await sha256Hex(token),
    operatorId: op.id,
    now: r.now,
    expiresAt: r.now + OPERATOR_PENDING_MS,
    ip: r.ip,
    userAgent: r.userAgent,
  });
  return { token, needsEnrolment: op.totpSecretEnc === null };
}

async function pendingSession(
  db: D1Database,
  token: string | undefined,
  now: number,
): Promise<{ session: OperatorSessionRecord; op: OperatorRecord }> {
  const session = token && token.length <= 128 ? await findOperatorSession(db, await sha256Hex(token)) : null;
  const op = session ? await findOperatorById(db, session.operatorId) : null;
  if (!session || !op || session.stage !== 'totp' || session.expiresAt <= now || op.status !== 1) {
    throw new AppError('operatorStepExpired');
  }
  return { session, op };
}

/** Start (or restart) TOTP enrolment for a second-factor session whose operator has none: the secret and its URI. */
export async function beginTotpEnrolment(
  db: D1Database,
  keys: IdentityKeys,
  r: { token: string | undefined; now: number },
): Promise<{ secret: string; uri: string }> {
  const { session, op } = await pendingSession(db, r.token, r.now);
  if (op.totpSecretEnc !== null) throw new AppError('operatorAlreadyEnrolled');
  const secret = new Secret({ size: 20 }).base32;
  await setSessionEnrolSecret(db, session.id, await encryptField(keys, secret));
  return { secret, uri: totpFor(secret, op.username).toString() };
}

/**
 * Check the second factor (rate-limited with the password), then turn the second-factor session into an active one
 * under a new token, recording the login in the audit log in the same batch. When enrolling, the code proves the
 * authenticator holds the offered secret, which then becomes the operator's.
 */
export async function verifyTotpLogin(
  db: D1Database,
  keys: IdentityKeys,
  r: { token: string | undefined; code: string; ip: string; now: number },
): Promise<{ token: string; operator: OperatorPrincipal }> {
  const { session, op } = await pendingSession(db, r.token, r.now);
  const enrolling = op.totpSecretEnc === null;
  const sealed = op.totpSecretEnc ?? session.enrolSecretEnc;
  if (!sealed) throw new AppError('operatorStepExpired');
  if (op.lockedUntil > r.now) throw new AppError('operatorLocked');
  const ipAttempt = await reserveIpAttempt(db, r.ip, r.now, 'operatorTooFrequent');
  const failures = await reserveOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
  if (failures === null) throw new AppError('operatorLocked');
  const delta = totpFor(await decryptField(keys, sealed), op.username).validate({
    token: r.code,
    timestamp: r.now,
    window: 1,
  });
  const wrong = () => {
    throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'operatorLocked' : 'operatorTotpWrong');
  };
  if (delta === null) {
    await failureAudit(db, op, op.username, r.ip, r.now);
    return wrong();
  }
  const step = Math.floor(r.now / (TOTP_PERIOD_S * 1000)) + delta;
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  // The session is promoted only if this step was accepted (never a code used before), and the login is recorded only
  // if the session was promoted: three statements, one transaction.
  const [accepted] = await db.batch([
    acceptTotpStepStatement(db, { operatorId: op.id, step, enrolSecretEnc: enrolling ? sealed : null, now: r.now }),
    activateOperatorSessionStatement(db, {
      sessionId: session.id,
      tokenHash,
      now: r.now,
      expiresAt: r.now + OPERATOR_ABSOLUTE_MS,
      onlyIfStep: { operatorId: op.id, step },
    }),
    auditInsertStatement(
      db,
      { operatorId: op.id, operatorName: op.username, role: op.role, ip: r.ip, now: r.now },
      { action: 'Operator.Login', target: `operator:${op.id}`, after: enrolling ? '首次登录，已绑定动态验证码' : '' },
      {
        sql: "EXISTS (SELECT 1 FROM operator_sessions WHERE id = ? AND token_hash = ? AND stage = 'active')",
        binds: [session.id, tokenHash],
      },
    ),
  ]);
  if (!accepted?.meta.changes) {
    await failureAudit(db, op, op.username, r.ip, r.now);
    return wrong();
  }
  await releaseIpLoginAttempt(db, ipAttempt);
  return { token, operator: principalOf({ ...op, failedLogins: 0, lockedUntil: 0 }, session.id) };
}

/** The operator behind an active session token, or null (expired or idle sessions are deleted on sight). */
export async function resolveOperatorSession(
  db: D1Database,
  token: string | undefined,
  now: number,
): Promise<OperatorPrincipal | null> {
  if (!token || token.length > 128) return null;
  const session = await findOperatorSession(db, await sha256Hex(token));
  if (session?.stage !== 'active') return null;
  if (await endedOnSight(db, 'operator_sessions', session, now, OPERATOR_IDLE_MS)) return null;
  const op = await findOperatorById(db, session.operatorId);
  if (op?.status !== 1) return null;
  if (now - session.lastSeenAt > TOUCH_INTERVAL_MS) await touchSession(db, 'operator_sessions', session.id, now);
  return principalOf(op, session.id);
}

/** End the session behind a token (either stage). */
export async function endOperatorSession(db: D1Database, token: string | undefined): Promise<void> {
  if (!token || token.length > 128) return;
  const session = await findOperatorSession(db, await sha256Hex(token));
  if (!session) return;
  await deleteSession(db, 'operator_sessions', session.id);
}
