// Login and registration rules: SMS login registers new phones; password login locks after repeated failures.
import { AppError } from '../../lib/errors';
import { maskPhone } from '../../lib/format';
import { identityLabel, isCompanyAuth } from '../../lib/identity';
import type { MineInfoCookie } from '../../lib/mine-info';
import { findCredentials } from '../db/credentials';
import {
  findOrCreateUserByPhone,
  findUserByPhone,
  recordFailedLogin,
  resetFailedLogins,
  type UserRecord,
} from '../db/users';
import { verifyPassword } from './crypto';
import { verifyCode } from './sms';

export const MAX_PASSWORD_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;
export const USER_STATUS_ACTIVE = 1;
export const USER_STATUS_UNAVAILABLE = 2;

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

/** Password login with lockout after MAX_PASSWORD_FAILURES failures. */
export async function loginWithPassword(
  db: D1Database,
  r: { phone: string; password: string; now: number },
): Promise<LoginOutcome> {
  const user = await findUserByPhone(db, r.phone);
  if (!user) {
    // Spend comparable time so timing does not reveal which phones are registered.
    await verifyPassword(
      r.password,
      'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    throw new AppError('loginFailed');
  }
  if (user.lockedUntil > r.now) throw new AppError('loginLocked');
  if (!user.passwordHash) throw new AppError('noPassword');
  if (!(await verifyPassword(r.password, user.passwordHash))) {
    // A lock that has lapsed starts a fresh count.
    if (user.lockedUntil > 0) await resetFailedLogins(db, user.id, r.now);
    await recordFailedLogin(db, user.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
    throw new AppError(user.failedLogins + 1 >= MAX_PASSWORD_FAILURES ? 'loginLocked' : 'loginFailed');
  }
  if (user.status !== USER_STATUS_ACTIVE) return { state: 2 };
  if (user.failedLogins > 0 || user.lockedUntil > 0) await resetFailedLogins(db, user.id, r.now);
  return { state: 1, user, created: false };
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

export interface MineInfo {
  id: number;
  phone: string;
  identityLabel: string;
  isIdentityAuth: boolean;
  isCompanyAuth: boolean;
  companyAuth: { state: number };
  proxyApiOpend: boolean;
  proxyApiKey: string | null;
  proxyApiIv: string | null;
  sellerInfo: { sellerPhone: string } | null;
  hasPassword: boolean;
  createdAt: number;
}

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
    sellerInfo: user.sellerPhone ? { sellerPhone: user.sellerPhone } : null, // issue 6: seller assigned at registration
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt,
  };
}
