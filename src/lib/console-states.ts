// Stored states the console shows in words and the audit log's read model writes out (isomorphic: the screens and
// the server read the same labels; src/pages/admin/_components/labels.ts re-exports them).

/** An account's stored status (users.status and operators.status): active, or disabled by an operator. */
export const ACCOUNT_STATUS = { active: 1, disabled: 2 } as const;
export type AccountStatus = (typeof ACCOUNT_STATUS)[keyof typeof ACCOUNT_STATUS];

export const CUSTOMER_STATUS_TEXT: Record<number, string> = {
  [ACCOUNT_STATUS.active]: '正常',
  [ACCOUNT_STATUS.disabled]: '已停用',
};

export const REFUND_STATUS_TEXT: Record<string, string> = {
  PENDING: '已提交，等待微信答复',
  SUCCESS: '退款成功',
  PROCESSING: '微信处理中',
  ABNORMAL: '退款异常（需在商户平台人工处理）',
  FAILED: '退款失败',
};
