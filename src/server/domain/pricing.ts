// The pricing engine: every amount the portal charges is computed here, on the server, from the catalogue, the
// activity, the quantity, the remaining value of packages and a coupon. Pure functions over integer fen; never a
// client-sent amount. The upgrade/merge credit rule is docs/decisions/031-upgrade-and-merge-credit.md.
import { couponThresholdMet } from '../../lib/coupon-rules';
import { AppError } from '../../lib/errors';
import { PACKAGE_STATE } from '../../lib/package-states';

export type ProductType = 10 | 30 | 40 | 50;
export type BillingMethod = 1 | 2;

/** The smallest amount an order may ask for (WeChat Pay refuses 0). */
export const MIN_PAY_FEN = 1;
export const MAX_UNITS = 1000;
export const MAX_PERIODS = 12;
export const MAX_ADD_COUNT = 10_000_000;
export const MAX_CHANGE_DAYS = 365;

export interface Meal {
  id: number;
  productType: ProductType;
  billingMethod: BillingMethod;
  name: string;
  ipDurationMinutes: number;
  size: number;
  periodDays: number;
  priceFen: number;
  isOverseas: boolean;
}

export interface Activity {
  id: number;
  name: string;
  productType: number;
  /** 0 = every billing method. */
  billingMethod: number;
  /** 0 = every meal of the type. */
  mealId: number;
  discountPercent: number;
  bonusPercent: number;
  startsAt: number;
  endsAt: number;
}

export interface CouponOffer {
  userCouponId: number;
  name: string;
  /** 1: value fen off; 2: value percent off. */
  kind: 1 | 2;
  value: number;
  thresholdFen: number;
  /** Empty = every product type. */
  productTypes: number[];
  validFrom: number;
  expiresAt: number;
}

/** What paying delivers: added IPs (count), daily limit (time), dedicated IPs (30/50) and days of validity. */
export interface Grant {
  count: number;
  dailyLimit: number;
  ipCount: number;
  days: number;
}

export interface Quote {
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  payFen: number;
}

/** Fixed (30) and premium (50) IPs are held as dedicated IPs rather than extracted. */
export const isDedicatedType = (t: number): boolean => t === 30 || t === 50;

/** floor(a * b / c) for non-negative safe integers, exact even when a * b exceeds 2^53. */
export function mulDiv(a: number, b: number, c: number, round: 'floor' | 'ceil' = 'floor'): number {
  if (c <= 0) throw new RangeError('division by zero');
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  const q = n / d;
  return Number(round === 'ceil' && q * d !== n ? q + 1n : q);
}

/** A percentage of an amount, rounded down (discounts and coupons never round in the buyer's favour by a fen). */
export const percentOf = (fen: number, percent: number): number => mulDiv(fen, percent, 100);

/** The activity that applies to a meal now: the most generous one (highest discount, then bonus, then oldest). */
export function activityFor(meal: Meal, activities: readonly Activity[], now: number): Activity | null {
  let best: Activity | null = null;
  for (const a of activities) {
    if (a.productType !== meal.productType || a.startsAt > now || a.endsAt <= now) continue;
    if (a.billingMethod !== 0 && a.billingMethod !== meal.billingMethod) continue;
    if (a.mealId !== 0 && a.mealId !== meal.id) continue;
    if (
      !best ||
      a.discountPercent > best.discountPercent ||
      (a.discountPercent === best.discountPercent && a.bonusPercent > best.bonusPercent) ||
      (a.discountPercent === best.discountPercent && a.bonusPercent === best.bonusPercent && a.id < best.id)
    ) {
      best = a;
    }
  }
  return best;
}

/** The seed's tag: 超低折扣 for overseas lines, 折扣{n}%, or 赠量{n}% when there is a bonus but no discount. */
export function discountTag(meal: Pick<Meal, 'isOverseas'>, activity: Activity | null): string | null {
  if (meal.isOverseas) return '超低折扣';
  if (activity && activity.discountPercent > 0) return `折扣${activity.discountPercent}%`;
  if (activity && activity.bonusPercent > 0) return `赠量${activity.bonusPercent}%`;
  return null;
}

/**
 * What an activity does to an order, worded exactly as quotePurchase applies it: the discount is a percentage of the
 * original price rounded down to the fen; the bonus adds a percentage of the IPs (count or daily limit), rounded down,
 * and never applies to dedicated IPs (30/50) or days.
 */
