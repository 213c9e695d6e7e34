// The pricing engine: purchase, renewal, extra count, period change, upgrade/merge credit, coupons and totals.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { DAY_MS } from '../../src/lib/time';
import {
  type Activity,
  activityFor,
  bestCoupon,
  type CouponOffer,
  couponReduction,
  discountTag,
  type Meal,
  mulDiv,
  quoteAddTimes,
  quoteChangeDate,
  quoteMerge,
  quotePurchase,
  quoteRenewal,
  remainingValue,
  splitProportionally,
  totalQuote,
} from '../../src/server/domain/pricing';

const NOW = 1_800_000_000_000;
const countMeal: Meal = {
  id: 1,
  productType: 10,
  billingMethod: 1,
  name: '短效 按量',
  ipDurationMinutes: 5,
  size: 10_000,
  periodDays: 365,
  priceFen: 3000,
  isOverseas: false,
};
const timeMeal: Meal = { ...countMeal, id: 2, billingMethod: 2, size: 1000, periodDays: 30, priceFen: 9000 };
const fixedMeal: Meal = {
  ...countMeal,
  id: 3,
  productType: 30,
  billingMethod: 2,
  size: 1,
  periodDays: 30,
  priceFen: 6000,
};
const act = (o: Partial<Activity>): Activity => ({
  id: 1,
  name: 'a',
  productType: 10,
  billingMethod: 0,
  mealId: 0,
  discountPercent: 0,
  bonusPercent: 0,
  startsAt: 0,
  endsAt: NOW + DAY_MS,
  ...o,
});
const coupon = (o: Partial<CouponOffer>): CouponOffer => ({
  userCouponId: 1,
  name: 'c',
  kind: 1,
  value: 500,
  thresholdFen: 0,
  productTypes: [],
  validFrom: 0,
  expiresAt: NOW + DAY_MS,
  ...o,
});
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
  return 'no error';
};

describe('mulDiv', () => {
  it('is exact beyond 2^53 and rounds as asked', () => {
    expect(mulDiv(100_000_000, 30 * DAY_MS, 31 * DAY_MS)).toBe(96_774_193);
    expect(mulDiv(10, 1, 3)).toBe(3);
    expect(mulDiv(10, 1, 3, 'ceil')).toBe(4);
    expect(mulDiv(9, 1, 3, 'ceil')).toBe(3);
    expect(() => mulDiv(1, 1, 0)).toThrow();
  });
});

describe('activities and tags', () => {
  it('picks the most generous live activity that matches type, billing method and meal', () => {
    const list = [
      act({ id: 1, discountPercent: 10 }),
      act({ id: 2, discountPercent: 20, billingMethod: 2 }),
      act({ id: 3, discountPercent: 30, mealId: 99 }),
      act({ id: 4, discountPercent: 40, endsAt: NOW }),
      act({ id: 5, discountPercent: 50, startsAt: NOW + 1 }),
      act({ id: 6, discountPercent: 60, productType: 40 }),
      act({ id: 7, discountPercent: 10, bonusPercent: 5 }),
    ];
    expect(activityFor(countMeal, list, NOW)?.id).toBe(7);
    expect(activityFor(timeMeal, list, NOW)?.id).toBe(2);
    expect(activityFor({ ...countMeal, id: 99 }, list, NOW)?.id).toBe(3);
    expect(activityFor(countMeal, [], NOW)).toBeNull();
  });

  it('tags overseas, discounts and bonus-only activities as the seed says', () => {
    expect(discountTag({ isOverseas: true }, act({ discountPercent: 10 }))).toBe('超低折扣');
    expect(discountTag({ isOverseas: false }, act({ discountPercent: 15, bonusPercent: 20 }))).toBe('折扣15%');
    expect(discountTag({ isOverseas: false }, act({ bonusPercent: 20 }))).toBe('赠量20%');
    expect(discountTag({ isOverseas: false }, act({}))).toBeNull();
    expect(discountTag({ isOverseas: false }, null)).toBeNull();
  });
});

describe('purchases', () => {
  it('prices units with the discount rounded down and grants IPs with the bonus', () => {
    const q = quotePurchase(countMeal, 3, act({ discountPercent: 15, bonusPercent: 10 }));
    expect(q.listFen).toBe(9000);
    expect(q.discountFen).toBe(1350);
    expect(q.grant).toEqual({ count: 33_000, dailyLimit: 0, ipCount: 0, days: 365 });
  });

  it('grants a daily limit for time packages and dedicated IPs without bonus for fixed IPs', () => {
    expect(quotePurchase(timeMeal, 2, act({ bonusPercent: 20 })).grant).toEqual({
      count: 0,
      dailyLimit: 2400,
      ipCount: 0,
      days: 30,
    });
    const f = quotePurchase(fixedMeal, 5, act({ productType: 30, bonusPercent: 50, discountPercent: 5 }));
    expect(f.grant).toEqual({ count: 0, dailyLimit: 0, ipCount: 5, days: 30 });
    expect(f.listFen).toBe(30_000);
    expect(f.discountFen).toBe(1500);
  });

  it('refuses zero, negative, fractional and huge quantities', () => {
    for (const n of [0, -1, 1.5, 1001, Number.NaN])
      expect(code(() => quotePurchase(countMeal, n, null))).toBe('quantityInvalid');
  });
});

