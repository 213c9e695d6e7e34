// What a refund does and how it is told (docs/decisions/205, 206), one source for the console's refund dialog, the
// customer's order detail and the personal notice written with the refund: the route the money takes, what happens
// to the package and to the coupon, and the customer-facing status.
import { formatFen } from './format';
import { formatDateTime } from './time';

/** Where a refund goes: always back the way the customer paid (WeChat Pay or Alipay, docs/decisions/223). */
export const REFUND_ROUTE_TEXT = '原路退回微信支付（付款时使用的零钱或银行卡）';
export const ALIPAY_REFUND_ROUTE_TEXT = '原路退回支付宝（付款时使用的余额或银行卡）';
export const BALANCE_REFUND_ROUTE_TEXT = '退回账户余额（可在「账户余额」中查看）';
/** A transfer-paid order's refund: finance sends it back by bank transfer and marks it done (docs/decisions/228). */
export const TRANSFER_REFUND_ROUTE_TEXT = '由财务通过银行转账退回付款账户（1-3个工作日到账）';
/** The rail an order was paid on, as its refunds name it. */
export type PayRail = 'wechat' | 'alipay' | 'balance' | 'transfer';
/** The route of a refund: back to the rail an order was paid on, or to the account balance (docs/decisions/224, 228). */
export const refundRouteText = (rail: PayRail | null | undefined) =>
  rail === 'balance'
    ? BALANCE_REFUND_ROUTE_TEXT
    : rail === 'alipay'
      ? ALIPAY_REFUND_ROUTE_TEXT
      : rail === 'transfer'
        ? TRANSFER_REFUND_ROUTE_TEXT
        : REFUND_ROUTE_TEXT;

/** What happened to the order's coupon with a refund (refunds.coupon_outcome). */
export type CouponOutcome = 'none' | 'returned' | 'expired' | 'kept';

/** The coupon rule (decision 206) in one sentence, shown in the console before the operator confirms. */
export const COUPON_RULE_TEXT =
  '全额退款（退完全部可退金额）时，订单使用的优惠券若仍在有效期内将退回客户账户；已过期的不退回；部分退款不退回优惠券。';

/** What the package rule (decision 205) does, shown in the console before the operator confirms. */
export const PACKAGE_RULE_TEXT = {
  final: '退完全部可退金额：订单变为已退款，停用该订单新建的套餐，冲销推广佣金。',
  partialKeep: '部分退款：订单仍为已支付，套餐继续可用，佣金不变。',
  partialEnd: '部分退款并停用套餐：订单仍为已支付（剩余金额之后仍可退），立即停用该订单新建的套餐，佣金不变。',
} as const;

/** The customer's sentence about the coupon, or '' when the order had none. */
export function couponOutcomeText(
  outcome: CouponOutcome | '',
  coupon: { name: string; expiresAt: number } | null,
): string {
  const name = coupon ? `「${coupon.name}」` : '';
  switch (outcome) {
    case 'returned':
      return `优惠券${name}已退回您的账户${coupon ? `，有效期至 ${formatDateTime(coupon.expiresAt)}（北京时间）` : ''}`;
    case 'expired':
      return `优惠券${name}已过期，不再退回`;
    case 'kept':
      return `部分退款，优惠券${name}仍按已使用计`;
    default:
      return '';
  }
}

/** A refund's status as the customer reads it (FAILED refunds moved no money and are not shown to customers). */
export const REFUND_STATUS_FOR_CUSTOMER: Record<string, string> = {
  PENDING: '退款处理中',
  PROCESSING: '退款处理中，预计1-3个工作日到账',
  SUCCESS: '已退回',
  ABNORMAL: '退款遇到问题，客服正在处理',
};

/** The personal notice written in the refund's own batch. */
export function refundNotice(r: {
  orderTitle: string;
  amountFen: number;
  endsOrder: boolean;
  endsPackages: boolean;
  reason: string;
  couponText: string;
  rail?: PayRail | null;
}): { title: string; text: string } {
  const what = r.endsOrder
    ? '订单已全额退款，该订单购买的套餐已停用'
    : r.endsPackages
      ? '订单已部分退款，该订单购买的套餐已停用'
      : '订单已部分退款，套餐可继续使用';
  const parts = [
    `您的订单「${r.orderTitle}」退款 ${formatFen(r.amountFen)}，${refundRouteText(r.rail)}。`,
    `${what}。`,
    r.reason ? `退款原因：${r.reason}。` : '',
    r.couponText ? `${r.couponText}。` : '',
    '可在「订单管理」的订单详情中查看。',
  ];
  return { title: `订单退款 ${formatFen(r.amountFen)}`, text: parts.join('') };
}
