// Commerce facts shared by pages and the server: product, order and coupon labels, and how to name a package.

import { formatCount } from './format';

export const PRODUCT_TYPES = [10, 40, 30, 50] as const;
export type ProductTypeCode = (typeof PRODUCT_TYPES)[number];

/** True for one of the four product type codes. */
export const isProductType = (n: number): n is ProductTypeCode => (PRODUCT_TYPES as readonly number[]).includes(n);

export const PRODUCT_LABEL: Record<number, string> = {
  10: '短效动态IP',
  40: '长效静态IP',
  30: '固定IP',
  50: '优质IP',
};

/**
 * Billing method 1 is 按量 (a number of IPs, valid for the period); 2 is 包天 (a daily volume for a number of days), the
 * seed's term, used on every page (docs/decisions/034).
 */
export const BILLING_LABEL: Record<number, string> = { 1: '按量计费', 2: '包天计费' };

export const ORDER_KIND_LABEL: Record<number, string> = {
  1: '新购',
  2: '续费',
  3: '补量',
  4: '延长时长',
  5: '升级合并',
  6: '批量购买',
  7: '余额充值',
};

/** 7 余额充值: an order of its own kind with no items, whose fulfilment credits the balance (docs/decisions/224). */
export const ORDER_KIND = { buy: 1, renew: 2, addTimes: 3, changeDate: 4, merge: 5, batch: 6, topUp: 7 } as const;

/** 3 -> 3分钟, 240 -> 4小时. */
export function durationLabel(minutes: number): string {
  if (minutes <= 0) return '';
  return minutes < 60 ? `${minutes}分钟` : `${minutes / 60}小时`;
}

/** 30 -> 30天, 365 -> 1年. */
export function periodLabel(days: number): string {
  if (days % 365 === 0) return `${days / 365}年`;
  if (days % 30 === 0 && days >= 30) return `${days / 30}个月`;
  if (days % 7 === 0) return `${days / 7}周`;
  return `${days}天`;
}

/** A coupon's face: ¥5 off or 9折. */
export function couponFace(kind: number, value: number): string {
  if (kind === 1) return `¥${(value / 100).toFixed(value % 100 === 0 ? 0 : 2)}`;
  const rate = (100 - value) / 10;
  return `${Number.isInteger(rate) ? rate : rate.toFixed(1)}折`;
}

/** A package's display name from what it holds. */
export function packageName(p: {
  productType: number;
  billingMethod: number;
  ipDurationMinutes: number;
  count: number;
  dailyLimit: number;
  ipCount: number;
  regionName?: string | null;
}): string {
  const label = PRODUCT_LABEL[p.productType] ?? '代理IP';
  if (p.productType === 30 || p.productType === 50) {
    return [label, p.regionName ?? '', `${p.ipCount}个IP`].filter(Boolean).join(' · ');
  }
  const dur = durationLabel(p.ipDurationMinutes);
  return p.billingMethod === 1
    ? `${label} · 按量 ${p.count}个 · ${dur}`
    : `${label} · 包天 ${p.dailyLimit}个/天 · ${dur}`;
}

/**
 * What a package still has, in one wording for every kind (the package list's 剩余可用 column): 按量 「剩余 19,997 / 共
 * 20,000个」; 包天 「今日剩余 1,167 / 每日 1,200个」; dedicated 「2个独享IP」.
 */
export function packageRemainingText(p: {
  productType: number;
  billingMethod: number;
  totalCount: number;
  remainingCount: number;
  dailyLimit: number;
  usedToday?: number;
  ipCount: number;
}): string {
  const n = formatCount;
  if (p.productType === 30 || p.productType === 50) return `${n(p.ipCount)}个独享IP`;
  if (p.billingMethod === 1) return `剩余 ${n(p.remainingCount)} / 共 ${n(p.totalCount)}个`;
  if (!p.dailyLimit) return '不限量';
  if (p.usedToday === undefined) return `每日 ${n(p.dailyLimit)}个`;
  return `今日剩余 ${n(Math.max(0, p.dailyLimit - p.usedToday))} / 每日 ${n(p.dailyLimit)}个`;
}

/**
 * The billing method a buy form starts on: 1 (按量计费, the spec's default) whenever the product sells it, whatever
 * order the catalogue lists its meals in; otherwise the one it sells.
 */
export function defaultBillingMethod(meals: { billingMethod: number }[]): number {
  return meals.some((m) => m.billingMethod === 1) ? 1 : (meals[0]?.billingMethod ?? 1);
}

/** What a customer can do with a package held (personal centre 续费 / 补量 / 升级, the buy-IP dialog). */
export const PACKAGE_ACTIONS = ['renew', 'addTimes', 'changeDate', 'merge'] as const;
export type PackageAction = (typeof PACKAGE_ACTIONS)[number];
export const isPackageAction = (v: unknown): v is PackageAction => PACKAGE_ACTIONS.includes(v as PackageAction);

/** Where a package row's 续费 / 升级 leads: the renewal tab with that package's dialog open. */
export const packageActionHref = (type: number, packageId: number, action: PackageAction): string =>
  `/personalCenter/buy?type=${type}&tab=2&package=${packageId}&action=${action}`;
