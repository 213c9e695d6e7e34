// ProxyMeal.* actions: the catalogue for the order pages (public, cacheable).
import { z } from 'zod';
import { durationLabel } from '../../lib/commerce';
import { listSaleRegions } from '../db/catalogue';
import { mealOverview, offeredMeals } from '../domain/catalogue';
import { productTypeSchema } from '../../lib/schemas';
import { defineAction } from './define';

export const proxyMealActions = {
  'ProxyMeal.GetMealOverview': defineAction({
    summary: '各产品类型的最大折扣 meaDiscountMax、最大赠送比例 mealSendMax（百分比）与最低单价 mealMinPrice（分）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    handler: (ctx) => mealOverview(ctx.db, ctx.now),
  }),

  'ProxyMeal.GetMealWithActivity': defineAction({
    summary: '某产品类型的全部在售规格及其活动（折扣/赠量、标签 折扣{n}%/赠量{n}%/超低折扣）、IP时长选项与可选地区',
    access: 'public',
    cacheable: true,
    input: z.object({ type: productTypeSchema }),
    async handler(ctx, input) {
      const [meals, regions] = await Promise.all([
        offeredMeals(ctx.db, input.type, ctx.now),
        input.type === 30 || input.type === 50 ? listSaleRegions(ctx.db, input.type) : Promise.resolve([]),
      ]);
      const minutes = [...new Set(meals.map((m) => m.ipDurationMinutes).filter((m) => m > 0))].sort((a, b) => a - b);
      return {
        type: input.type,
        meals,
        ipTimes: minutes.map((m) => ({ minutes: m, label: durationLabel(m) })),
        regions,
      };
    },
  }),
};
