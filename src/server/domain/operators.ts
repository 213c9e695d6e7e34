// Operator authentication (docs/decisions/101): password (hashed and rate-limited like customers'), then a TOTP
// second factor enrolled at the first login; sessions with a short idle timeout under their own cookie.
import { Secret, TOTP } from 'otpauth';
import { AppError } from '../../lib/errors';
import { operatorPasswordProblem } from '../../lib/operator-password';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../crypto';
import {
  acceptTotpStepStatement,
  activateOperatorSessionStatement,
  deleteOtherOperatorSessionsStatement,
  findOperatorById,
  findOperatorByUsername,
  findOperatorSession,
  insertOperatorSession,
  type OperatorRecord,
  type OperatorSessionRecord,
  releaseOperatorAttempt,
  reserveOperatorAttempt,
  reserveOperatorNameAttempt,
  setOperatorPasswordStatement,
  setSessionEnrolSecret,
  spendTotpStepStatement,
} from '../db/operators';
import { auditInsertStatement } from '../db/console-audit';
import { deleteSession, touchSession } from '../db/sessions';
import { releaseIpLoginAttempt } from '../db/users';
import { DUMMY_HASH, LOCK_MS, MAX_PASSWORD_FAILURES, reserveIpAttempt } from './accounts';
import { decryptField, encryptField, type IdentityKeys } from './identity-crypto';
import type { OperatorPrincipal } from './operator-principal';
import { auditedChange } from './console-audit';
import { endedOnSight } from './session';
import { HOUR_MS, MINUTE_MS } from '../../lib/time';
import { ACCOUNT_STATUS } from '../../lib/console-states';

/** The operator session cookie (HttpOnly, SameSite=Strict, Secure in production; never the customer's `token`). */
export const OPERATOR_COOKIE = 'admin_token';
/** An operator session ends after this long without a request. */
export const OPERATOR_IDLE_MS = 30 * MINUTE_MS;
/** ...and at the latest this long after the second factor. */
export const OPERATOR_ABSOLUTE_MS = 12 * HOUR_MS;
/** Between the password and the code (or the enrolment) at most this long may pass. */
export const OPERATOR_PENDING_MS = 5 * MINUTE_MS;
const TOUCH_INTERVAL_MS = MINUTE_MS;
const TOTP_PERIOD_S = 30;
const TOTP_ISSUER = '云枢代理运营后台';

export type { OperatorPrincipal } from './operator-principal';

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

/** A failed step of an existing, active operator (names that are not are counted, never audited). */
async function failureAudit(db: D1Database, op: OperatorRecord, ip: string, now: number) {
  await auditInsertStatement(
    db,
    { operatorId: op.id, operatorName: op.username, role: op.role, ip, now },
    { action: 'Operator.LoginFailed', target: `operator:${op.id}` },
  ).run();
}

/**
 * Check a username and password. Attempts are reserved before checking, per client IP and per operator (five
 * failures, passwords and codes together, lock the account for 15 minutes; only a whole login, code included, clears
 * them: a correct password gives back its own attempt and nothing more). A name that is not an active operator is
 * counted and locked the same way in its own bounded table, with the same answers and the same work, and is not
 * written to the audit log (docs/decisions/197). Returns a token for the second-factor stage and whether the operator
 * must enrol a TOTP secret first.
 */
