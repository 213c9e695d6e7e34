// What a refund does and how it is told (docs/decisions/205, 206), one source for the console's refund dialog, the
// customer's order detail and the personal notice written with the refund: the route the money takes, what happens
// to the package and to the coupon, and the customer-facing status.
import { formatFen } from './format';
import { formatDateTime } from './time';

/** Where a refund goes: back the way the customer paid (docs/decisions/223, 228) or to the balance (224). */
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

/** A refund row's stored status (refunds.status): reserved and not yet answered, in progress, done, stuck, refused. */
export const REFUND_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'ABNORMAL', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The rail a refund goes back by, in a word (the console's route choice and the audit log). */
export const REFUND_RAIL_NAME: Record<PayRail, string> = {
  wechat: '微信支付',
  alipay: '支付宝',
  transfer: '对公转账',
  balance: '账户余额',
};

/** The rail one refund goes back by: the account balance when routed there, else the rail that paid (decision 224). */
export const refundRail = (route: 'original' | 'balance' | null | undefined, paidRail: PayRail | null | undefined) =>
  route === 'balance' ? ('balance' as const) : (paidRail ?? null);

/**
 * What an operator reads for a refund's status, by the rail it goes back by (docs/decisions/241). null: the rail is not
 * known (an audit entry written before refunds named it), worded without one.
 */
const OPERATOR_WORDS: Record<PayRail | 'unknown', Record<RefundStatus, string>> = {
  wechat: {
    PENDING: '已提交，等待微信答复',
    PROCESSING: '微信处理中，稍后到账',
    SUCCESS: '已退回微信支付',
    ABNORMAL: '退款异常，需在微信支付商户平台人工处理',
    FAILED: '退款失败',
  },
  alipay: {
    PENDING: '已提交，等待支付宝答复',
    PROCESSING: '支付宝处理中，稍后到账',
    SUCCESS: '已退回支付宝',
    ABNORMAL: '退款异常，需在支付宝商户平台人工处理',
    FAILED: '退款失败',
  },
  transfer: {
    PENDING: '已登记，待确认',
    PROCESSING: '待财务转账退回',
    SUCCESS: '财务已转账退回',
    ABNORMAL: '退款异常，请与财务核对',
    FAILED: '退款失败',
  },
  balance: {
    PENDING: '已登记，待退回余额',
    PROCESSING: '退回余额处理中',
    SUCCESS: '已退回账户余额',
    ABNORMAL: '退款异常，请核对账户余额',
    FAILED: '退款失败',
  },
  unknown: {
    PENDING: '已提交，等待答复',
    PROCESSING: '处理中，稍后到账',
    SUCCESS: '退款成功',
    ABNORMAL: '退款异常，需人工处理',
    FAILED: '退款失败',
  },
};

/** What the customer reads where it differs from the operator's words (FAILED refunds are not shown to customers). */
const customerWords = (status: RefundStatus, rail: PayRail | null): string | null => {
  switch (status) {
    case 'PENDING':
      return '退款处理中';
    case 'PROCESSING':
      return rail === 'transfer' ? '财务转账退回中，预计1-3个工作日到账' : '退款处理中，预计1-3个工作日到账';
    case 'SUCCESS':
      return rail === 'transfer' ? '已退回付款账户' : rail === null ? '已退回' : null;
    case 'ABNORMAL':
      return '退款遇到问题，客服正在处理';
    case 'FAILED':
      return '退款未成功';
  }
};

const isRefundStatus = (s: string): s is RefundStatus => (REFUND_STATUSES as readonly string[]).includes(s);

/**
 * A refund's status in words, naming the rail the money goes back by (refundRail): the one text for the console's
 * order detail, its refund toasts and audit log, and the customer's order detail.
 */
export function refundStatusText(
  status: string,
  rail: PayRail | null | undefined,
  reader: 'operator' | 'customer' = 'operator',
): string {
  if (!isRefundStatus(status)) return reader === 'customer' ? '退款处理中' : '退款状态未知';
  const r = rail ?? null;
  return (reader === 'customer' ? customerWords(status, r) : null) ?? OPERATOR_WORDS[r ?? 'unknown'][status];
}

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
