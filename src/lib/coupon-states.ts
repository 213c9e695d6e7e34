// A customer's coupon's stored states (user_coupons.state): TypeScript compares with these names and the SQL in
// src/server/db interpolates them (`state = ${USER_COUPON_STATE.unused}`). The personal centre's 未使用/已使用/已过期
// tabs are filters over these (an unused coupon past its expiry reads 已过期), not states of their own.
export const USER_COUPON_STATE = { unused: 1, locked: 2, used: 3 } as const;
export type UserCouponState = (typeof USER_COUPON_STATE)[keyof typeof USER_COUPON_STATE];

/** Held by an unpaid order: returned when that order closes. */
export const isCouponLocked = (state: number): boolean => state === USER_COUPON_STATE.locked;
