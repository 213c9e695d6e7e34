// The promotion commission rules (docs/decisions/062, 035): the rates, the invitation window, the withdrawal minimum,
// and the sentences both /rebate and the personal centre render from them. The engine (server/domain/commission.ts
// and the accrual SQL) uses these same constants, so a page can never promise something else.
import { PRODUCT_LABEL, PRODUCT_TYPES } from './commerce';
import { formatFen } from './format';
import { PROMOTION_COOKIE_DAYS } from './promotion';

/** Rates in basis points (1/100 of a percent) by product type: the invitee's first commissioned order, then later ones. */
export const COMMISSION_RATES: Record<number, { firstBp: number; recurringBp: number }> = {
  10: { firstBp: 2000, recurringBp: 1000 },
  40: { firstBp: 2000, recurringBp: 1000 },
  30: { firstBp: 1500, recurringBp: 800 },
  50: { firstBp: 1000, recurringBp: 500 },
};

/** The smallest amount a withdrawal may take (¥50.00). */
export const MIN_WITHDRAWAL_FEN = 5000;

/** An invitation earns commission on orders paid within this many days of the invitee's registration. */
export const INVITATION_VALID_DAYS = 365;

/** 2000 -> 「20%」, 1250 -> 「12.5%」. */
export const bpPercent = (bp: number): string => `${bp / 100}%`;

/** The highest rate anyone can earn (the headline 「最高可得20%返佣」). */
export const maxCommissionBp = (): number =>
  Math.max(...Object.values(COMMISSION_RATES).map((r) => Math.max(r.firstBp, r.recurringBp)));

/** One row per product type: label, first-order and later-order rates. */
export function commissionRateRows(rates: Record<string, { firstBp: number; recurringBp: number }> = COMMISSION_RATES) {
  const order = (t: number) => {
    const i = (PRODUCT_TYPES as readonly number[]).indexOf(t);
    return i < 0 ? 99 : i;
  };
  return Object.entries(rates)
    .map(([type, r]) => ({
      productType: Number(type),
      label: PRODUCT_LABEL[Number(type)] ?? type,
      first: bpPercent(r.firstBp),
      recurring: bpPercent(r.recurringBp),
    }))
    .sort((a, b) => order(a.productType) - order(b.productType));
}

/** The rules as a customer reads them, exactly as the engine applies them. */
export function commissionRuleLines(minWithdrawalFen: number = MIN_WITHDRAWAL_FEN): string[] {
  return [
    `好友通过您的推广链接访问后${PROMOTION_COOKIE_DAYS}天内注册，即与您绑定邀请关系；不能邀请自己。`,
    `自好友注册起${INVITATION_VALID_DAYS}天内，好友每一笔支付成功的订单都为您产生佣金：好友的第一笔计佣订单按“首单”比例，之后的订单按“后续订单”比例，按产品类型计算（见上表）。`,
    '佣金 = 订单实付金额 × 比例，向下取整到分；实付金额已扣除活动优惠、优惠券与升级抵扣。',
    '订单支付成功后佣金立即计入“可提现”；订单退款时对应佣金冲销（已提现的从下次提现中扣回）。',
    `可提现佣金满${formatFen(minWithdrawalFen)}即可申请提现（一次提取全部可提现佣金，同一时间仅一笔处理中），提现需推广者本人完成实名认证，审核通过后打款至您填写的支付宝账户。`,
    '严禁自我邀请、虚假注册、刷单等作弊行为，一经发现取消返利资格并追回佣金，详见《用户协议》。',
  ];
}

/** Commission entry states (the ledger's state column): available, locked in a withdrawal, reversed by a refund. */
export const COMMISSION_STATE = { available: 1, withdrawn: 2, reversed: 3 } as const;

/** Commission entry states as UserPromotion.GetCommissionDetails answers them. */
export const COMMISSION_STATE_TEXT: Record<number, string> = {
  [COMMISSION_STATE.available]: '可提现',
  [COMMISSION_STATE.withdrawn]: '提现中/已提现',
  [COMMISSION_STATE.reversed]: '已冲销',
};

/** Withdrawal states (server/domain/commission.ts nextWithdrawalState moves them). */
export const WITHDRAWAL_STATE = { requested: 1, approved: 2, paid: 3, rejected: 4 } as const;

export const WITHDRAWAL_STATE_TEXT: Record<number, string> = {
  [WITHDRAWAL_STATE.requested]: '待审核',
  [WITHDRAWAL_STATE.approved]: '已审核待打款',
  [WITHDRAWAL_STATE.paid]: '已打款',
  [WITHDRAWAL_STATE.rejected]: '已驳回',
};
