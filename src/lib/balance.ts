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