export async function operatorPasswordLogin(
  db: D1Database,
  r: { username: string; password: string; ip: string; userAgent: string; now: number },
): Promise<{ token: string; needsEnrolment: boolean }> {
  const ipAttempt = await reserveIpAttempt(db, r.ip, r.now, 'operatorTooFrequent');
  const found = await findOperatorByUsername(db, r.username);
  const op = found?.status === ACCOUNT_STATUS.active ? found : null;
  const lockUntil = r.now + LOCK_MS;
  const failures = op
    ? await reserveOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, lockUntil, r.now)
    : await reserveOperatorNameAttempt(db, r.username, MAX_PASSWORD_FAILURES, lockUntil, r.now);
  if (failures === null) throw new AppError('operatorLocked');
  const ok = await verifyPassword(r.password, op?.passwordHash ?? DUMMY_HASH);
  if (!ok || !op) {
    if (op) await failureAudit(db, op, r.ip, r.now);
    throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'operatorLocked' : 'operatorLoginFailed');
  }
  await releaseOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now);
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
  if (!session || !op || session.stage !== 'totp' || session.expiresAt <= now || op.status !== ACCOUNT_STATUS.active) {
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
    await failureAudit(db, op, r.ip, r.now);
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
    // A right code already used (a replay, or the same code sent several times at once): refused, audited, but not a
    // failure toward the lock, so a valid code can never lock its own account (docs/decisions/197).
    await failureAudit(db, op, r.ip, r.now);
    await releaseOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now);
    await releaseIpLoginAttempt(db, ipAttempt);
    throw new AppError('operatorTotpWrong');
  }
  await releaseIpLoginAttempt(db, ipAttempt);
  return { token, operator: principalOf({ ...op, failedLogins: 0, lockedUntil: 0 }, session.id) };
}

/**
 * An operator changes their own password, re-authenticated by the current password and a fresh TOTP code (both
 * counted against the account like a login). The new password follows the operator password rules, the code's step is
 * used up, every other session of the operator ends and the change is audited, all in one batch (docs/decisions/197).
 */
export async function changeOwnOperatorPassword(
  db: D1Database,
  keys: IdentityKeys,
  me: OperatorPrincipal,
  r: { currentPassword: string; code: string; newPassword: string; ip: string; now: number },
): Promise<{ changed: true; otherSessionsEnded: true }> {
  const op = await findOperatorById(db, me.id);
  if (op?.status !== ACCOUNT_STATUS.active || !op.totpSecretEnc) throw new AppError('operatorStepExpired');
  const problem = operatorPasswordProblem(r.newPassword, op.username);
  if (problem) throw new AppError('operatorPasswordWeak', { detail: problem });
  const ipAttempt = await reserveIpAttempt(db, r.ip, r.now, 'operatorTooFrequent');
  const failures = await reserveOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
  if (failures === null) throw new AppError('operatorLocked');
  const passwordOk = await verifyPassword(r.currentPassword, op.passwordHash);
  const delta = totpFor(await decryptField(keys, op.totpSecretEnc), op.username).validate({
    token: r.code,
    timestamp: r.now,
    window: 1,
  });
  if (!passwordOk || delta === null) {
    await failureAudit(db, op, r.ip, r.now);
    throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'operatorLocked' : 'operatorReauthWrong');
  }
  if (await verifyPassword(r.newPassword, op.passwordHash)) {
    await releaseOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now);
    throw new AppError('operatorPasswordSame');
  }
  const step = Math.floor(r.now / (TOTP_PERIOD_S * 1000)) + delta;
  const passwordHash = await hashPassword(r.newPassword);
  try {
    // The step last: a code used meanwhile refuses the whole batch (the password and the sessions stay as they were).
    await auditedChange(
      db,
      { operatorId: op.id, operatorName: op.username, role: op.role, ip: r.ip, now: r.now },
      { action: 'Operator.ChangePassword', target: `operator:${op.id}`, after: '已修改密码，其他会话已退出' },
      [
        deleteOtherOperatorSessionsStatement(db, op.id, me.sessionId),
        setOperatorPasswordStatement(db, { id: op.id, passwordHash, now: r.now }),
        spendTotpStepStatement(db, { operatorId: op.id, step, now: r.now }),
      ],
      'operatorTotpWrong',
    );
  } catch (err) {
    // A right code already used is refused but is not a failure toward the lock.
    await releaseOperatorAttempt(db, op.id, MAX_PASSWORD_FAILURES, r.now);
    throw err;
  }
  await releaseIpLoginAttempt(db, ipAttempt);
  return { changed: true, otherSessionsEnded: true };
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
  if (op?.status !== ACCOUNT_STATUS.active) return null;
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
