// Labels the console's screens show for stored states.
import { BALANCE_RAIL } from '../../../lib/balance';
import { TRANSFER_RAIL } from '../../../lib/bank-transfer';
export { CUSTOMER_STATUS_TEXT } from '../../../lib/console-states';
export { ORDER_STATE_LABEL } from '../../../lib/order-states';
export { PACKAGE_STATE_TEXT } from '../../../lib/package-states';
export const PAYMENT_STATE_TEXT: Record<string, string> = {
  creating: '创建中',
  pending: '待支付',
  paid: '已支付',
  closed: '已关闭',
  failed: '失败',
};
export const VERIFICATION_STATE_TEXT: Record<number, string> = {
  0: '认证中',
  1: '已通过',
  2: '未通过',
  3: '证件已绑定其他账号',
};
export const VERIFICATION_PROVIDER_TEXT: Record<string, string> = {
  aliyun: '阿里云实人认证',
  simulator: '本地模拟（开发）',
};
export const PAYMENT_PROVIDER_TEXT: Record<string, string> = {
  wechat: '微信支付',
  simulator: '微信支付（本地模拟）',
  alipay: '支付宝',
  'alipay-simulator': '支付宝（本地模拟）',
  [BALANCE_RAIL]: '余额支付',
  [TRANSFER_RAIL]: '对公转账',
};

/** A validity window as the console shows it: an open start (0) and the far end of the seeds read as 长期. */
export function windowText(startsAt: number, endsAt: number, format: (ms: number) => string): string {
  const open = startsAt <= 0;
  const forever = endsAt >= 4_102_444_800_000; // 2100-01-01, the seeds' "no end"
  if (open && forever) return '长期有效';
  if (forever) return `${format(startsAt)} 起长期有效`;
  if (open) return `即日起至 ${format(endsAt)}`;
  return `${format(startsAt)} 至 ${format(endsAt)}`;
}