describe('renewal, extra count and period change', () => {
  it('renews a count package with the IPs again and the validity extended', () => {
    const q = quoteRenewal(countMeal, 2, 1, act({ discountPercent: 10 }));
    expect(q.listFen).toBe(6000);
    expect(q.discountFen).toBe(600);
    expect(q.grant).toEqual({ count: 20_000, dailyLimit: 0, ipCount: 0, days: 365 });
  });

  it('renews time packages and fixed IPs by periods only', () => {
    expect(quoteRenewal(timeMeal, 3, 2, null)).toMatchObject({
      listFen: 54_000,
      grant: { count: 0, dailyLimit: 0, ipCount: 0, days: 60 },
    });
    expect(quoteRenewal(fixedMeal, 4, 3, null).grant.days).toBe(90);
    expect(code(() => quoteRenewal(timeMeal, 1, 13, null))).toBe('quantityInvalid');
  });

  it('prices extra count per IP rounded up, for count packages only', () => {
    expect(quoteAddTimes(countMeal, 1000, null).listFen).toBe(300);
    expect(quoteAddTimes(countMeal, 1, null).listFen).toBe(1); // 0.3 fen -> 1 fen
    expect(quoteAddTimes(countMeal, 1000, act({ discountPercent: 15 })).discountFen).toBe(45);
    expect(code(() => quoteAddTimes(timeMeal, 1000, null))).toBe('addTimesCountOnly');
    expect(code(() => quoteAddTimes(fixedMeal, 1, null))).toBe('addTimesCountOnly');
    expect(code(() => quoteAddTimes(countMeal, 0, null))).toBe('quantityInvalid');
  });

  it('prorates a period change by day for time packages and fixed IPs', () => {
    expect(quoteChangeDate(timeMeal, 1, 10).listFen).toBe(3000);
    expect(quoteChangeDate(fixedMeal, 3, 7).listFen).toBe(4200);
    expect(quoteChangeDate(timeMeal, 1, 1).listFen).toBe(300);
    expect(quoteChangeDate({ ...timeMeal, priceFen: 100 }, 1, 1).listFen).toBe(4); // 3.33 -> 4
    expect(code(() => quoteChangeDate(countMeal, 1, 10))).toBe('changeDateTimeOnly');
    expect(code(() => quoteChangeDate(timeMeal, 1, 366))).toBe('quantityInvalid');
  });
});

describe('remaining value and merge credit', () => {
  const pkg = {
    productType: 10,
    billingMethod: 1,
    state: 1,
    totalCount: 10_000,
    remainingCount: 2500,
    startsAt: NOW - 10 * DAY_MS,
    expiresAt: NOW + 20 * DAY_MS,
    paidFen: 2550,
  };

  it('credits the paid price times the unused share, rounded down', () => {
    expect(remainingValue(pkg, NOW)).toBe(637);
    expect(remainingValue({ ...pkg, billingMethod: 2 }, NOW)).toBe(1700);
    expect(remainingValue({ ...pkg, productType: 30, billingMethod: 2 }, NOW)).toBe(1700);
  });

  it('gives nothing for free, inactive, expired or empty packages', () => {
    expect(remainingValue({ ...pkg, paidFen: 0 }, NOW)).toBe(0);
    expect(remainingValue({ ...pkg, state: 2 }, NOW)).toBe(0);
    expect(remainingValue({ ...pkg, state: 4 }, NOW)).toBe(0);
    expect(remainingValue({ ...pkg, expiresAt: NOW }, NOW)).toBe(0);
    expect(remainingValue({ ...pkg, remainingCount: 0 }, NOW)).toBe(0);
    expect(remainingValue({ ...pkg, totalCount: 0 }, NOW)).toBe(0);
  });

  it('never credits more than was paid', () => {
    expect(remainingValue({ ...pkg, remainingCount: 99_999 }, NOW)).toBe(2550);
    expect(remainingValue({ ...pkg, billingMethod: 2, startsAt: NOW + DAY_MS }, NOW)).toBe(2550);
  });

  it('requires the target to cost more than the credit (no zero-cost upgrade)', () => {
    const target = quotePurchase(countMeal, 1, act({ discountPercent: 10 })); // pays 2700
    expect(quoteMerge(target, [1000, 1699]).creditFen).toBe(2699);
    expect(code(() => quoteMerge(target, [2700]))).toBe('mergeCreditTooHigh');
    expect(code(() => quoteMerge(target, [1350, 1350]))).toBe('mergeCreditTooHigh');
  });
});

