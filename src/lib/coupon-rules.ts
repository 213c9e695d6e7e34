// A coupon's rule, in one place for the pricing engine and every page: when the threshold (满X可用) is met, and how
// the rule reads to a customer. The rule itself is docs/decisions/033-coupon-threshold-and-order-cancel.md.
import { PRODUCT_LABEL } from './commerce';
import { formatFen } from './format';

/** The threshold is met by the order's original price (原价, before the activity discount and any coupon). */
export const couponThresholdMet = (listFen: number, thresholdFen: number): boolean => listFen >= thresholdFen;

/** 「订单原价满¥10.00可用」 or 「无门槛」: the threshold exactly as couponThresholdMet applies it. */
export function couponThresholdText(thresholdFen: number): string {
  return thresholdFen > 0 ? `订单原价满${formatFen(thresholdFen)}可用` : '无门槛';
}

/** 「全部产品」 or 「限短效动态IP、长效静态IP」. */
export function couponScopeText(productTypes: readonly number[]): string {
  return productTypes.length ? `限${productTypes.map((t) => PRODUCT_LABEL[t] ?? t).join('、')}` : '全部产品可用';
}

/** The whole rule on one line: threshold · scope. */
export function couponRuleText(c: { thresholdFen: number; productTypes: readonly number[] }): string {
  return `${couponThresholdText(c.thresholdFen)} · ${couponScopeText(c.productTypes)}`;
}

/** How a coupon combines with the activity discount (shown once where coupons are listed or chosen). */
export const COUPON_STACKING_NOTE =
  '使用门槛按订单原价计算；优惠券可与活动优惠同时使用，抵扣在活动优惠之后计算，每笔订单限用一张，实付至少¥0.01。';

/**
 * The coupons a checkout may use, as a person chooses among them: identical ones (same name, same saving) are one
 * choice with a count ("全场9折券 -¥5.00 ×2"), standing for the first of them (the engine's order: best saving, then
 * soonest to expire).
 */
export function couponChoices<T extends { id: number; name: string; reductionFen: number }>(
  coupons: readonly T[],
): { id: number; name: string; reductionFen: number; count: number; ids: number[] }[] {
  const out: { id: number; name: string; reductionFen: number; count: number; ids: number[] }[] = [];
  for (const c of coupons) {
    const same = out.find((o) => o.name === c.name && o.reductionFen === c.reductionFen);
    if (same) {
      same.count += 1;
      same.ids.push(c.id);
    } else out.push({ id: c.id, name: c.name, reductionFen: c.reductionFen, count: 1, ids: [c.id] });
  }
  return out;
}
