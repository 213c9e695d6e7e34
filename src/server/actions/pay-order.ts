// PayOrder.* actions: price a checkout, place orders (buy, batch, renew, extra count, period change), get the WeChat
// QR code or the Alipay payment for an order, and poll an order's state. Amounts always come from the server's pricing engine.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { ORDER_STATE, ORDER_STATE_LABEL } from '../../lib/order-states';
import { messages } from '../../lib/messages';
import { findUserOrder } from '../db/orders';
import { priceCheckout, receivableSavings } from '../domain/checkout-coupons';
import { checkoutTerms, prepareCheckout } from '../domain/checkout-quote';
import { paymentCodeFor, placeOrderForPayment, refreshOrderPayment, userOrder } from '../domain/payments';
import { jsapiStep } from '../domain/wechat-jsapi';
import { payProviderFor } from '../providers/pay';
import { couponIdSchema, idSchema, intIn, orderNoSchema, unitsSchema } from '../../lib/schemas';
import { defineAction } from './define';

const regionIdSchema = idSchema.optional();
const lineSchema = z.object({ mealId: idSchema, units: unitsSchema, regionId: regionIdSchema });
const periodsSchema = intIn(1, 12, '续费周期数需为1-12');
const countSchema = intIn(1, 10_000_000, '补量数量需为1-10000000');
const daysSchema = intIn(1, 365, '延长天数需为1-365');

export const checkoutRequestSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('buy'), mealId: idSchema, units: unitsSchema, regionId: regionIdSchema }),
    z.object({
      kind: z.literal('batch'),
      items: z.array(lineSchema).min(1, messages.quantityInvalid).max(10, messages.quantityInvalid),
    }),
    z.object({ kind: z.literal('renew'), packageId: idSchema, periods: periodsSchema }),
    z.object({ kind: z.literal('addTimes'), packageId: idSchema, count: countSchema }),
    z.object({ kind: z.literal('changeDate'), packageId: idSchema, days: daysSchema }),
    z.object({
      kind: z.literal('merge'),
      packageIds: z.array(idSchema).min(1, messages.mergeTypeMismatch).max(10, messages.mergeTypeMismatch),
      mealId: idSchema,
      units: unitsSchema,
    }),
  ],
  { error: messages.invalidParams },
);

export type { PlacedOrderView } from '../domain/payments';

/**
 * An action that orders an extension of one of the user's packages (renew, extra count, period change): the package,
 * the request's own amount field (`shape`, the same schema as its member of checkoutRequestSchema), and a coupon.
 */
function extensionAction<S extends z.ZodRawShape>(
  kind: 'renew' | 'addTimes' | 'changeDate',
  summary: string,
  shape: S,
) {
  return defineAction({
    summary,
    access: 'verified',
    cacheable: false,
    input: z.object({ packageId: idSchema, ...shape, couponId: couponIdSchema }),
    handler: (ctx, input) => {
      const { couponId, ...request } = input as { couponId?: number | undefined };
      // Already valid (the same schemas): parsing once more gives the request its checked type.
      return placeOrderForPayment(ctx, checkoutRequestSchema.parse({ kind, ...request }), couponId);
    },
  });
}

