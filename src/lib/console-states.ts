// Stored states the console shows in words and the audit log's read model writes out (isomorphic: the screens and
// the server read the same labels; src/pages/admin/_components/labels.ts re-exports them).

export const CUSTOMER_STATUS_TEXT: Record<number, string> = { 1: '正常', 2: '已停用' };

export const REFUND_STATUS_TEXT: Record<string, string> = {
  PENDING: '已提交，等待微信答复',
  SUCCESS: '退款成功',
  PROCESSING: '微信处理中',
  ABNORMAL: '退款异常（需在商户平台人工处理）',
  FAILED: '退款失败',
};
