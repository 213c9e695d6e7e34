// The catalogue's fixed sets and limits, in one place for the seed, the console's forms and the server's validation:
// the IP durations each extractable product sells (the seed's sets), the billing methods each type may use, and the
// bounds of sizes, periods, prices and activity percentages (the latter are the meals/activities CHECK constraints).
// Isomorphic: the console's forms list the same options the server accepts.
import { BILLING_LABEL, durationLabel } from './commerce';
import { formatCount, formatFen } from './format';

/** IP durations (minutes) on sale per extractable type; fixed (30) and premium (50) IPs have none (0). */
export const IP_DURATIONS: Record<number, readonly number[]> = {
  10: [3, 5, 10, 15, 30],
  40: [60, 240, 480, 720, 1440],
  30: [0],
  50: [0],
};

/** Billing methods a type may be sold by: extractable types both; dedicated IPs 包天 (a number of days) only. */
export const BILLING_METHODS_FOR: Record<number, readonly (1 | 2)[]> = { 10: [1, 2], 40: [1, 2], 30: [2], 50: [2] };

export const MEAL_LIMITS = {
  sizeMax: 10_000_000,
  periodDaysMax: 3650,
  /** ¥1,000,000.00 per unit. */
  priceFenMax: 100_000_000,
  nameMax: 60,
} as const;

/** The activities table's CHECK bounds. */
export const ACTIVITY_LIMITS = { discountMax: 90, bonusMax: 200, nameMax: 40 } as const;

/** Dedicated IPs (30/50) are sold one IP per unit. */
export const DEDICATED_SIZE = 1;

/** 「3分钟」「4小时」 or 「—」 for dedicated IPs. */
export const durationOption = (minutes: number): string => (minutes > 0 ? durationLabel(minutes) : '—');

/**
 * What a meal's size means for its type and billing method, in the unit the buy page uses; `compact` writes whole
 * multiples of ten thousand as 万 (「100万个IP」, for narrow rows).
 */
export function sizeText(productType: number, billingMethod: number, size: number, compact = false): string {
  const n = compact && size >= 10_000 && size % 10_000 === 0 ? `${size / 10_000}万` : formatCount(size);
  if (productType === 30 || productType === 50) return `${n}个独享IP`;
  return billingMethod === 1 ? `${n}个IP` : `${n}个/天`;
}

/** 「按量计费 · 10,000个IP · 365天 · ¥100.00/份」. */
export function mealTermsText(m: {
  productType: number;
  billingMethod: number;
  size: number;
  periodDays: number;
  priceFen: number;
}): string {
  return `${BILLING_LABEL[m.billingMethod] ?? m.billingMethod} · ${sizeText(m.productType, m.billingMethod, m.size)} · ${m.periodDays}天 · ${formatFen(m.priceFen)}/份`;
}
