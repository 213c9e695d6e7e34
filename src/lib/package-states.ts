// A proxy package's stored states (proxy_packages.state): their names, the words shown alike in the personal centre and
// the console, and predicates. TypeScript compares with the names; SQL interpolates them (`state = ${PACKAGE_STATE.active}`).
export const PACKAGE_STATE = { active: 1, expired: 2, usedUp: 3, deleted: 4, disabled: 5 } as const;
export type PackageState = (typeof PACKAGE_STATE)[keyof typeof PACKAGE_STATE];

export const PACKAGE_STATE_TEXT: Record<number, string> = {
  [PACKAGE_STATE.active]: '使用中',
  [PACKAGE_STATE.expired]: '已过期',
  [PACKAGE_STATE.usedUp]: '已用完',
  [PACKAGE_STATE.deleted]: '已删除',
  [PACKAGE_STATE.disabled]: '已停用',
};

/** Active or used up: a package that still runs until its expiry (a used-up one may get more count). */
export const isPackageRunning = (state: number): boolean =>
  state === PACKAGE_STATE.active || state === PACKAGE_STATE.usedUp;

/** A fixed/premium package still waiting for dedicated IPs of the region it was bought for. */
export const PENDING_STATE_TEXT = '分配中';

/**
 * What 分配中 means and when it ends: IPs are allocated the moment the payment arrives when the region has free
 * ones; otherwise as soon as the region gets one (checked every 5 minutes). The 24-hour promise is the operators'
 * restocking target (docs/decisions/202); past it the customer may ask for a refund of the unallocated IPs.
 */
export const PENDING_ALLOCATION_NOTE =
  '所选地区暂无空闲IP，补充后将自动分配（每5分钟检查一次，通常24小时内完成）；超过24小时仍未分配可联系客服退款。';

/** A package's usage text with its dedicated IPs still awaiting allocation, e.g. 1个独享IP（1个分配中）. */
export const withPendingIps = (usage: string, pendingIps: number): string =>
  pendingIps > 0 ? `${usage}（${pendingIps}个${PENDING_STATE_TEXT}）` : usage;
