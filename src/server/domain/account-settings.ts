// Account settings: re-verified phone change (old phone, then new), password change by current password or SMS code,
// and the end of every other session of the user after either change.
import { AppError } from '../../lib/errors';
import { changePhoneWithGrant, grantPhoneChange, hasPhoneChangeGrant, isPhoneRegistered } from '../db/account-settings';
import { deleteUserSessions } from '../db/sessions';
import { reservePasswordAttempt, setPasswordHash, type UserRecord } from '../db/users';
import type { SmsProvider } from '../providers/sms/types';
import { LOCK_MS, MAX_PASSWORD_FAILURES } from './accounts';
import { hashPassword, verifyPassword } from '../crypto';
import { sendVerificationCode, verifyCode } from './sms';
import { MINUTE_MS } from '../../lib/time';

/** How long the old phone's re-verification lets the user verify a new phone. */
export const PHONE_CHANGE_GRANT_MS = 10 * MINUTE_MS;

export type AccountCodePurpose = 'change_phone_old' | 'change_phone_new' | 'change_pwd';

/** Send a code for an account change: to the current phone, or (after the old phone passed) to the new phone. */
export async function sendAccountCode(
  db: D1Database,
  sms: SmsProvider,
  secret: string,
  r: { user: UserRecord; purpose: AccountCodePurpose; newPhone?: string | undefined; ip: string; now: number },
): Promise<void> {
  let phone = r.user.phone;
  if (r.purpose === 'change_phone_new') {
    if (!(await hasPhoneChangeGrant(db, r.user.id, r.now))) throw new AppError('phoneOldNotVerified');
    if (!r.newPhone) throw new AppError('phoneInvalid');
    if (r.newPhone === r.user.phone) throw new AppError('phoneSame');
    if (await isPhoneRegistered(db, r.newPhone)) throw new AppError('phoneTaken');
    phone = r.newPhone;
  }
  await sendVerificationCode(db, sms, secret, { phone, purpose: r.purpose, ip: r.ip, now: r.now });
}

/** Step 1 of a phone change: the code sent to the current phone. */
export async function verifyOldPhone(
  db: D1Database,
  secret: string,
  r: { user: UserRecord; code: string; now: number },
): Promise<{ expiresAt: number }> {
  const ok = await verifyCode(db, secret, {
    phone: r.user.phone,
    purpose: 'change_phone_old',
    code: r.code,
    now: r.now,
  });
  if (!ok) throw new AppError('codeWrong');
  const expiresAt = r.now + PHONE_CHANGE_GRANT_MS;
  await grantPhoneChange(db, r.user.id, expiresAt);
  return { expiresAt };
}

/** Step 2: the new phone's code; moves the account to it and ends every other session. */
export async function changePhone(
  db: D1Database,
  secret: string,
  r: { user: UserRecord; sessionId: number; phone: string; code: string; now: number },
): Promise<{ sessionsEnded: number }> {
  if (!(await hasPhoneChangeGrant(db, r.user.id, r.now))) throw new AppError('phoneOldNotVerified');
  if (r.phone === r.user.phone) throw new AppError('phoneSame');
  const ok = await verifyCode(db, secret, { phone: r.phone, purpose: 'change_phone_new', code: r.code, now: r.now });
  if (!ok) throw new AppError('codeWrong');
  let changed: boolean;
  try {
    changed = await changePhoneWithGrant(db, r.user.id, r.phone, r.now);
  } catch (err) {
    if (String(err).includes('UNIQUE')) throw new AppError('phoneTaken');
    throw err;
  }
  if (!changed) throw new AppError('phoneOldNotVerified');
  return { sessionsEnded: await deleteUserSessions(db, r.user.id, r.sessionId) };
}

/** Change (or first set) the password, proven by the current password or an SMS code; ends every other session. */
export async function changePassword(
  db: D1Database,
  secret: string,
  r: {
    user: UserRecord;
    sessionId: number;
    oldPassword?: string | undefined;
    code?: string | undefined;
    newPassword: string;
    now: number;
  },
): Promise<{ sessionsEnded: number }> {
  if (r.code) {
    const ok = await verifyCode(db, secret, { phone: r.user.phone, purpose: 'change_pwd', code: r.code, now: r.now });
    if (!ok) throw new AppError('codeWrong');
  } else if (r.oldPassword) {
    if (r.oldPassword === r.newPassword) throw new AppError('passwordSame');
    if (!r.user.passwordHash) throw new AppError('passwordWrong');
    // Guesses of the current password count against the account like password logins (one atomic reservation
    // before the check; the MAX_PASSWORD_FAILURES-th failure locks both for LOCK_MS), docs/decisions/093.
    const failures = await reservePasswordAttempt(db, r.user.id, MAX_PASSWORD_FAILURES, r.now + LOCK_MS, r.now);
    if (failures === null) throw new AppError('passwordLocked');
    if (!(await verifyPassword(r.oldPassword, r.user.passwordHash))) {
      throw new AppError(failures >= MAX_PASSWORD_FAILURES ? 'passwordLocked' : 'passwordWrong');
    }
  } else {
    throw new AppError('passwordVerifyRequired');
  }
  await setPasswordHash(db, r.user.id, await hashPassword(r.newPassword), r.now);
  return { sessionsEnded: await deleteUserSessions(db, r.user.id, r.sessionId) };
}