export function activityRuleText(a: Pick<Activity, 'productType' | 'discountPercent' | 'bonusPercent'>): string {
  const parts: string[] = [];
  if (a.discountPercent > 0) parts.push(`订单原价减${a.discountPercent}%（优惠金额向下取整到分）`);
  if (a.bonusPercent > 0 && !isDedicatedType(a.productType)) {
    parts.push(`赠送${a.bonusPercent}%的IP数量（按量加总量，包天加每日量，向下取整；天数不变）`);
  }
  return parts.length ? parts.join('；') : '无优惠';
}

/** Bonus applies to extracted IPs (count and daily limit), never to dedicated IPs or days. */
const bonusPercentFor = (meal: Meal, activity: Activity | null) =>
  activity && !isDedicatedType(meal.productType) ? activity.bonusPercent : 0;

function checkUnits(n: number, max: number): void {
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new AppError('quantityInvalid');
}

/** What `units` of a meal grant, bonus included. */
export function grantFor(meal: Meal, units: number, bonusPercent: number): Grant {
  const base = meal.size * units;
  const withBonus = base + percentOf(base, bonusPercent);
  if (isDedicatedType(meal.productType)) return { count: 0, dailyLimit: 0, ipCount: units, days: meal.periodDays };
  if (meal.billingMethod === 1) return { count: withBonus, dailyLimit: 0, ipCount: 0, days: meal.periodDays };
  return { count: 0, dailyLimit: withBonus, ipCount: 0, days: meal.periodDays };
}

export interface LineQuote {
  listFen: number;
  discountFen: number;
  grant: Grant;
  activityId: number | null;
}

/** A new purchase of `units` of a meal under its activity. */
export function quotePurchase(meal: Meal, units: number, activity: Activity | null): LineQuote {
  checkUnits(units, MAX_UNITS);
  const listFen = meal.priceFen * units;
  return {
    listFen,
    discountFen: activity ? percentOf(listFen, activity.discountPercent) : 0,
    grant: grantFor(meal, units, bonusPercentFor(meal, activity)),
    activityId: activity?.id ?? null,
  };
}

/**
 * Renewal: buying the package's own meal again, `periods` times, for the units it was bought with. Count packages
 * get the IPs again and the validity extended; time packages and dedicated IPs get the validity extended.
 */
export function quoteRenewal(meal: Meal, units: number, periods: number, activity: Activity | null): LineQuote {
  checkUnits(periods, MAX_PERIODS);
  checkUnits(units, MAX_UNITS);
  const listFen = meal.priceFen * units * periods;
  const grant = grantFor(meal, units * periods, bonusPercentFor(meal, activity));
  return {
    listFen,
    discountFen: activity ? percentOf(listFen, activity.discountPercent) : 0,
    grant:
      meal.billingMethod === 1 && !isDedicatedType(meal.productType)
        ? { ...grant, days: meal.periodDays * periods }
        : { count: 0, dailyLimit: 0, ipCount: 0, days: meal.periodDays * periods },
    activityId: activity?.id ?? null,
  };
}

/** Extra IPs for a count package, at the meal's per-IP price (rounded up to the fen) less the activity discount. */
export function quoteAddTimes(meal: Meal, count: number, activity: Activity | null): LineQuote {
  if (meal.billingMethod !== 1 || isDedicatedType(meal.productType)) throw new AppError('addTimesCountOnly');
  checkUnits(count, MAX_ADD_COUNT);
  const listFen = mulDiv(meal.priceFen, count, meal.size, 'ceil');
  return {
    listFen,
    discountFen: activity ? percentOf(listFen, activity.discountPercent) : 0,
    grant: { count, dailyLimit: 0, ipCount: 0, days: 0 },
    activityId: activity?.id ?? null,
  };
}

/** Extending a time package or dedicated IPs by any number of days, prorated from the meal (no activity). */
export function quoteChangeDate(meal: Meal, units: number, days: number): LineQuote {
  if (meal.billingMethod === 1 && !isDedicatedType(meal.productType)) throw new AppError('changeDateTimeOnly');
  checkUnits(days, MAX_CHANGE_DAYS);
  checkUnits(units, MAX_UNITS);
  return {
    listFen: mulDiv(meal.priceFen * units, days, meal.periodDays, 'ceil'),
    discountFen: 0,
    grant: { count: 0, dailyLimit: 0, ipCount: 0, days },
    activityId: null,
  };
}

export interface PackageValueInput {
  productType: number;
  billingMethod: number;
  state: number;
  totalCount: number;
  remainingCount: number;
  startsAt: number;
  expiresAt: number;
  /** Money paid into the package (0 for free grants: welfare, red packets, demo, operator). */
  paidFen: number;
}

/**
 * The remaining value of a package, credited on upgrade/merge: what was paid for it times the unused share, rounded
 * down. Only active packages that were paid for have value; a free or spent package is worth nothing.
 */
