// The notes the payment and refund engine writes into payments.note and refunds.note (zh-CN). The console's order page
// shows them verbatim (支付记录, 退款记录), so each says what happened and what the operator should do. WeChat's
// status codes (SUCCESS, PROCESSING, ABNORMAL, CLOSED), refund numbers and upstream error details stay as they are.
// src/lib/messages.ts re-exports this module, so the catalogue remains the one source of every text.

/** What the provider reported in a verified SUCCESS that does not match our attempt or order. */
export interface MismatchedSuccess {
  amountFen?: number | undefined;
  currency?: string | undefined;
  attach?: string | undefined;
  transactionId?: string | undefined;
}

/** An upstream value quoted in a note, at most 64 characters, so the note's instruction to the operator always fits. */
const quoted = (v: string | undefined, missing: string): string =>
  v === undefined ? missing : v.length > 64 ? `${v.slice(0, 64)}…` : v;

export const paymentNotes = {
  // ---- payments.note ----
  /** Creating the attempt at the rail's provider failed (refused or unreachable); `detail` is the technical error. */
  createFailed: (rail: 'wechat' | 'alipay', detail: string): string =>
    `向${rail === 'alipay' ? '支付宝' : '微信支付'}下单失败，这笔支付未创建，客户可重新支付。错误详情：${detail}`,
  /** A verified SUCCESS whose amount, currency, order or transaction id differs from our records, by the rail reporting it. */
  mismatchedSuccess: (t: MismatchedSuccess, rail: 'wechat' | 'alipay' = 'wechat'): string =>
    rail === 'alipay'
      ? `支付宝报告支付成功，但与本单记录不符：金额 ${t.amountFen ?? '?'} 分，币种 ${quoted(t.currency, '?')}，` +
        `支付宝交易号 ${quoted(t.transactionId, '-')}。订单未因此支付，需退款；` +
        '金额与本单不同时支付宝会拒绝此处的退款，请在支付宝商户平台按商户单号退款后手动清除需退款标记'
      : `微信通知支付成功（SUCCESS），但与本单记录不符：金额 ${t.amountFen ?? '?'} 分，币种 ${quoted(t.currency, '?')}，` +
        `附加数据 ${quoted(t.attach, '-')}，微信支付单号 ${quoted(t.transactionId, '-')}。订单未因此支付，需退款；` +
        '金额与本单不同时微信会拒绝此处的退款，请在微信支付商户平台按商户单号退款后手动清除需退款标记',
  /** The money arrived after the order was closed or paid by another attempt. */
  notPaidByAttempt: '已支付，但订单已关闭或已由另一笔支付完成：需退款，请对这笔支付点「退款」',
  /** The order is paid but a package it extends could not take the money. */
  unextendable:
    '已支付，但要续费的套餐已被升级合并或删除、已停用或正被升级订单占用，套餐未续费：需退款，请用订单的「退款」',
  /** Appended to the paying attempt when its order was refunded. */
  refundedWithOrder: (outRefundNo: string): string => `已随订单退款 ${outRefundNo}`,
  /** Appended to a flagged attempt when WeChat accepted its own refund; `status` is WeChat's answer. */
  refunded: (outRefundNo: string, status: string): string => `已退款 ${outRefundNo}（${status}）`,
  /** Appended to a flagged attempt whose accepted refund WeChat later closed. */
  refundClosed: (outRefundNo: string): string =>
    `退款 ${outRefundNo} 已被微信关闭（CLOSED），钱未退回：已重新标记为需退款，可再次退款`,

  // ---- refunds.note ----
  /** WeChat (or our own request check) refused the refund; `detail` is the upstream code and message. */
  refundRejected: (detail: string): string =>
    `退款被拒绝，钱未退回：请按错误详情修正后重新退款（将使用新的退款单号）。错误详情：${detail}`,
  /** WeChat could not be reached or answered unverifiably: the row stays PENDING. */
  refundUnknown: (detail: string): string =>
    `退款结果未知（微信无法连接或答复无法验证）：请1分钟后再点「退款」，将用同一退款单号重发，微信不会重复退款。错误详情：${detail}`,
  /** WeChat answered CLOSED to the refund request itself. */
  refundClosedAtRequest: '微信已关闭该退款（CLOSED），钱未退回：可重新退款（将使用新的退款单号）',
  /** WeChat accepted an order refund but the order was no longer paid by the attempt when committing. */
  orderNoLongerPaid: '微信已受理退款，但提交时订单已不是已支付状态，订单未标记为已退款、套餐未停用：请人工核对',
  /** WeChat accepted a payment refund but the attempt was no longer flagged when committing. */
  attemptNoLongerFlagged: '微信已受理退款，但提交时这笔支付已没有需退款标记，未记为已退款：请人工核对',
  /** WeChat closed an accepted refund of one flagged attempt. */
  closedPaymentRefund: '微信已关闭该退款（CLOSED），钱未退回：这笔支付已重新标记为需退款，可再次退款',
  /** WeChat closed an accepted order refund; the order stays refunded and its packages disabled. */
  closedOrderRefund:
    '微信已关闭该退款（CLOSED），钱未退回，但订单仍为已退款、套餐已停用：请在微信支付商户平台核对后人工处理',
  /** WeChat's refund notification arrived while the row is still PENDING (the answer to our call was lost). */
  notifiedWhilePending: (status: string): string =>
    `微信已通知退款结果 ${status}，但本条尚未提交：请再点一次「退款」，将用同一退款单号重发并记录结果`,
} as const;
