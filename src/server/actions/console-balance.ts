// Admin.CustomerBalance (finance and support read) and Admin.BalanceAdjust (finance): a customer's account balance
// (账户余额, docs/decisions/224) with its ledger, and an adjustment with a reason, audited in the same batch.
import { z } from 'zod';
import { LEDGER_KIND_LABEL, TOP_UP_MAX_FEN } from '../../lib/balance';
import { messages } from '../../lib/messages';
import { balanceOf, ledgerPage } from '../db/balance';
import { adjustBalance } from '../domain/balance';
import { auditActor } from '../domain/console-audit';
import { FINANCE, READERS } from '../../lib/operator-roles';
import { reasonSchema, userIdSchema } from '../../lib/schemas';
import { defineAction } from './define';

const PAGE_SIZE = 20;

export const consoleBalanceActions = {
  'Admin.CustomerBalance': defineAction({
    summary:
      '【运营后台】客户的账户余额（分）与余额明细（每页20条，最新在前；金额带符号，balanceAfterFen 为该笔后的余额）',
    access: READERS,
    cacheable: false,
    input: z.object({ userId: userIdSchema, page: z.number().int().min(1).max(10_000).default(1) }),
    async handler(ctx, input) {
      const [balanceFen, ledger] = await Promise.all([
        balanceOf(ctx.db, input.userId),
        ledgerPage(ctx.db, input.userId, { offset: (input.page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
      ]);
      return {
        balanceFen,
        total: ledger.total,
        page: input.page,
        pageSize: PAGE_SIZE,
        list: ledger.list.map((e) => ({ ...e, kindText: LEDGER_KIND_LABEL[e.kind] ?? '' })),
      };
    },
  }),

  'Admin.BalanceAdjust': defineAction({
    summary:
      '【运营后台·财务】调整客户账户余额（需原因）：direction 为 credit 增加或 debit 扣减，amountFen 为金额（分）；扣减不得超过当前余额（余额不能为负，否则不做任何修改）；余额、余额明细（类型“调整”）与操作日志在同一事务中写入',
    access: FINANCE,
    cacheable: false,
    input: z.object({
      userId: userIdSchema,
      direction: z.enum(['credit', 'debit'], { error: '请选择增加或扣减' }),
      amountFen: z
        .number({ error: messages.balanceAdjustInvalid })
        .int(messages.balanceAdjustInvalid)
        .min(1, messages.balanceAdjustInvalid)
        .max(TOP_UP_MAX_FEN, messages.balanceAdjustInvalid),
      reason: reasonSchema,
    }),
    handler: (ctx, input) =>
      adjustBalance(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), {
        userId: input.userId,
        signedFen: input.direction === 'credit' ? input.amountFen : -input.amountFen,
        reason: input.reason,
      }),
  }),
};
