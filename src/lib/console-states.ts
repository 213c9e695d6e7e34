// Stored states the console shows in words and the audit log's read model writes out (isomorphic: the screens and
// the server read the same labels; src/pages/admin/_components/labels.ts re-exports them). A refund's status is worded
// by the rail it goes back by: refundStatusText in refund-rules.ts.

/** An account's stored status (users.status and operators.status): active, or disabled by an operator. */
export const ACCOUNT_STATUS = { active: 1, disabled: 2 } as const;
export type AccountStatus = (typeof ACCOUNT_STATUS)[keyof typeof ACCOUNT_STATUS];

export const CUSTOMER_STATUS_TEXT: Record<number, string> = {
  [ACCOUNT_STATUS.active]: '正常',
  [ACCOUNT_STATUS.disabled]: '已停用',
};
