// Admin.Order* actions: find orders, see one with its payment attempts and refunds, preview a refund (the refund itself
// is Order.RefundByOrderNo), preview and refund one payment attempt flagged refund_needed (docs/decisions/180), ask
// each open attempt's own provider (WeChat Pay or Alipay) about an order now, export orders as CSV.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { DAY_MS, shanghaiDateTime, shanghaiDayStart } from '../../lib/time';
import { auditInsertStatement } from '../db/console-audit';
import { orderDetail, searchOrders } from '../db/console-orders';
import { orderRefundedFen } from '../db/refunds';
import { auditActor } from '../domain/console-audit';
import { refundPreview } from '../domain/console-screens';
import { askableRails, askProviderAboutOrder, payRailOf } from '../domain/payments';
import { paymentRefundPreview, refundPayment } from '../domain/refunds';
import { payProviderFor } from '../providers/pay';
import { orderNoSchema, outTradeNoSchema, refundReasonSchema } from '../../lib/schemas';
import { FINANCE, READERS } from '../../lib/operator-roles';
import { ORDER_STATE_LABEL } from '../../lib/order-states';
import { refundRail, refundStatusText } from '../../lib/refund-rules';
import { defineAction } from './define';

/** Most rows one CSV export carries (narrow the dates for more). */
export const ORDER_EXPORT_MAX_ROWS = 5000;

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  // A leading = + - @ would be a formula in a spreadsheet: prefix it so the cell stays text.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const dayRange = z.object({
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '请选择开始日期')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '请选择结束日期')
    .optional(),
});