export function remainingValue(p: PackageValueInput, now: number): number {
  if (p.state !== PACKAGE_STATE.active || p.paidFen <= 0 || p.expiresAt <= now) return 0;
  if (p.billingMethod === 1 && !isDedicatedType(p.productType)) {
    if (p.totalCount <= 0) return 0;
    return mulDiv(p.paidFen, Math.min(p.remainingCount, p.totalCount), p.totalCount);
  }
  const span = p.expiresAt - p.startsAt;
  if (span <= 0) return 0;
  return mulDiv(p.paidFen, Math.min(p.expiresAt - now, span), span);
}

/**
 * An upgrade or merge: buy the target, credit the remaining value of the source packages. The target must cost more
 * (after its discount) than the credit, so an upgrade never comes for free and value never grows by merging.
 */
export function quoteMerge(target: LineQuote, credits: readonly number[]): LineQuote & { creditFen: number } {
  const creditFen = credits.reduce((s, c) => s + c, 0);
  if (target.listFen - target.discountFen - creditFen < MIN_PAY_FEN) throw new AppError('mergeCreditTooHigh');
  return { ...target, creditFen };
}

/**
 * The coupon's reduction of an amount, or null when the coupon does not apply (time, threshold, product type).
 * The threshold (满X可用) is met by the order's original price `listFen` (原价, before the activity discount); the
 * reduction is taken from `amountFen`, what is left after discount and credit (docs/decisions/033). The wording shown
 * to customers comes from couponThresholdText in src/lib/coupon-rules.ts, which states exactly this.
 */
export function couponReduction(
  amountFen: number,
  coupon: CouponOffer,
  productTypes: readonly number[],
  now: number,
  listFen: number = amountFen,
): number | null {
  if (coupon.validFrom > now || coupon.expiresAt <= now) return null;
  if (!couponThresholdMet(listFen, coupon.thresholdFen)) return null;
  if (coupon.productTypes.length > 0 && !productTypes.every((t) => coupon.productTypes.includes(t))) return null;
  const cap = amountFen - MIN_PAY_FEN;
  if (cap <= 0) return null;
  const off = coupon.kind === 1 ? coupon.value : percentOf(amountFen, Math.min(coupon.value, 100));
  return off > 0 ? Math.min(off, cap) : null;
}

/** The coupon saving the most (earliest expiry on a tie), or null. `listFen`: the order's original price. */
export function bestCoupon(
  amountFen: number,
  coupons: readonly CouponOffer[],
  productTypes: readonly number[],
  now: number,
  listFen: number = amountFen,
): { coupon: CouponOffer; reductionFen: number } | null {
  let best: { coupon: CouponOffer; reductionFen: number } | null = null;
  for (const c of coupons) {
    const r = couponReduction(amountFen, c, productTypes, now, listFen);
    if (r === null) continue;
    if (!best || r > best.reductionFen || (r === best.reductionFen && c.expiresAt < best.coupon.expiresAt)) {
      best = { coupon: c, reductionFen: r };
    }
  }
  return best;
}

/**
 * Sum line quotes, subtract credit and the coupon; the coupon's threshold is checked against the original price and
 * its reduction computed on the amount after discount and credit.
 */
export function totalQuote(
  lines: readonly LineQuote[],
  creditFen: number,
  coupon: { offer: CouponOffer; productTypes: readonly number[]; now: number } | null,
): Quote & { couponId: number | null } {
  const listFen = lines.reduce((s, l) => s + l.listFen, 0);
  const discountFen = lines.reduce((s, l) => s + l.discountFen, 0);
  const beforeCoupon = listFen - discountFen - creditFen;
  if (beforeCoupon < MIN_PAY_FEN) throw new AppError('mergeCreditTooHigh');
  let couponFen = 0;
  if (coupon) {
    const r = couponReduction(beforeCoupon, coupon.offer, coupon.productTypes, coupon.now, listFen);
    if (r === null) throw new AppError('couponNotApplicable');
    couponFen = r;
  }
  return {
    listFen,
    discountFen,
    creditFen,
    couponFen,
    payFen: beforeCoupon - couponFen,
    couponId: coupon ? coupon.offer.userCouponId : null,
  };
}

/**
 * Split an amount over lines in proportion to their weights (largest remainder), so each package's recorded value
 * adds up exactly to what was paid.
 */
export function splitProportionally(totalFen: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? totalFen : 0));
  const shares = weights.map((w) => mulDiv(totalFen, w, sum));
  let rest = totalFen - shares.reduce((s, v) => s + v, 0);
  for (let i = 0; rest > 0; i = (i + 1) % shares.length) {
    shares[i] = (shares[i] ?? 0) + 1;
    rest--;
  }
  return shares;
}
