// Coupon.* actions: the user's coupons by state, the coupons they may receive, and receiving one (per-user limit and
// stock enforced atomically).
import { z } from 'zod';
import { isCouponLocked } from '../../lib/coupon-states';
import { AppError } from '../../lib/errors';
import { listClaimableCoupons, listUserCoupons, receiveCoupon } from '../db/coupons';
import { idSchema } from '../../lib/schemas';
import { defineAction } from './define';

export const couponActions = {
  'Coupon.GetList': defineAction({
    summary: '我的优惠券：state 1 未使用、2 已使用（含待支付订单占用）、3 已过期',
    access: 'user',
    cacheable: false,
    input: z.object({
      state: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '优惠券状态必须是 1、2 或 3' }).default(1),
    }),
    async handler(ctx, input) {
      const filter = input.state === 1 ? 'unused' : input.state === 2 ? 'used' : 'expired';
      const list = await listUserCoupons(ctx.db, ctx.user.id, filter, ctx.now);
      return {
        list: list.map((c) => ({
          id: c.userCouponId,
          name: c.name,
          kind: c.kind,
          value: c.value,
          thresholdFen: c.thresholdFen,
          productTypes: c.productTypes,
          validFrom: c.validFrom,
          expiresAt: c.expiresAt,
          state: c.state,
          locked: isCouponLocked(c.state),
          orderNo: c.orderNo,
          usedAt: c.usedAt,
        })),
      };
    },
  }),

  'Coupon.GetReceivable': defineAction({
    summary: '可领取的优惠券（含每人限领数量、剩余库存与本人已领数量）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listClaimableCoupons(ctx.db, ctx.user.id, ctx.now) }),
  }),

  'Coupon.Receive': defineAction({
    summary: '领取优惠券（超出每人限领数量或库存时失败）',
    access: 'user',
    cacheable: false,
    input: z.object({ couponId: idSchema }),
    async handler(ctx, input) {
      const id = await receiveCoupon(ctx.db, ctx.user.id, input.couponId, ctx.now, { requireClaimable: true });
      if (id !== null) return { id };
      const rule = (await listClaimableCoupons(ctx.db, ctx.user.id, ctx.now)).find((c) => c.id === input.couponId);
      throw new AppError(rule && rule.received >= rule.perUserLimit ? 'couponLimit' : 'couponGone');
    },
  }),
};
