// Balance.* actions (账户余额, docs/decisions/224): the balance with its ledger (paged, and as CSV), placing a top-up
// order (paid like any order), and paying an unpaid order from balance (PayOrder.PayFromBalance).
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import {
  AUTO_RENEW_NOTICE_HOURS,
  AUTO_RENEW_WINDOW_HOURS,
  LEDGER_KIND_LABEL,
  TOP_UP_MAX_FEN,
  TOP_UP_MIN_FEN,
  TOP_UP_PRESETS_FEN,
} from '../../lib/balance';
import { csvDocument } from '../../lib/csv';
import { messages } from '../../lib/messages';
import { shanghaiDateTime, shanghaiDay } from '../../lib/time';
import { setAutoRenew } from '../db/auto-renew';
import { balanceOf, type LedgerEntry, ledgerPage } from '../db/balance';
import { payFromBalance, placeTopUp } from '../domain/balance';
import { userOrder } from '../domain/payments';
import { idSchema, intIn, orderNoSchema } from '../../lib/schemas';
import { defineAction } from './define';

/** The most rows one CSV download carries (newest first). */
const CSV_MAX_ROWS = 5_000;

const entryView = (e: LedgerEntry) => ({
  id: e.id,
  kind: e.kind,
  kindText: LEDGER_KIND_LABEL[e.kind] ?? '',
  amountFen: e.amountFen,
  balanceAfterFen: e.balanceAfterFen,
  orderNo: e.orderNo ?? '',
  note: e.note,
  createdAt: e.createdAt,
});

const yuan = (fen: number) => (fen / 100).toFixed(2);

export const balanceActions = {
  'Balance.Get': defineAction({
    summary:
      '账户余额（分）与余额明细（充值/消费/退款/调整/自动续费，金额带符号，balanceAfterFen 为该笔后的余额），分页，最新在前；另给出充值金额范围与快捷金额。与推广佣金无关',
    access: 'user',
    cacheable: false,
    input: z.object({ page: intIn(1, 10_000).default(1), pageSize: intIn(1, 50).default(10) }),
    async handler(ctx, input) {
      const [balanceFen, ledger] = await Promise.all([
        balanceOf(ctx.db, ctx.user.id),
        ledgerPage(ctx.db, ctx.user.id, { offset: (input.page - 1) * input.pageSize, limit: input.pageSize }),
      ]);
      return {
        balanceFen,
        total: ledger.total,
        page: input.page,
        pageSize: input.pageSize,
        list: ledger.list.map(entryView),
        topUp: { minFen: TOP_UP_MIN_FEN, maxFen: TOP_UP_MAX_FEN, presetsFen: [...TOP_UP_PRESETS_FEN] },
      };
    },
  }),

  'Balance.ExportLedger': defineAction({
    summary: `下载余额明细（CSV，UTF-8 带 BOM，Excel 可直接打开，北京时间，最多最近${CSV_MAX_ROWS}条）`,
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const { list, total } = await ledgerPage(ctx.db, ctx.user.id, { offset: 0, limit: CSV_MAX_ROWS });
      return {
        filename: `balance-${shanghaiDay(ctx.now)}.csv`,
        csv: csvDocument(
          ['时间（北京时间）', '类型', '收入（元）', '支出（元）', '余额（元）', '订单号', '说明'],
          list.map((e) => [
            shanghaiDateTime(e.createdAt),
            LEDGER_KIND_LABEL[e.kind] ?? '',
            e.amountFen > 0 ? yuan(e.amountFen) : '',
            e.amountFen < 0 ? yuan(-e.amountFen) : '',
            yuan(e.balanceAfterFen),
            e.orderNo ?? '',
            e.note,
          ]),
        ),
        rows: list.length,
        truncated: total > list.length,
      };
    },
  }),

  'Balance.TopUp': defineAction({
    summary: `余额充值：下一笔“余额充值”订单（金额单位分，${TOP_UP_MIN_FEN / 100}-${TOP_UP_MAX_FEN / 100}元），与其他订单一样用微信支付或支付宝付款，支付成功后金额计入账户余额（只计一次）`,
    access: 'verified',
    cacheable: false,
    input: z.object({
      amountFen: z
        .number({ error: messages.topUpAmountInvalid })
        .int(messages.topUpAmountInvalid)
        .min(TOP_UP_MIN_FEN, messages.topUpAmountInvalid)
        .max(TOP_UP_MAX_FEN, messages.topUpAmountInvalid),
    }),
    async handler(ctx, input) {
      const placed = await placeTopUp(ctx.db, {
        userId: ctx.user.id,
        sourceType: ctx.sourceType,
        amountFen: input.amountFen,
        now: ctx.now,
      });
      return { ...placed, codeUrl: null, payPageUrl: `/payPage?orderNo=${placed.orderNo}` };
    },
  }),

  'PayOrder.PayFromBalance': defineAction({
    summary:
      '余额支付：用账户余额支付一笔待支付订单（扣款与发货在同一事务中，余额不足或订单已支付/关闭/过期时不扣款）；余额充值订单不能用余额支付；返回剩余余额',
    access: 'verified',
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const order = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      const { balanceFen } = await payFromBalance(ctx.db, order, ctx.now);
      return { orderNo: order.orderNo, paid: true, chargedFen: order.payFen, balanceFen };
    },
  }),

  'Balance.SetAutoRenew': defineAction({
    summary: `套餐自动续费开关（按套餐）：开启后到期前${AUTO_RENEW_NOTICE_HOURS}小时发站内通知告知续费金额与余额是否足够，到期前${AUTO_RENEW_WINDOW_HOURS}小时内从账户余额按原规格续费一个周期（与余额支付同一流程）；余额不足时不下单并通知。仅限订单购买且未停用的套餐`,
    access: 'verified',
    cacheable: false,
    input: z.object({ packageId: idSchema, enabled: z.boolean({ error: messages.invalidParams }) }),
    async handler(ctx, input) {
      const stored = await setAutoRenew(ctx.db, { userId: ctx.user.id, ...input, now: ctx.now });
      if (!stored) throw new AppError('autoRenewUnavailable');
      return { packageId: input.packageId, autoRenew: input.enabled };
    },
  }),
};
