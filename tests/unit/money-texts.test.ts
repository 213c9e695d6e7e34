// The money texts pages show come from the rules the engine applies (issue 13): coupon thresholds, the commission
// rules, and one wording for what a package has left.
import { describe, expect, it } from 'vitest';
import { BILLING_LABEL, packageName, packageRemainingText } from '../../src/lib/commerce';
import {
  COMMISSION_RATES,
  commissionRateRows,
  commissionRuleLines,
  INVITATION_VALID_DAYS,
  MIN_WITHDRAWAL_FEN,
  maxCommissionBp,
} from '../../src/lib/commission-rules';
import { couponRuleText, couponThresholdMet, couponThresholdText } from '../../src/lib/coupon-rules';
import { MIN_WITHDRAWAL_FEN as ENGINE_MIN, COMMISSION_RATES as ENGINE_RATES } from '../../src/server/domain/commission';

describe('coupon rule texts', () => {
  it('say the threshold is on the original price, exactly as couponThresholdMet applies it', () => {
    expect(couponThresholdText(1000)).toBe('订单原价满¥10.00可用');
    expect(couponThresholdMet(1000, 1000)).toBe(true);
    expect(couponThresholdMet(999, 1000)).toBe(false);
    expect(couponRuleText({ thresholdFen: 0, productTypes: [] })).toBe('无门槛 · 全部产品可用');
    expect(couponRuleText({ thresholdFen: 5000, productTypes: [30, 50] })).toBe(
      '订单原价满¥50.00可用 · 限固定IP、优质IP',
    );
  });
});

describe('commission rules', () => {
  it('are the engine’s own constants', () => {
    expect(ENGINE_RATES).toBe(COMMISSION_RATES);
    expect(ENGINE_MIN).toBe(MIN_WITHDRAWAL_FEN);
  });

  it('render the per-product rates, the window and the minimum, and no tiers', () => {
    expect(commissionRateRows().map((r) => `${r.label} ${r.first}/${r.recurring}`)).toEqual([
      '短效动态IP 20%/10%',
      '长效静态IP 20%/10%',
      '固定IP 15%/8%',
      '优质IP 10%/5%',
    ]);
    expect(maxCommissionBp()).toBe(2000);
    const text = commissionRuleLines().join('');
    expect(text).toContain(`${INVITATION_VALID_DAYS}天`);
    expect(text).toContain('满¥50.00');
    expect(text).not.toMatch(/30%|次月|自然月|100元/);
  });
});

describe('package wording', () => {
  it('says what is left in one wording for 按量 and 包天, and names method 2 包天', () => {
    const base = { productType: 10, totalCount: 20_000, remainingCount: 19_997, dailyLimit: 0, ipCount: 0 };
    expect(packageRemainingText({ ...base, billingMethod: 1 })).toBe('剩余 19,997 / 共 20,000个');
    expect(packageRemainingText({ ...base, billingMethod: 2, dailyLimit: 1200, usedToday: 33 })).toBe(
      '今日剩余 1,167 / 每日 1,200个',
    );
    expect(packageRemainingText({ ...base, productType: 30, billingMethod: 2, ipCount: 2 })).toBe('2个独享IP');
    expect(BILLING_LABEL[2]).toBe('包天计费');
    const name = packageName({
      productType: 10,
      billingMethod: 2,
      ipDurationMinutes: 3,
      count: 0,
      dailyLimit: 1200,
      ipCount: 0,
    });
    expect(name).toBe('短效动态IP · 包天 1200个/天 · 3分钟');
  });
});
