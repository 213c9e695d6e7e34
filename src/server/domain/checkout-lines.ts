// The priced lines of a checkout: a line that creates a package (from a meal of the catalogue, with its region and
// live activity) and a line that extends one of the user's ordered packages (renew, extra count, period change).
import { packageName } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { findMeal, findSaleRegion } from '../db/catalogue';
import type { MergeSource, OrderItemDraft } from '../db/order-placement';
import { findUserPackage, type PackageWithTerms } from '../db/package-terms';
import { type Activity, activityFor, isDedicatedType, type LineQuote, type Meal, quotePurchase } from './pricing';
import { PACKAGE_STATE } from '../../lib/package-states';

export type CheckoutRequest =
  | { kind: 'buy'; mealId: number; units: number; regionId?: number | undefined }
  | { kind: 'batch'; items: { mealId: number; units: number; regionId?: number | undefined }[] }
  | { kind: 'renew'; packageId: number; periods: number }
  | { kind: 'addTimes'; packageId: number; count: number }
  | { kind: 'changeDate'; packageId: number; days: number }
  | { kind: 'merge'; packageIds: number[]; mealId: number; units: number };

export interface Line {
  quote: LineQuote;
  item: Omit<OrderItemDraft, 'valueFen' | 'listFen'>;
  /** The activity applied (for naming the discount and bonus lines of the quote). */
  activity?: Activity | null;
  /** Extracted IPs (count) or daily volume before the activity bonus; the grant includes the bonus. */
  baseVolume?: number;
}

export interface PreparedCheckout {
  kind: number;
  productType: number;
  productTypes: number[];
  title: string;
  lines: Line[];
  creditFen: number;
  mergeSources: MergeSource[];
  couponsAllowed: boolean;
}

export async function mealOrThrow(db: D1Database, id: number, anyState = false): Promise<Meal> {
  const meal = await findMeal(db, id, anyState);
  if (!meal) throw new AppError('mealNotFound');
  return meal;
}

/** A line that creates a package: the meal's grant for `units`, its activity, and the region a dedicated type needs. */
export async function newPackageLine(
  db: D1Database,
  meal: Meal,
  units: number,
  regionId: number | undefined,
  activities: Activity[],
  now: number,
): Promise<Line> {
  let regionName: string | null = null;
  let region: number | null = null;
  if (isDedicatedType(meal.productType)) {
    if (!regionId) throw new AppError('regionRequired');
    const r = await findSaleRegion(db, regionId, meal.productType);
    if (!r || r.isOverseas !== meal.isOverseas) throw new AppError('regionNotFound');
    regionName = r.name;
    region = r.id;
  }
  const activity = activityFor(meal, activities, now);
  const quote = quotePurchase(meal, units, activity);
  const g = quote.grant;
  return {
    quote,
    activity,
    baseVolume: isDedicatedType(meal.productType) ? 0 : meal.size * units,
    item: {
      packageId: null,
      productType: meal.productType,
      billingMethod: meal.billingMethod,
      ipDurationMinutes: meal.ipDurationMinutes,
      name: packageName({ ...meal, count: g.count, dailyLimit: g.dailyLimit, ipCount: g.ipCount, regionName }),
      mealId: meal.id,
      units,
      regionId: region,
      addCount: g.count,
      addDailyLimit: g.dailyLimit,
      addIpCount: g.ipCount,
      addDays: g.days,
    },
  };
}

/** A line that extends the package by the quote's grant (count and days). */
export function extendLine(pkg: PackageWithTerms, meal: Meal, quote: LineQuote): Line {
  return {
    quote,
    item: {
      packageId: pkg.id,
      productType: pkg.productType,
      billingMethod: pkg.billingMethod,
      ipDurationMinutes: pkg.ipDurationMinutes,
      name: pkg.name,
      mealId: meal.id,
      units: pkg.units,
      regionId: pkg.regionId,
      addCount: quote.grant.count,
      addDailyLimit: 0,
      addIpCount: 0,
      addDays: quote.grant.days,
    },
  };
}

/** A package of the user that an order created, with its meal; throws when it cannot be renewed or extended. */
export async function orderedPackage(db: D1Database, userId: number, packageId: number) {
  const pkg = await findUserPackage(db, userId, packageId);
  if (!pkg || pkg.state === PACKAGE_STATE.disabled) throw new AppError('packageNotFound');
  if (pkg.mealId === null || pkg.units <= 0) throw new AppError('packageNotRenewable');
  // A source of an unpaid upgrade/merge order is retired when that order is paid: extending it would take money for
  // nothing (the placement batch re-checks this atomically).
  if (pkg.reserved) throw new AppError('packageBusy');
  return { pkg, meal: await mealOrThrow(db, pkg.mealId, true) };
}