export const consoleOrderActions = {
  'Admin.OrderSearch': defineAction({
    summary:
      '【运营后台】按订单号、手机号或用户ID查找订单，可按状态与下单日期（上海时间）筛选，flag=refund_needed 只列需退款的支付（已付款但订单无法接收），flag=refund_issue 只列退款待核对的订单（退款异常、结果超过一天未明（含待财务转账退回的对公转账退款），或订单已退款而微信关闭了退款）；每行带 refundNeeded；按下单时间倒序分页',
    access: READERS,
    cacheable: false,
    input: dayRange.extend({
      q: z.string().trim().max(64, '查询内容过长').default(''),
      state: z.number().int().min(0).max(4).default(0),
      beforeCreatedAt: z.number().int().positive().optional(),
      flag: z.enum(['refund_needed', 'refund_issue'], { error: '筛选条件无效' }).optional(),
    }),
    async handler(ctx, input) {
      const list = await searchOrders(ctx.db, {
        ...(input.flag === 'refund_needed' ? { refundNeeded: true } : {}),
        ...(input.flag === 'refund_issue' ? { refundIssueAt: ctx.now } : {}),
        q: input.q,
        state: input.state,
        limit: 50,
        ...(input.from ? { from: shanghaiDayStart(input.from) } : {}),
        ...(input.to ? { to: shanghaiDayStart(input.to) + DAY_MS } : {}),
        ...(input.beforeCreatedAt ? { beforeCreatedAt: input.beforeCreatedAt } : {}),
      });
      return { list };
    },
  }),

  'Admin.OrderDetail': defineAction({
    summary:
      '【运营后台】订单详情：金额构成、支付尝试（含 refund_needed 标记）、退款记录（含部分退款、优惠券结果、去向 route；rail 为退回的渠道 wechat/alipay/transfer/balance，statusText 为按该渠道写的状态文字，如「支付宝处理中，稍后到账」「待财务转账退回」「已退回账户余额」）、已退合计 refundedFen、askRails（未完成支付单可向其查询的渠道 wechat/alipay，空则无可查询的渠道）',
    access: READERS,
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const [d, refundedFen] = await Promise.all([
        orderDetail(ctx.db, input.orderNo),
        orderRefundedFen(ctx.db, input.orderNo),
      ]);
      if (!d.order) throw new AppError('orderNotFound');
      // Each refund goes back by the rail of the attempt it refunds (an order's: the paying one), or to the balance.
      const providerOf = new Map(d.payments.map((p) => [p.outTradeNo, p.provider]));
      const refunds = d.refunds.map((r) => {
        const provider = providerOf.get(r.outTradeNo);
        const rail = refundRail(r.route, provider ? payRailOf(provider) : null);
        return { ...r, rail, statusText: refundStatusText(r.status, rail) };
      });
      // The rails 向…查询 would ask about the order's open attempts (none: no provider to ask, no button).
      return { ...d, order: d.order, refunds, refundedFen, askRails: askableRails(d.payments) };
    },
  }),

  'Admin.RefundPreview': defineAction({
    summary:
      '【运营后台·财务】退款预览（不写入）：实付 payFen、已退 refundedFen、可退 refundableFen（退完即全额退款）、按未使用比例建议的退款 suggestedFen、该订单新建套餐的使用情况 usage（IP 已用/剩余、天数已用/剩余）、全额退款将停用的套餐与冲销的佣金、优惠券及全额退款时能否退回，或不能退款的原因；确认后调用 Order.RefundByOrderNo',
    access: FINANCE,
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    handler: async (ctx, input) => refundPreview(ctx.db, input.orderNo, ctx.now),
  }),

  'Admin.RefundPaymentPreview': defineAction({
    summary:
      '【运营后台·财务】单笔支付退款预览（不写入）：标记「需退款」的支付尝试（订单已关闭或已由另一笔支付付款）的退款金额、处理中的退款，或不能退款的原因；确认后调用 Admin.RefundPayment',
    access: FINANCE,
    cacheable: false,
    input: z.object({ outTradeNo: outTradeNoSchema }),
    handler: async (ctx, input) => paymentRefundPreview(ctx.db, input.outTradeNo),
  }),

  'Admin.RefundPayment': defineAction({
    summary:
      '【运营后台·财务】全额退款一笔标记「需退款」的支付尝试（按商户订单号 outTradeNo）：先登记退款单，再按这笔支付的渠道退款（微信支付或支付宝向渠道申请；对公转账记为处理中，由财务银行转账退回），受理后在一个事务中清除需退款标记、记录退款状态并写操作日志；订单状态、套餐与佣金不变；付款订单的那笔支付请用 Order.RefundByOrderNo；响应 outTradeNo、orderNo、outRefundNo、amountFen、rail（退回的渠道 wechat/alipay/transfer）、status（SUCCESS/PROCESSING/ABNORMAL）',
    access: FINANCE,
    cacheable: false,
    input: z.object({ outTradeNo: outTradeNoSchema, reason: refundReasonSchema }),
    async handler(ctx, input) {
      return refundPayment(ctx.db, () => payProviderFor(ctx.env, ctx.config), {
        outTradeNo: input.outTradeNo,
        reason: input.reason,
        operatorId: ctx.operator.id,
        now: ctx.now,
        audit: (o) => ({
          actor: auditActor(ctx.operator, ctx.ip, ctx.now),
          entry: {
            action: 'Admin.RefundPayment',
            target: `payment:${o.outTradeNo}`,
            before: { orderNo: o.orderNo, refundNeeded: 1 },
            after: {
              refundNeeded: 0,
              outRefundNo: o.outRefundNo,
              amountFen: o.amountFen,
              status: o.status,
              rail: o.rail,
            },
            reason: input.reason,
          },
        }),
      });
    },
  }),

  'Admin.OrderAskProvider': defineAction({
    summary:
      '【运营后台·财务】立即向订单未完成支付单各自的支付渠道查询（微信支付的问微信支付，支付宝的问支付宝）并按结果处理（补记已支付等）；没有等待微信支付或支付宝答复的支付单（等待或已完成对公转账、余额支付）时拒绝；响应每笔支付的 outTradeNo、rail（被查询的渠道 wechat/alipay）、outcome 与按该渠道写的结果文字 text（如「支付宝答复：未支付」）',
    access: FINANCE,
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const results = await askProviderAboutOrder(
        ctx.db,
        () => payProviderFor(ctx.env, ctx.config),
        input.orderNo,
        ctx.now,
      );
      // The outcome is the provider's, applied by the payment engine; the query itself is recorded.
      await auditInsertStatement(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), {
        action: 'Admin.OrderAskProvider',
        target: `order:${input.orderNo}`,
        after: results.map(({ outTradeNo, rail, outcome }) => ({ outTradeNo, rail, outcome })),
      }).run();
      return { results };
    },
  }),

  'Admin.OrderExport': defineAction({
    summary: `【运营后台·财务】导出订单 CSV（UTF-8 带 BOM；按下单日期与状态筛选；每次最多 ${ORDER_EXPORT_MAX_ROWS} 行）`,
    access: FINANCE,
    cacheable: false,
    input: dayRange.extend({ state: z.number().int().min(0).max(4).default(0) }),
    async handler(ctx, input) {
      const rows = await searchOrders(ctx.db, {
        q: '',
        state: input.state,
        limit: ORDER_EXPORT_MAX_ROWS,
        ...(input.from ? { from: shanghaiDayStart(input.from) } : {}),
        ...(input.to ? { to: shanghaiDayStart(input.to) + DAY_MS } : {}),
      });
      const header = [
        '订单号',
        '用户ID',
        '手机号',
        '商品',
        '原价(分)',
        '实付(分)',
        '状态',
        '下单时间',
        '支付时间',
        '退款时间',
      ];
      const iso = (ms: number | null) => (ms ? shanghaiDateTime(ms) : '');
      const lines = rows.map((r) =>
        [
          r.orderNo,
          r.userId,
          r.phone,
          r.title,
          r.listFen,
          r.payFen,
          ORDER_STATE_LABEL[r.state] ?? r.state,
          iso(r.createdAt),
          iso(r.paidAt),
          iso(r.refundedAt),
        ]
          .map(csvCell)
          .join(','),
      );
      await auditInsertStatement(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), {
        action: 'Admin.OrderExport',
        target: 'orders',
        after: { rows: rows.length, ...input },
      }).run();
      return {
        filename: `orders-${input.from ?? 'all'}-${input.to ?? 'now'}.csv`,
        rows: rows.length,
        truncated: rows.length === ORDER_EXPORT_MAX_ROWS,
        csv: `\uFEFF${[header.join(','), ...lines].join('\r\n')}\r\n`,
      };
    },
  }),
};
