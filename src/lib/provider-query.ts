// Asking a payment provider about an unpaid order's open attempts (Admin.OrderAskProvider, docs/decisions/244): the
// rails a provider answers for, the console button's words and the answer's words, named by the rail asked
// (REFUND_RAIL_NAME: one table of rail names). Isomorphic: the console's screens and the action read the same words.
import { type PayRail, REFUND_RAIL_NAME } from './refund-rules';

/** The rails with a provider to ask: WeChat Pay and Alipay. A transfer is confirmed by finance, a balance at once. */
export const ASKABLE_RAILS = ['wechat', 'alipay'] as const satisfies readonly PayRail[];
export type AskableRail = (typeof ASKABLE_RAILS)[number];

export const isAskableRail = (rail: PayRail | null | undefined): rail is AskableRail =>
  (ASKABLE_RAILS as readonly string[]).includes(rail ?? '');

/** The console button: 向微信支付查询, 向支付宝查询, or both rails when the order has open attempts on each. */
export const askProviderLabel = (rails: readonly AskableRail[]): string =>
  `向${ASKABLE_RAILS.filter((r) => rails.includes(r))
    .map((r) => REFUND_RAIL_NAME[r])
    .join('和')}查询`;

/** What asking the provider did to one attempt (the payment engine's ApplyOutcome, or a failed query). */
export const PROVIDER_OUTCOME_TEXT: Record<string, string> = {
  paid: '已支付，已补记',
  duplicate: '已支付（此前已记）',
  refund: '已支付但订单不能再履约，已转退款',
  not_paid: '未支付',
  unknown: '渠道无此交易',
  mismatch: '金额或币种不符，未处理',
  error: '查询失败',
};

/** One attempt's answer in the words of the rail asked, e.g. 支付宝答复：未支付. */
export const askOutcomeText = (outcome: string, rail: AskableRail): string =>
  outcome === 'error'
    ? `向${REFUND_RAIL_NAME[rail]}查询失败，请稍后重试`
    : `${REFUND_RAIL_NAME[rail]}答复：${PROVIDER_OUTCOME_TEXT[outcome] ?? '结果未知'}`;
