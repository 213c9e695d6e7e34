// Welfare trial actions: the offered trial package and claiming it (once per real person / company).
import { z } from 'zod';
import { findWelfareMeal } from '../db/welfare';
import { giveWelfare } from '../domain/welfare';
import { defineAction } from './define';

export const welfareActions = {
  'ProxyMeal.GetWelfareMeal': defineAction({
    summary: '免费试用套餐说明（实名认证后每个身份可领取一次）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      const m = await findWelfareMeal(ctx.db);
      return {
        meal: m
          ? {
              id: m.id,
              name: m.name,
              productType: m.productType,
              billingMethod: m.billingMethod,
              ipDurationMinutes: m.ipDurationMinutes,
              ipCount: m.ipCount,
              validDays: m.validDays,
            }
          : null,
      };
    },
  }),

  'Proxy.GiveWelfareMeal': defineAction({
    summary:
      '领取免费试用套餐：需实名认证；同一实名身份或企业仅限一次，每个账号也仅限一次（认证方式变化后亦然），并发领取也只成功一次',
    access: 'verified',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      return giveWelfare(ctx.db, ctx.user, ctx.now);
    },
  }),
};
