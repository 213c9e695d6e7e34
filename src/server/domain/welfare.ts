// The welfare trial: a free package after real-name authentication, once per real person or company (the keyed
// identity hash) and at most once per account, whichever key the account had when it claimed.
import { AppError } from '../../lib/errors';
import { isRealNameVerified } from '../../lib/identity';
import type { UserRecord } from '../db/users';
import { claimWelfare, findIdentityKey, findWelfareMeal, hasClaimedWelfare, type WelfareMeal } from '../db/welfare';

export interface WelfareStatus {
  able: boolean;
  reason: '' | 'needsRealName' | 'claimed' | 'unavailable';
  meal: WelfareMeal | null;
}

/** Whether the user may claim the trial now, and why not. */
export async function welfareStatus(db: D1Database, user: UserRecord): Promise<WelfareStatus> {
  const meal = await findWelfareMeal(db);
  if (!meal) return { able: false, reason: 'unavailable', meal: null };
  if (!isRealNameVerified(user)) return { able: false, reason: 'needsRealName', meal };
  const key = await findIdentityKey(db, user.id);
  if (!key) return { able: false, reason: 'needsRealName', meal };
  if (await hasClaimedWelfare(db, key, user.id)) return { able: false, reason: 'claimed', meal };
  return { able: true, reason: '', meal };
}

/** Claim the trial; returns the new package id. */
export async function giveWelfare(db: D1Database, user: UserRecord, now: number): Promise<{ packageId: number }> {
  const meal = await findWelfareMeal(db);
  if (!meal) throw new AppError('welfareUnavailable');
  const key = isRealNameVerified(user) ? await findIdentityKey(db, user.id) : null;
  if (!key) throw new AppError('welfareNeedsRealName');
  const packageId = await claimWelfare(db, { userId: user.id, identityKey: key, meal, now });
  if (packageId === null) throw new AppError('welfareClaimed');
  return { packageId };
}
