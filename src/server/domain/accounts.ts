// Login and registration rules: SMS login registers new phones; password login locks after repeated failures and is
// limited per client IP.
import { AppError } from '../../lib/errors';
import { maskPhone } from '../../lib/format';
import { identityLabel, isCompanyAuth } from '../../lib/identity';
import type { MineInfo, MineInfoCookie } from '../../lib/mine-info';
import { verifyPassword } from '../crypto';
import { findCredentials } from '../db/credentials';
import {
  findOrCreateUserByPhone,
  findUserByPhone,
  releaseIpLoginAttempt,
  reserveIpLoginAttempt,
  reservePasswordAttempt,
  reservePhonePasswordAttempt,
  resetFailedLogins,
  type UserRecord,
} from '../db/users';
import { verifyCode } from './sms';
import { MINUTE_MS } from '../../lib/time';

export const MAX_PASSWORD_FAILURES = 5;
export const LOCK_MS = 15 * MINUTE_MS;
/** Failed password attempts allowed per client IP in IP_WINDOW_MS (whatever the phones). */
export const MAX_PASSWORD_ATTEMPTS_PER_IP = 30;
export const IP_WINDOW_MS = 15 * MINUTE_MS;
/** Spent on unknown logins and accounts without a password so timing does not reveal which ones exist. */
export const DUMMY_HASH = 'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
export const USER_STATUS_ACTIVE = 1;

/**
 * Reserve one of a client IP's login attempts (MAX_PASSWORD_ATTEMPTS_PER_IP per IP_WINDOW_MS, customers and operators
 * alike) before anything is checked, or refuse with `tooFrequent`. Returns the attempt, released after a success.
 */
export async function reserveIpAttempt(
  db: D1Database,
  ip: string,
  now: number,
  tooFrequent: 'loginTooFrequent' | 'operatorTooFrequent',
): Promise<number> {
  const attempt = await reserveIpLoginAttempt(db, {
    ip,
    now,
    since: now - IP_WINDOW_MS,
    max: MAX_PASSWORD_ATTEMPTS_PER_IP,
  });
  if (attempt === null) throw new AppError(tooFrequent);
  return attempt;
}

export type LoginOutcome = { state: 1; user: UserRecord; created: boolean } | { state: 2 };

/** SMS login; registers the phone when new. state 2 = account unavailable. */
export async function loginWithSmsCode(
  db: D1Database,
  secret: string,
  r: { phone: string; code: string; sourceType: number; now: number },
): Promise<LoginOutcome> {
  const ok = await verifyCode(db, secret, { phone: r.phone, purpose: 'login', code: r.code, now: r.now });
  if (!ok) throw new AppError('codeWrong');
  const { user, created } = await findOrCreateUserByPhone(db, r.phone, r.sourceType, r.now);
  if (user.status !== USER_STATUS_ACTIVE) return { state: 2 };
  return { state: 1, user, created };
}

/**
 * Password login. Each attempt is reserved before the password is checked: first against the client IP
 * (MAX_PASSWORD_ATTEMPTS_PER_IP per IP_WINDOW_MS), then against the account, which locks on the
 * MAX_PASSWORD_FAILURES-th failure (reservePasswordAttempt), so parallel requests cannot check more passwords than
 * the limits allow. Unknown phones and accounts without a password are counted and locked the same way
 * (reservePhonePasswordAttempt), so every answer, the lock included, is the same as for a registered phone.
 */
export async function loginWithPassword(
  db: D1Database,
  r: { phone: string; password: string; ip: string; now: number },
): Promise<LoginOutcome> {
  const ipAttempt = await reserveIpAttempt(db, r.ip, r.now, 'loginTooFrequent');
  const user = await findUserByPhone(db, r.phone);
  // Phones without a password-holding account take the same path (one reservation, one password hash check, the
  // same answers, the lock included) so neither the message nor the work reveals whether a phone is registered.
  const hash = user?.passwordHash || null;
  const failures =
    user && hash
      ? await reservePasswordAttempt(db, user.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now)
      : await reservePhonePasswordAttempt(db, r.phone, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
  if (failures === null) throw new AppError('loginLocked');
  const ok = await verifyPassword(r.password, hash ?? DUMMY_HASH);
  if (!ok || !user || !hash) {
    throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'loginLocked' : 'loginFailed');
  }
  await resetFailedLogins(db, user.id, r.now);
  await releaseIpLoginAttempt(db, ipAttempt);
  if (user.status !== USER_STATUS_ACTIVE) return { state: 2 };
  return { state: 1, user: { ...user, failedLogins: 0, lockedUntil: 0 }, created: false };
}

/** The Mine_Info cookie content for a user. */
export function mineInfoCookieFor(user: UserRecord): MineInfoCookie {
  return {
    id: user.id,
    phone: maskPhone(user.phone),
    isIdentityAuth: user.isIdentityAuth,
    isCompanyAuth: isCompanyAuth(user.companyAuthState),
    companyState: user.companyAuthState,
  };
}

export type { MineInfo };

/** The seed's mineInfo payload for a user (phone masked); with db, the proxy API's AES key/IV when it is open. */
export async function mineInfoFor(user: UserRecord, db?: D1Database): Promise<MineInfo> {
  const proxyApi = db && user.proxyApiOpened ? await findCredentials(db, user.id) : null;
  return {
    id: user.id,
    phone: maskPhone(user.phone),
    identityLabel: identityLabel(user),
    isIdentityAuth: user.isIdentityAuth,
    isCompanyAuth: isCompanyAuth(user.companyAuthState),
    companyAuth: { state: user.companyAuthState },
    proxyApiOpend: user.proxyApiOpened,
    proxyApiKey: proxyApi?.aesKey ?? null,
    proxyApiIv: proxyApi?.aesIv ?? null,
    sellerInfo: user.sellerPhone ? { sellerPhone: user.sellerPhone } : null, // the seller assigned at registration
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt,
  };
}
