// Company bank transfer (对公转账, docs/decisions/227): the customer's PayOrder.BankTransfer (reference, company account,
// amount, reservation) and finance's Admin.Transfer* (list, preview, confirm).
import { z } from 'zod';
import { normalizeTransferReference } from '../../lib/bank-transfer';
import { messages } from '../../lib/messages';
import { listBankRefunds, searchTransfers } from '../db/bank-transfers';
import { chooseTransfer, confirmTransfer, markBankRefundDone, previewTransfer } from '../domain/bank-transfers';
import { auditActor } from '../domain/console-audit';
import { userOrder } from '../domain/payments';
import { FINANCE } from '../../lib/operator-roles';
import { bankSerialSchema, orderNoSchema, receivedSchema } from '../../lib/schemas';
import { defineAction } from './define';

export const bankTransferActions = {
  'PayOrder.BankTransfer': defineAction({
    summary:
      '对公转账支付待支付订单（任何订单类型）：返回汇款识别码 reference（8位，不含0/O/1/I，转账时填写在附言/用途中）、收款账户 account（户名 accountName、开户行 bankName、账号 accountNo）、应付金额 payFen（分，须一次足额转账）与订单保留截止时间 reservedUntil（选择对公转账后订单保留7天）；同一订单再次调用返回同一识别码；state 为 awaiting（等待到账）或 confirmed（财务已确认）',
    access: 'verified',
    cacheable: false,
    input: z.object({ orderNo: orderNoSchema }),
    async handler(ctx, input) {
      const order = await userOrder(ctx.db, ctx.user.id, input.orderNo);
      return chooseTransfer(ctx.db, ctx.config.transferAccount, order, ctx.now);
    },
  }),

  'Admin.TransferSearch': defineAction({
    summary:
      '【运营后台·财务】对公转账列表：state=awaiting（默认，订单仍待支付的等待到账转账）、confirmed（已确认）或 all；reference 按汇款识别码查找（可含空格、小写）；按选择时间倒序，最多100条',
    access: FINANCE,
    cacheable: false,
    input: z.object({
      state: z.enum(['awaiting', 'confirmed', 'all'], { error: messages.invalidParams }).default('awaiting'),
      reference: z.string().trim().max(20, messages.transferReferenceInvalid).default(''),
    }),
    async handler(ctx, input) {
      const typed = input.reference === '' ? null : normalizeTransferReference(input.reference);
      // A reference that cannot exist finds nothing (rather than everything).
      if (input.reference !== '' && typed === null) return { list: [] };
      return { list: await searchTransfers(ctx.db, { state: input.state, reference: typed, limit: 100 }) };
    },
  }),

  'Admin.TransferPreview': defineAction({
    summary:
      '【运营后台·财务】确认到账前的预览（不写入）：按汇款识别码找到订单与客户，核对到账金额 receivedFen（分）；willPay 为 true 时 outcome 说明「该订单将被标记为已支付」，否则 refusal 为拒绝原因（识别码不存在、已确认、订单已支付或已关闭、金额不一致、流水号已用）；确认请调用 Admin.TransferConfirm',
    access: FINANCE,
    cacheable: false,
    input: receivedSchema,
    handler: (ctx, input) => previewTransfer(ctx.db, input),
  }),

  'Admin.TransferConfirm': defineAction({
    summary:
      '【运营后台·财务】确认对公转账到账：到账金额须等于订单应付金额，订单须仍为待支付；在一个事务中登记转账、记录支付（渠道 transfer，银行流水号为交易号）、按与其他支付渠道相同的流程交付订单并写操作日志；并发确认只有一次生效；不符时拒绝（同样写操作日志）并返回原因；响应 orderNo、outTradeNo、paidFen',
    access: FINANCE,
    cacheable: false,
    input: receivedSchema,
    async handler(ctx, input) {
      const actor = auditActor(ctx.operator, ctx.ip, ctx.now);
      return confirmTransfer(ctx.db, { ...input, operatorId: ctx.operator.id, now: ctx.now }, (w) => ({
        actor,
        entry: w.refusal
          ? {
              action: 'Admin.TransferRefused',
              target: w.orderNo ? `order:${w.orderNo}` : `transfer:${input.reference}`,
              after: { reference: input.reference, receivedFen: input.receivedFen, bankSerial: input.bankSerial },
              reason: `${messages[w.refusal]}${w.detail ? `（${w.detail}）` : ''}`,
            }
          : {
              action: 'Admin.TransferConfirm',
              target: `order:${w.orderNo}`,
              before: { state: 1 },
              after: {
                state: 2,
                reference: input.reference,
                receivedFen: input.receivedFen,
                payerName: input.payerName,
                bankSerial: input.bankSerial,
                outTradeNo: w.outTradeNo,
              },
            },
      }));
    },
  }),

  'Admin.TransferRefunds': defineAction({
    summary:
      '【运营后台·财务】待线下退款列表：对公转账支付的订单的退款处理中（status PROCESSING），含退款单号、订单、金额、原因、原付款户名与到账流水号；财务通过银行转账退回后调用 Admin.TransferRefundDone',
    access: FINANCE,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listBankRefunds(ctx.db, 100) }),
  }),

  'Admin.TransferRefundDone': defineAction({
    summary:
      '【运营后台·财务】标记对公转账订单的退款已退回：财务已通过银行转账把退款退回付款方，填写退款的银行流水号 bankSerial；退款状态变为 SUCCESS（客户看到「已退回」）并写操作日志；只适用于对公转账支付、处理中的退款',
    access: FINANCE,
    cacheable: false,
    input: z.object({
      outRefundNo: z
        .string({ error: messages.transferRefundNotBank })
        .regex(/^R\d{14}[0-9A-Z]{16}$/, messages.transferRefundNotBank),
      bankSerial: bankSerialSchema,
    }),
    handler: (ctx, input) =>
      markBankRefundDone(
        ctx.db,
        { ...input, now: ctx.now },
        {
          actor: auditActor(ctx.operator, ctx.ip, ctx.now),
          entry: {
            action: 'Admin.TransferRefundDone',
            target: `refund:${input.outRefundNo}`,
            before: { status: 'PROCESSING' },
            after: { status: 'SUCCESS', bankSerial: input.bankSerial },
          },
        },
      ),
  }),
};
