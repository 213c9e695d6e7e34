// ProxyUpgrade.* actions (upgrade and merge, extra count prices) and Proxy.GetProxyRenewInfo. Credits follow
// docs/decisions/031-upgrade-and-merge-credit.md.
import { z } from 'zod';
import { durationLabel } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { messages } from '../../lib/messages';
import { findUserPackage, listUserPackages } from '../db/package-terms';
import { offeredMeals } from '../domain/catalogue';
import { priceCheckout } from '../domain/checkout-coupons';
import { prepareCheckout } from '../domain/checkout-quote';
import { upgradeTargets } from '../domain/checkout-upgrade';
import { effectiveState, packageStateText, pendingIpsOf } from '../domain/packages';
import { placeOrderForPayment } from '../domain/payments';
import { remainingValue } from '../domain/pricing';
import { couponIdSchema, idSchema, intIn, productTypeSchema, unitsSchema } from '../../lib/schemas';
import { defineAction } from './define';
import { PACKAGE_STATE } from '../../lib/package-states';

export const proxyUpgradeActions = {
  'ProxyUpgrade.GetAllProxyTime': defineAction({
    summary: '升级可选的IP时长及各时长下的在售规格（短效 3/5/10/15/30 分钟，长效 1/4/8/12/24 小时）',
    access: 'public',
    cacheable: true,
    input: z.object({ type: z.union([z.literal(10), z.literal(40)], { error: '产品类型必须是 10 或 40' }) }),
    async handler(ctx, input) {
      const meals = await offeredMeals(ctx.db, input.type, ctx.now);
      const minutes = [...new Set(meals.map((m) => m.ipDurationMinutes))].sort((a, b) => a - b);
      return {
        list: minutes.map((m) => ({
          ipDurationMinutes: m,
          label: durationLabel(m),
          meals: meals.filter((x) => x.ipDurationMinutes === m),
        })),
      };
    },
  }),

  'ProxyUpgrade.getProxyList': defineAction({
    summary: '可升级/合并的套餐列表（同一产品类型），附每个套餐当前可抵扣的剩余价值 creditFen',
    access: 'user',
    cacheable: false,
    input: z.object({ type: productTypeSchema }),
    async handler(ctx, input) {
      const [list, meals] = await Promise.all([
        listUserPackages(ctx.db, ctx.user.id, input.type),
        offeredMeals(ctx.db, input.type, ctx.now),
      ]);
      return {
        list: list.map((p) => {
          const creditFen = remainingValue(p, ctx.now);
          const mergeable = p.state === PACKAGE_STATE.active && !p.reserved;
          const shown = effectiveState(p, ctx.now);
          const pendingIps = pendingIpsOf(p, shown);
          return {
            id: p.id,
            name: p.name,
            productType: p.productType,
            billingMethod: p.billingMethod,
            ipDurationMinutes: p.ipDurationMinutes,
            totalCount: p.totalCount,
            remainingCount: p.remainingCount,
            dailyLimit: p.dailyLimit,
            ipCount: p.ipCount,
            expiresAt: p.expiresAt,
            state: p.state,
            /** What the customer reads, as in the package list: 升级中, 分配中 (IPs awaiting allocation) or the state. */
            stateText: packageStateText({ state: shown, reserved: p.reserved, pendingIps }),
            /** Dedicated IPs bought but not yet allocated (分配中; PENDING_ALLOCATION_NOTE says when they come). */
            pendingIps,
            renewable: p.mealId !== null,
            mergeable,
            reserved: p.reserved,
            creditFen,
            /** What this package can be upgraded to, priced after its credit (empty when it cannot be upgraded). */
            upgradeTargets: mergeable ? upgradeTargets(p, meals, creditFen) : [],
            /** A package no order created (a gift): the catalogue meal of the same specification, to buy anew. */
            sameMealId:
              p.mealId ??
              meals.find(
                (m) =>
                  m.billingMethod === p.billingMethod &&
                  m.ipDurationMinutes === p.ipDurationMinutes &&
                  m.size === (p.billingMethod === 2 ? p.dailyLimit : p.totalCount),
              )?.id ??
              null,
          };
        }),
      };
    },
  }),

  'ProxyUpgrade.mergeProxy': defineAction({
    summary:
      '升级/合并：选择同类型的一个或多个有效套餐与目标规格下单，原套餐剩余价值抵扣（不可用券，支付后原套餐失效）',
    access: 'verified',
    cacheable: false,
    input: z.object({
      packageIds: z.array(idSchema).min(1, messages.mergeTypeMismatch).max(10, messages.mergeTypeMismatch),
      mealId: idSchema,
      units: unitsSchema,
    }),
    handler: (ctx, input) => placeOrderForPayment(ctx, { kind: 'merge', ...input }, undefined),
  }),

  'ProxyUpgrade.GetAddTimesPrice': defineAction({
    summary: '补量价格：按量套餐追加 count 个IP的应付金额（含活动折扣与可用优惠券）',
    access: 'user',
    cacheable: false,
    input: z.object({
      packageId: idSchema,
      count: intIn(1, 10_000_000, '补量数量需为1-10000000'),
      couponId: couponIdSchema,
    }),
    async handler(ctx, input) {
      const prepared = await prepareCheckout(
        ctx.db,
        ctx.user.id,
        { kind: 'addTimes', packageId: input.packageId, count: input.count },
        ctx.now,
      );
      return {
        ...(await priceCheckout(ctx.db, ctx.user.id, prepared, input.couponId, ctx.now)),
        title: prepared.title,
      };
    },
  }),

  'Proxy.GetProxyRenewInfo': defineAction({
    summary: '续费信息：套餐当前状态、续费规格与 periods 个周期的价格（含活动与可用优惠券）',
    access: 'user',
    cacheable: false,
    input: z.object({ packageId: idSchema, periods: intIn(1, 12, '续费周期数需为1-12').default(1) }),
    async handler(ctx, input) {
      const pkg = await findUserPackage(ctx.db, ctx.user.id, input.packageId);
      if (!pkg) throw new AppError('packageNotFound');
      const prepared = await prepareCheckout(
        ctx.db,
        ctx.user.id,
        { kind: 'renew', packageId: input.packageId, periods: input.periods },
        ctx.now,
      );
      const line = prepared.lines[0];
      if (!line) throw new AppError('packageNotRenewable');
      const priced = await priceCheckout(ctx.db, ctx.user.id, prepared, undefined, ctx.now);
      return {
        packageId: pkg.id,
        name: pkg.name,
        productType: pkg.productType,
        billingMethod: pkg.billingMethod,
        expiresAt: pkg.expiresAt,
        remainingCount: pkg.remainingCount,
        dailyLimit: pkg.dailyLimit,
        ipCount: pkg.ipCount,
        title: prepared.title,
        periods: input.periods,
        periodOptions: [1, 2, 3, 6, 12],
        addCount: line.quote.grant.count,
        addDays: line.quote.grant.days,
        ...priced,
      };
    },
  }),
};
