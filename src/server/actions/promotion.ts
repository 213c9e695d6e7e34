// UserPromotion.* and Config.UserPromotionMaterial: invitation link and material, invitees, the commission ledger and
// withdrawals (with the operator's review).
import { z } from 'zod';
import { maskPhone } from '../../lib/format';
import { accountNameSchema, accountNoSchema, noteSchema, pageSchema, pageSizeSchema } from '../../lib/schemas';
import { commissionSummary, listCommission, listWithdrawalEvents, listWithdrawals } from '../db/commission';
import { findPromotionCode, listInvitations, listMaterials } from '../db/promotion';
import { COMMISSION_RATES, MIN_WITHDRAWAL_FEN } from '../domain/commission';
import { auditActor } from '../domain/console-audit';
import { askWithdrawal, decideWithdrawal, ensurePromotionCode, invitationLink } from '../domain/promotion';
import { defineAction } from './define';

const withdrawalView = (w: {
  id: number;
  amountFen: number;
  accountName: string;
  accountNo: string;
  state: number;
  createdAt: number;
  updatedAt: number;
}) => ({
  id: w.id,
  amountFen: w.amountFen,
  accountName: w.accountName,
  accountNo: w.accountNo.includes('@') ? w.accountNo.replace(/^(.{2}).*(@.*)$/, '$1***$2') : maskPhone(w.accountNo),
  state: w.state,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

export const promotionActions = {
  'UserPromotion.AddUserPromotion': defineAction({
    summary: '开通推广：为当前用户生成推广码（did），已开通时返回原推广码',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const code = await ensurePromotionCode(ctx.db, ctx.user.id, ctx.now);
      return { code, link: invitationLink(ctx.origin, code) };
    },
  }),

  'UserPromotion.GetUserPromotion': defineAction({
    summary: '我的推广信息：推广链接、佣金规则（基点）、佣金汇总（可提现/提现中/已提现，分）、最低提现额',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const p = await findPromotionCode(ctx.db, ctx.user.id);
      return {
        opened: p !== null,
        code: p?.code ?? null,
        link: p ? invitationLink(ctx.origin, p.code) : null,
        rates: COMMISSION_RATES,
        minWithdrawalFen: MIN_WITHDRAWAL_FEN,
        summary: await commissionSummary(ctx.db, ctx.user.id),
      };
    },
  }),

  'Config.UserPromotionMaterial': defineAction({
    summary:
      '推广素材（文案与图片），{link} 处替换为用户的推广链接，{cities}、{availability} 替换为站点公布的城市数与可用率',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      return { list: await listMaterials(ctx.db) };
    },
  }),

  'UserPromotion.GetInvitationDetails': defineAction({
    summary: '邀请明细（分页）：被邀请人手机号脱敏、注册时间、是否实名、已产生佣金的订单数与佣金（分）',
    access: 'user',
    cacheable: false,
    input: z.object({ page: pageSchema, pageSize: pageSizeSchema }),
    async handler(ctx, input) {
      const r = await listInvitations(ctx.db, ctx.user.id, input.page, input.pageSize);
      return { total: r.total, list: r.list.map((i) => ({ ...i, inviteePhone: maskPhone(i.inviteePhone) })) };
    },
  }),

  'UserPromotion.GetCommissionDetails': defineAction({
    summary:
      '佣金明细（分页）：订单号、实付（分）、比例（基点）、佣金（分，向下取整）、首单标记、状态（1可提现 2提现中/已提现 3已冲销）',
    access: 'user',
    cacheable: false,
    input: z.object({ page: pageSchema, pageSize: pageSizeSchema }),
    async handler(ctx, input) {
      const r = await listCommission(ctx.db, ctx.user.id, input.page, input.pageSize);
      return { total: r.total, list: r.list.map((e) => ({ ...e, inviteePhone: maskPhone(e.inviteePhone) })) };
    },
  }),

  'UserPromotion.Withdraw': defineAction({
    summary: '申请提现全部可提现佣金（需实名；≥最低提现额；同时仅一笔处理中；并发申请只成功一次）',
    access: 'verified',
    cacheable: false,
    input: z.object({ accountName: accountNameSchema, accountNo: accountNoSchema }),
    async handler(ctx, input) {
      return askWithdrawal(ctx.db, { userId: ctx.user.id, ...input, now: ctx.now });
    },
  }),

  'UserPromotion.GetWithdrawals': defineAction({
    summary: '我的提现申请（state 1待审核 2已审核待打款 3已打款 4已驳回）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      return { list: (await listWithdrawals(ctx.db, { userId: ctx.user.id }, 50)).map(withdrawalView) };
    },
  }),

  'UserPromotion.WithdrawalQueue': defineAction({
    summary: '【运营】按状态列出提现申请（含审计记录）',
    access: { operator: ['finance'] },
    cacheable: false,
    input: z.object({ state: z.number().int().min(1).max(4).default(1) }),
    async handler(ctx, input) {
      const list = await listWithdrawals(ctx.db, { state: input.state }, 100);
      return {
        list: await Promise.all(list.map(async (w) => ({ ...w, events: await listWithdrawalEvents(ctx.db, w.id) }))),
      };
    },
  }),

  'UserPromotion.ReviewWithdrawal': defineAction({
    summary: '【运营】处理提现：approve（1→2）、paid（2→3）、reject（1/2→4，佣金退回可提现）；留审计记录',
    access: { operator: ['finance'] },
    cacheable: false,
    input: z.object({
      id: z.number().int().positive(),
      decision: z.enum(['approve', 'paid', 'reject']),
      note: noteSchema.default(''),
    }),
    async handler(ctx, input) {
      return decideWithdrawal(ctx.db, { ...input, actorId: ctx.operator.id, now: ctx.now }, (from, to) => ({
        actor: auditActor(ctx.operator, ctx.ip, ctx.now),
        entry: {
          action: 'UserPromotion.ReviewWithdrawal',
          target: `withdrawal:${input.id}`,
          before: { state: from },
          after: { state: to, decision: input.decision },
          reason: input.note,
        },
      }));
    },
  }),
};
