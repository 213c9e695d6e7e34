// The customer's balance (账户余额, docs/decisions/224), shared by pages and the server: how its ledger names each kind
// of entry, and the top-up limits and presets. Distinct from 佣金 (withdrawable commission, src/lib/commission-rules.ts).
import { formatCount, formatFen } from './format';

/** What a ledger entry records. */
export const LEDGER_KIND_LABEL: Record<string, string> = {
  topup: '充值',
  pay: '消费',
  refund: '退款',
  adjust: '调整',
  renew: '自动续费',
};

/** The smallest top-up (¥10.00): below it the rails' fees outweigh the convenience. */
export const TOP_UP_MIN_FEN = 1_000;
/** The largest single top-up (¥50,000.00): larger sums go by company transfer. */
export const TOP_UP_MAX_FEN = 5_000_000;
/** The amounts offered with one click. */
export const TOP_UP_PRESETS_FEN = [5_000, 10_000, 20_000, 50_000, 100_000] as const;

/** "+¥100.00" / "-¥40.38": a ledger amount with its sign. */
export const signedFen = (fen: number): string => `${fen > 0 ? '+' : '-'}${formatFen(Math.abs(fen))}`;

/** The cashier's line for a balance that does not cover the order: how much is missing. */
export const shortfallText = (balanceFen: number, payFen: number): string =>
  `账户余额不足，还差 ${formatFen(payFen - balanceFen)}`;

/** A whole-yuan amount as people read it: 5000000 fen -> "¥50,000"; anything with cents as formatFen does. */
export const wholeYuan = (fen: number): string => (fen % 100 === 0 ? `¥${formatCount(fen / 100)}` : formatFen(fen));

/** Auto-renew (docs/decisions/225): renewed from balance within this long before the package expires. */
export const AUTO_RENEW_WINDOW_HOURS = 24;
/** ...and the customer is told this long before it expires (what will be charged, and whether the balance covers it). */
export const AUTO_RENEW_NOTICE_HOURS = 72;

/** The customer's notices about an auto-renewal, as title and plain text (the server escapes it into HTML). */
export const autoRenewNotice = {
  upcoming: (r: { name: string; expiresText: string; priceFen: number; balanceFen: number }) => ({
    title: '套餐即将自动续费',
    text: `您的套餐「${r.name}」将于 ${r.expiresText}（北京时间）到期，已开启自动续费：到期前${AUTO_RENEW_WINDOW_HOURS}小时内将从账户余额扣除 ${formatFen(r.priceFen)} 续费一个周期。当前余额 ${formatFen(r.balanceFen)}${r.balanceFen < r.priceFen ? `，不足以续费，请在到期前充值至少 ${formatFen(r.priceFen - r.balanceFen)}` : ''}。可在「账户余额」充值，或在套餐列表关闭自动续费。`,
  }),
  short: (r: { name: string; expiresText: string; priceFen: number; balanceFen: number }) => ({
    title: '余额不足，自动续费未成功',
    text: `您的套餐「${r.name}」将于 ${r.expiresText}（北京时间）到期，自动续费需 ${formatFen(r.priceFen)}，当前账户余额 ${formatFen(r.balanceFen)}，还差 ${formatFen(r.priceFen - r.balanceFen)}，本次未续费。请在到期前到「账户余额」充值，系统将再次尝试；也可在套餐列表手动续费。`,
  }),
  renewed: (r: { name: string; priceFen: number; balanceFen: number; newExpiresText: string }) => ({
    title: '套餐已自动续费',
    text: `您的套餐「${r.name}」已从账户余额自动续费，扣除 ${formatFen(r.priceFen)}，新的到期时间为 ${r.newExpiresText}（北京时间），当前余额 ${formatFen(r.balanceFen)}。`,
  }),
};

/** The payments.provider of an order paid from the account balance (docs/decisions/224). */
export const BALANCE_RAIL = 'balance';
