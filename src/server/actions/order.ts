// Order.* actions: the bill list with filters and pages, deleting the user's unpaid or closed orders (an unpaid one
// is closed at the provider first and its coupon returned), the unpaid badge count, and the operator's full refund.
import { z } from 'zod';
import { ORDER_KIND_LABEL } from '../../lib/commerce';
import { ORDER_STATE, ORDER_STATE_LABEL, orderTookMoney } from '../../lib/order-states';
import { AppError } from '../../lib/errors';
import { messages } from '../../lib/messages';
import { findUserCoupon } from '../db/coupons';
import { countUnpaid, findUserOrder, hideClosedOrders, listBills, listOrderItems } from '../db/orders';
import { findPayment } from '../db/payments';
import { listOrderRefunds } from '../db/refunds';
import { auditActor } from '../domain/console-audit';
import { orderTransfer } from '../domain/bank-transfers';
import { closeOrder, payRailOf, userOrder } from '../domain/payments';
import { refundOrder } from '../domain/refunds';
import { payProviderFor } from '../providers/pay';
import { intIn, orderNoSchema, refundReasonSchema } from '../../lib/schemas';
import { defineAction } from './define';

const timeSchema = intIn(0, 4_102_444_800_000).default(0);

export const orderActions = {
  'Order.GetBillList': defineAction({
    summary:
      '账单列表：按状态（0全部/1待支付/2已支付/3已关闭/4已退款）、类型、产品、订单号、下单时间筛选，分页（每页最多50条）',
    access: 'user',
    cacheable: false,
    input: z.object({
      state: intIn(0, 4).default(0),
      kind: intIn(0, 7).default(0),
      productType: z.union([z.literal(0), z.literal(10), z.literal(40), z.literal(30), z.literal(50)]).default(0),
      orderNo: z.union([z.literal(''), orderNoSchema]).default(''),
      from: timeSchema,
      to: timeSchema,
      page: intIn(1, 10_000).default(1),
      pageSize: intIn(1, 50).default(10),
    }),
    async handler(ctx, input) {
      const { total, list } = await listBills(ctx.db, ctx.user.id, input, ctx.now);
      return {
        total,
        page: input.page,
        pageSize: input.pageSize,
        list: list.map((o) => {
          const expired = o.state === ORDER_STATE.pending && o.expiresAt <= ctx.now;
          const state = expired ? 3 : o.state;
          return {
            orderNo: o.orderNo,
            kind: o.kind,
            kindText: ORDER_KIND_LABEL[o.kind] ?? '',
            productType: o.productType,
            title: o.title,
            listFen: o.listFen,
            discountFen: o.discountFen,
            creditFen: o.creditFen,
            couponFen: o.couponFen,
            payFen: o.payFen,
            refundedFen: o.refundedFen,
            state,
            stateText: expired ? '已过期' : ORDER_STATE_LABEL[o.state],
            createdAt: o.createdAt,
            expiresAt: o.expiresAt,
            paidAt: o.paidAt,
            deletable: state === ORDER_STATE.pending || state === ORDER_STATE.closed,
          };
        }),
      };
    },
  }),

  'Order.DeleteByOrderNos': defineAction({
    summary:
      '删除订单（仅本人的待支付或已关闭订单；待支付订单先在支付渠道（微信支付、支付宝）关闭已发起的支付单并退回优惠券），返回删除条数',
    access: 'user',
    cacheable: false,
    input: z.object({
      orderNos: z.array(orderNoSchema).min(1, messages.orderDeleteNone).max(50, messages.invalidParams),
    }),
    async handler(ctx, input) {
      const orderNos = [...new Set(input.orderNos)];
      let pay: Awaited<ReturnType<typeof payProviderFor>> | null = null;
      for (const no of orderNos) {
        const order = await findUserOrder(ctx.db, ctx.user.id, no);
        if (order?.state !== ORDER_STATE.pending) continue;
        pay ??= await payProviderFor(ctx.env, ctx.config);
        await closeOrder(ctx.db, pay, no, ctx.now);
      }
      const deleted = await hideClosedOrders(ctx.db, ctx.user.id, orderNos, ctx.now);
      if (deleted === 0) throw new AppError('orderDeleteNone');
      return { deleted };
    },
  }),

  'Order.Cancel': defineAction({
    summary:
      '取消订单（仅本人的待支付订单）：先在各自的支付渠道（微信支付、支付宝）关闭已发起的支付单（已付款则按已支付处理并报错），再在一个事务中关闭订单、退回占用的优惠券；响应 orderNo、state 3',
    access: 'user',
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const order = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      if (order.state !== ORDER_STATE.pending)
        throw new AppError(order.state === ORDER_STATE.paid ? 'orderCancelPaid' : 'orderCancelNotPending');
      const outcome = await closeOrder(ctx.db, await payProviderFor(ctx.env, ctx.config), order.orderNo, ctx.now);
      if (outcome === 'paid') throw new AppError('orderCancelPaid');
      if (outcome === 'retry') throw new AppError('orderCancelRetry');
      if (outcome === 'not_open') {
        const now = await findUserOrder(ctx.db, ctx.user.id, input.orderNo);
        throw new AppError(now?.state === ORDER_STATE.paid ? 'orderCancelPaid' : 'orderCancelNotPending');
      }
      return { orderNo: order.orderNo, state: ORDER_STATE.closed };
    },
  }),

  'Order.GetDetail': defineAction({
    summary:
      '订单详情（仅本人）：所购内容（每项的规格、数量、新增IP数/每日额度/IP个数/有效天数）、金额（原价、活动优惠、升级抵扣、优惠券及券名、实付）、下单/支付/关闭时间、商户订单号与支付渠道的交易号、付款渠道 payRail（wechat/alipay/balance/transfer）；退款 refunds（每笔金额、时间、状态 status、去向 route、原因、是否结束订单/停用套餐、优惠券结果 couponOutcome：none/returned/expired/kept）与已退合计 refundedFen',
    access: 'user',
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const o = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      const [items, coupon, payment, refunds] = await Promise.all([
        listOrderItems(ctx.db, o.orderNo),
        o.userCouponId !== null ? findUserCoupon(ctx.db, ctx.user.id, o.userCouponId) : null,
        o.paidOutTradeNo ? findPayment(ctx.db, o.paidOutTradeNo) : null,
        orderTookMoney(o.state) ? listOrderRefunds(ctx.db, o.orderNo) : [],
      ]);
      // A FAILED refund moved no money: the customer sees only refunds WeChat accepted or is still answering.
      const shown = refunds.filter((r) => r.status !== 'FAILED');
      const expired = o.state === ORDER_STATE.pending && o.expiresAt <= ctx.now;
      return {
        orderNo: o.orderNo,
        kind: o.kind,
        kindText: ORDER_KIND_LABEL[o.kind] ?? '',
        productType: o.productType,
        title: o.title,
        state: expired ? 3 : o.state,
        stateText: expired ? '已过期' : ORDER_STATE_LABEL[o.state],
        items: items.map((i) => ({
          name: i.name,
          productType: i.productType,
          billingMethod: i.billingMethod,
          ipDurationMinutes: i.ipDurationMinutes,
          units: i.units,
          addCount: i.addCount,
          addDailyLimit: i.addDailyLimit,
          addIpCount: i.addIpCount,
          addDays: i.addDays,
          listFen: i.listFen,
          renewsPackage: i.packageId !== null,
        })),
        listFen: o.listFen,
        discountFen: o.discountFen,
        creditFen: o.creditFen,
        couponFen: o.couponFen,
        couponName: o.couponFen > 0 ? (coupon?.name ?? '优惠券') : null,
        payFen: o.payFen,
        createdAt: o.createdAt,
        expiresAt: o.expiresAt,
        paidAt: o.paidAt,
        closedAt: o.closedAt,
        outTradeNo: o.paidOutTradeNo,
        transactionId: payment?.transactionId ?? null,
        /** The rail the order was paid on (its refunds go back the same way). */
        payRail: payment ? payRailOf(payment.provider) : null,
        /** The company transfer chosen for the order (reference, account, reservation), or null (docs/decisions/227). */
        transfer: await orderTransfer(ctx.db, ctx.config.transferAccount, o),
        refundedFen: shown.reduce((sum, r) => sum + r.amountFen, 0),
        refunds: shown.map((r) => ({
          outRefundNo: r.outRefundNo,
          amountFen: r.amountFen,
          createdAt: r.createdAt,
          status: r.status,
          reason: r.reason,
          endsOrder: r.endsOrder,
          endsPackages: r.endsPackages,
          couponOutcome: r.couponOutcome,
          /** 'balance': the money went to the account balance; 'original': back to the rail in payRail. */
          route: r.route,
        })),
        /** The order's coupon as it is now (a refund may have given it back; decision 206). */
        coupon: coupon ? { name: coupon.name, expiresAt: coupon.expiresAt } : null,
      };
    },
  }),

  'Order.GetPayNoCount': defineAction({
    summary: '待支付订单数（未读角标 payNoCount），响应 count',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ count: await countUnpaid(ctx.db, ctx.user.id, ctx.now) }),
  }),

  'Order.RefundByOrderNo': defineAction({
    summary:
      '【运营】退款已支付订单（含 refund_needed 标记的订单），amountFen（分）不填即退全部可退金额，不得超过可退金额（实付 − 已退）：先登记退款单（与其他退款合计不超过实付），再按付款渠道退款（微信支付、支付宝：向渠道申请退款金额与订单总额；对公转账：不经渠道，记为处理中 PROCESSING，由财务银行转账退回后以 Admin.TransferRefundDone 标记完成；退回余额：不经渠道），受理后在一个事务中提交。退完全部可退金额即全额退款：订单置为已退款（4）、停用该订单新建的套餐（续费/加量/改期不回收）、冲销推广佣金、仍在有效期内的优惠券退回客户；否则为部分退款：订单仍为已支付，endPackages=true 时停用该订单新建的套餐，佣金与优惠券不变。route 为退款去向：original（默认，原路退回付款渠道：微信支付、支付宝或对公转账）或 balance（退回账户余额，在提交退款的同一事务中入账并记一笔余额明细）；余额支付的订单一律退回余额，余额充值订单不能在此退款。每次退款给客户发一条站内通知；响应 orderNo、outRefundNo、amountFen、endsOrder、endsPackages、route、rail（退回的渠道 wechat/alipay/transfer/balance）、status（SUCCESS/PROCESSING/ABNORMAL）',
    access: { operator: ['finance'] },
    cacheable: false,
    input: z.object({
      orderNo: orderNoSchema,
      amountFen: z
        .number({ error: messages.refundAmountInvalid })
        .int(messages.refundAmountInvalid)
        .positive(messages.refundAmountInvalid)
        .max(100_000_000, messages.refundAmountInvalid)
        .optional(),
      endPackages: z.boolean().default(false),
      route: z.enum(['original', 'balance'], { error: messages.invalidParams }).default('original'),
      reason: refundReasonSchema,
    }),
    async handler(ctx, input) {
      return refundOrder(ctx.db, () => payProviderFor(ctx.env, ctx.config), {
        orderNo: input.orderNo,
        route: input.route,
        ...(input.amountFen !== undefined ? { amountFen: input.amountFen } : {}),
        endPackages: input.endPackages,
        reason: input.reason,
        operatorId: ctx.operator.id,
        now: ctx.now,
        audit: (o) => ({
          actor: auditActor(ctx.operator, ctx.ip, ctx.now),
          entry: {
            action: 'Order.RefundByOrderNo',
            target: `order:${o.orderNo}`,
            before: { state: ORDER_STATE.paid },
            after: {
              state: o.endsOrder ? 4 : 2,
              outRefundNo: o.outRefundNo,
              amountFen: o.amountFen,
              endsPackages: o.endsPackages,
              status: o.status,
              route: o.route,
              // The rail the status is worded by (a refund to the balance says so in route already).
              ...(o.route === 'original' ? { rail: o.rail } : {}),
            },
            reason: input.reason,
          },
        }),
      });
    },
  }),
};
