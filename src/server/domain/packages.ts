// Package rules for the personal centre: the account panel's counts (Proxy.GetMealCount) and each package's view.
import type { MealCounts } from '../../lib/meal-buttons';
import { isPackageRunning, PACKAGE_STATE, PACKAGE_STATE_TEXT, PENDING_STATE_TEXT } from '../../lib/package-states';
import type { PackageRow } from '../db/packages';
import { availableQuota } from './extract';

/** Shown for a package reserved by an unpaid upgrade/merge order. */
export const RESERVED_STATE_TEXT = '升级中';

/** The state a user sees (an active row past its expiry reads as expired before the job catches up). */
export function effectiveState(p: Pick<PackageRow, 'state' | 'expiresAt'>, now: number): number {
  return isPackageRunning(p.state) && p.expiresAt <= now ? PACKAGE_STATE.expired : p.state;
}

/** Counts for the account panel: IPs left per row, live packages per row, and the text shown. */
export function mealCounts(live: PackageRow[], fixedIps: number, day: string, now: number): MealCounts {
  const row = (type: number, billing: number) => {
    const list = live.filter((p) => p.productType === type && p.billingMethod === billing);
    const left = list.reduce((sum, p) => {
      const q = availableQuota(
        {
          ...p,
          billingMethod: p.billingMethod as 1 | 2,
        },
        day,
        now,
      );
      return sum + (Number.isFinite(q) ? q : 0);
    }, 0);
    const unlimited = list.some((p) => billing === 2 && p.dailyLimit === 0 && p.state === PACKAGE_STATE.active);
    const num = unlimited ? Math.max(left, 1) : left;
    const value =
      list.length === 0 ? '暂无套餐' : unlimited ? '不限量' : billing === 1 ? `剩余${left}个` : `今日剩余${left}个`;
    return { num, state: list.length, value };
  };
  const fixedPackages = live.filter(
    (p) => (p.productType === 30 || p.productType === 50) && p.state === PACKAGE_STATE.active,
  ).length;
  return {
    shortDynamicsNum: row(10, 1),
    shortDynamicsDate: row(10, 2),
    longDynamicsNum: row(40, 1),
    longDynamicsDate: row(40, 2),
    fixed: { num: fixedIps, state: fixedPackages, value: fixedPackages === 0 ? '暂无套餐' : `${fixedIps}个IP` },
  };
}

/**
 * Dedicated IPs a live fixed/premium package still waits for (none free in the paid region): shown as 分配中, never
 * filled from elsewhere. Zero for other packages, and when the count of held IPs is not known.
 */
export function pendingIpsOf(
  p: { productType: number; ipCount: number; allocatedIps?: number },
  state: number,
): number {
  const dedicated = p.productType === 30 || p.productType === 50;
  return dedicated && state === PACKAGE_STATE.active ? Math.max(0, p.ipCount - (p.allocatedIps ?? p.ipCount)) : 0;
}

/** The one state text of a package wherever the customer sees it (package list, renewal list): 升级中, 分配中 or its state. */
export function packageStateText(p: { state: number; reserved: boolean; pendingIps: number }): string {
  if (p.reserved) return RESERVED_STATE_TEXT;
  if (p.pendingIps > 0) return PENDING_STATE_TEXT;
  return PACKAGE_STATE_TEXT[p.state] ?? '未知';
}

/** A package as the personal centre lists it. */
export function packageView(p: PackageRow, day: string, now: number) {
  const state = effectiveState(p, now);
  const quota = availableQuota({ ...p, billingMethod: p.billingMethod as 1 | 2 }, day, now);
  // A source of an unpaid upgrade/merge order is frozen (nothing to extract) until that order is paid or closed.
  const reserved = p.reserved === true && isPackageRunning(state);
  const pendingIps = pendingIpsOf(p, state);
  return {
    id: p.id,
    type: p.productType,
    name: p.name,
    billingMethod: p.billingMethod,
    durationMinutes: p.durationMinutes,
    totalCount: p.totalCount,
    remainingCount: p.remainingCount,
    dailyLimit: p.dailyLimit,
    usedToday: p.usageDay === day ? p.usedToday : 0,
    ipCount: p.ipCount,
    available: !reserved && isPackageRunning(state) ? (Number.isFinite(quota) ? quota : -1) : 0,
    startsAt: p.startsAt,
    expiresAt: p.expiresAt,
    state,
    stateText: packageStateText({ state, reserved, pendingIps }),
    reserved,
    pendingIps,
    remark: p.remark,
    source: p.source,
    deletable:
      state === PACKAGE_STATE.expired ||
      state === PACKAGE_STATE.disabled ||
      (state === PACKAGE_STATE.usedUp && p.remainingCount === 0),
  };
}