export const payOrderActions = {
  'PayOrder.Quote': defineAction({
    summary:
      '计算订单价格（原价、活动优惠、升级抵扣、优惠券、应付），并给出可用优惠券及最优券、可领取的优惠券在本单能省多少（receivableSavings，按券规则 id）；不传 couponId 即不用券；terms 为每项的交付内容（IP数/每日IP数含赠量、IP时长、有效天数、活动名称与比例）',
    access: 'public',
    cacheable: false,
    input: z.object({ request: checkoutRequestSchema, couponId: couponIdSchema }),
    async handler(ctx, input) {
      const userId = ctx.user?.id ?? null;
      const prepared = await prepareCheckout(ctx.db, userId, input.request, ctx.now);
      const priced = await priceCheckout(ctx.db, userId, prepared, input.couponId, ctx.now);
      return {
        ...priced,
        title: prepared.title,
        couponsAllowed: prepared.couponsAllowed,
        terms: checkoutTerms(prepared),
        receivableSavings: await receivableSavings(ctx.db, userId, prepared, ctx.now),
      };
    },
  }),

  'PayOrder.BuyProxy': defineAction({
    summary:
      '购买套餐：按套餐规格与数量下单（固定/优质IP需选地区），可用一张优惠券；返回订单号、应付金额与支付二维码链接',
    access: 'verified',
    cacheable: false,
    input: z.object({ mealId: idSchema, units: unitsSchema, regionId: regionIdSchema, couponId: couponIdSchema }),
    handler: (ctx, { couponId, ...line }) => placeOrderForPayment(ctx, { kind: 'buy', ...line }, couponId),
  }),

  'PayOrder.BatchBuyDiscountProxy': defineAction({
    summary: '批量购买：一次下单多个套餐规格（最多10项），各自享受活动优惠，合并支付',
    access: 'verified',
    cacheable: false,
    input: z.object({
      items: z.array(lineSchema).min(1, messages.quantityInvalid).max(10, messages.quantityInvalid),
      couponId: couponIdSchema,
    }),
    handler: (ctx, input) => placeOrderForPayment(ctx, { kind: 'batch', items: input.items }, input.couponId),
  }),

  'PayOrder.RenewProxy': extensionAction(
    'renew',
    '续费：按原套餐规格再购买 periods 个周期（按量套餐追加IP数并延长有效期，包天/固定IP延长有效期）',
    { periods: periodsSchema },
  ),

  'PayOrder.BuyAddTimes': extensionAction('addTimes', '补量：为按量套餐追加IP个数（按套餐单价计算，向上取整到分）', {
    count: countSchema,
  }),

  'PayOrder.BuyChangeDate': extensionAction(
    'changeDate',
    '延长时长：按天延长包天套餐或固定/优质IP的有效期（按原规格日均价折算，向上取整到分）',
    { days: daysSchema },
  ),

  'PayOrder.GetPayCode': defineAction({
    summary:
      '获取待支付订单的支付方式：rail 为 wechat（默认）或 alipay；mode 为 qr（扫码，默认）、page（仅支付宝：电脑网站支付，跳转）、wap（手机支付，跳转：微信H5支付、支付宝手机网站支付）或 jsapi（仅微信：在微信内打开的页面，返回 authorizeUrl 时先跳转微信网页授权，否则返回交给 WeixinJSBridge 的 bridge 参数；开发环境另有模拟微信客户端的 standInUrl）。codeUrl 为二维码内容或跳转地址；复用同一方式的有效支付单，否则发起新的支付尝试；alipayAvailable 表示本站是否开通支付宝',
    access: 'verified',
    cacheable: false,
    input: z.object({
      orderNo: orderNoSchema,
      rail: z.enum(['wechat', 'alipay'], { error: messages.invalidParams }).optional(),
      mode: z.enum(['qr', 'page', 'wap', 'jsapi'], { error: messages.invalidParams }).optional(),
    }),
    async handler(ctx, input) {
      const order = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      const pay = await payProviderFor(ctx.env, ctx.config);
      const rail = input.rail ?? 'wechat';
      const mode = input.mode ?? 'qr';
      const common = {
        orderNo: order.orderNo,
        rail,
        payFen: order.payFen,
        expiresAt: order.expiresAt,
        alipayAvailable: pay.alipay !== null,
      };
      if (mode === 'jsapi') {
        if (rail !== 'wechat') throw new AppError('invalidParams');
        const step = await jsapiStep(ctx.db, pay, ctx.config.sessionSecret, order, ctx.now);
        return { ...common, mode, codeUrl: '', provider: pay.provider.name, ...step };
      }
      const { codeUrl } = await paymentCodeFor(ctx.db, pay, order, ctx.now, { rail, mode, payerIp: ctx.ip });
      return {
        orderNo: order.orderNo,
        codeUrl,
        rail,
        mode,
        payFen: order.payFen,
        expiresAt: order.expiresAt,
        provider: rail === 'alipay' ? (pay.alipay?.name ?? '') : pay.provider.name,
        alipayAvailable: pay.alipay !== null,
      };
    },
  }),

  'PayOrder.GetOrderStateByOrderId': defineAction({
    summary: '查询订单状态（支付弹窗轮询）：state 1 待支付、2 已支付、3 已关闭；expired 表示已过支付期限',
    access: 'user',
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      let order = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      if (order.state === ORDER_STATE.pending && order.expiresAt > ctx.now) {
        try {
          await refreshOrderPayment(ctx.db, await payProviderFor(ctx.env, ctx.config), order, ctx.now);
          order = (await findUserOrder(ctx.db, ctx.user.id, input.orderNo)) ?? order;
        } catch (err) {
          console.warn(JSON.stringify({ level: 'warn', where: 'GetOrderStateByOrderId', error: String(err) }));
        }
      }
      const expired = order.state === ORDER_STATE.pending && order.expiresAt <= ctx.now;
      return {
        orderNo: order.orderNo,
        state: order.state,
        stateText: expired ? '已过期' : ORDER_STATE_LABEL[order.state],
        expired,
        title: order.title,
        listFen: order.listFen,
        discountFen: order.discountFen,
        creditFen: order.creditFen,
        couponFen: order.couponFen,
        payFen: order.payFen,
        createdAt: order.createdAt,
        expiresAt: order.expiresAt,
        paidAt: order.paidAt,
      };
    },
  }),
};