describe('coupons', () => {
  it('takes fen or percent off, never below one fen', () => {
    expect(couponReduction(3000, coupon({ value: 500 }), [10], NOW)).toBe(500);
    expect(couponReduction(300, coupon({ value: 500 }), [10], NOW)).toBe(299);
    expect(couponReduction(3333, coupon({ kind: 2, value: 10 }), [10], NOW)).toBe(333);
    expect(couponReduction(1, coupon({ value: 500 }), [10], NOW)).toBeNull();
    expect(couponReduction(3000, coupon({ kind: 2, value: 100 }), [10], NOW)).toBe(2999);
  });

  it('checks the threshold, the product types and the validity window', () => {
    expect(couponReduction(999, coupon({ thresholdFen: 1000 }), [10], NOW)).toBeNull();
    expect(couponReduction(1000, coupon({ thresholdFen: 1000 }), [10], NOW)).toBe(500);
    expect(couponReduction(3000, coupon({ productTypes: [30, 50] }), [10], NOW)).toBeNull();
    expect(couponReduction(3000, coupon({ productTypes: [10, 40] }), [10, 40], NOW)).toBe(500);
    expect(couponReduction(3000, coupon({ productTypes: [10] }), [10, 40], NOW)).toBeNull();
    expect(couponReduction(3000, coupon({ expiresAt: NOW }), [10], NOW)).toBeNull();
    expect(couponReduction(3000, coupon({ validFrom: NOW + 1 }), [10], NOW)).toBeNull();
  });

  it('meets the threshold with the original price, and reduces what is left after the discount', () => {
    // ¥10.00 list, 15% off -> ¥8.50: the ¥5 coupon 满¥10.00 applies (docs/decisions/033).
    expect(couponReduction(850, coupon({ thresholdFen: 1000 }), [10], NOW, 1000)).toBe(500);
    expect(couponReduction(850, coupon({ thresholdFen: 1000 }), [10], NOW, 999)).toBeNull();
    expect(bestCoupon(850, [coupon({ thresholdFen: 1000 })], [10], NOW, 1000)?.reductionFen).toBe(500);
    const line = quotePurchase({ ...countMeal, priceFen: 1000 }, 1, act({ discountPercent: 15 }));
    const t = totalQuote([line], 0, { offer: coupon({ thresholdFen: 1000 }), productTypes: [10], now: NOW });
    expect(t).toMatchObject({ listFen: 1000, discountFen: 150, couponFen: 500, payFen: 350 });
  });

  it('offers the coupon saving the most, the earliest expiring on a tie', () => {
    const list = [
      coupon({ userCouponId: 1, value: 500 }),
      coupon({ userCouponId: 2, kind: 2, value: 20 }),
      coupon({ userCouponId: 3, value: 900, thresholdFen: 10_000 }),
      coupon({ userCouponId: 4, kind: 2, value: 20, expiresAt: NOW + 1000 }),
    ];
    expect(bestCoupon(5000, list, [10], NOW)).toEqual({ coupon: list[3], reductionFen: 1000 });
    expect(bestCoupon(2000, list, [10], NOW)?.coupon.userCouponId).toBe(1);
    expect(bestCoupon(2000, [], [10], NOW)).toBeNull();
  });
});

describe('totals', () => {
  it('applies discount, credit, then the coupon on what is left', () => {
    const lines = [quotePurchase(countMeal, 2, act({ discountPercent: 10 })), quotePurchase(timeMeal, 1, null)];
    const t = totalQuote(lines, 1000, { offer: coupon({ kind: 2, value: 10 }), productTypes: [10], now: NOW });
    expect(t).toEqual({
      listFen: 15_000,
      discountFen: 600,
      creditFen: 1000,
      couponFen: 1340,
      payFen: 12_060,
      couponId: 1,
    });
  });

  it('refuses an inapplicable coupon instead of silently ignoring it', () => {
    const lines = [quotePurchase(countMeal, 1, null)];
    expect(
      code(() => totalQuote(lines, 0, { offer: coupon({ thresholdFen: 99_999 }), productTypes: [10], now: NOW })),
    ).toBe('couponNotApplicable');
    expect(totalQuote(lines, 0, null)).toMatchObject({ payFen: 3000, couponFen: 0, couponId: null });
  });

  it('splits a paid amount over lines exactly', () => {
    expect(splitProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitProportionally(1000, [3000, 1000])).toEqual([750, 250]);
    expect(splitProportionally(7, [0, 0])).toEqual([7, 0]);
    const parts = splitProportionally(12_345, [17, 29, 3]);
    expect(parts.reduce((s, v) => s + v, 0)).toBe(12_345);
  });
});
