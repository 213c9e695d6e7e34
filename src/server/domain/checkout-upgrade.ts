// The upgrade/merge checkout: the user's active packages of one type are retired into a new package of a meal of the
// same type; their remaining value is credited against it, from a snapshot the placement batch re-checks.
import { ORDER_KIND } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { findUserPackages, type PackageWithTerms } from '../db/package-terms';
import type { MealView } from './catalogue';
import { mealOrThrow, newPackageLine, type PreparedCheckout } from './checkout-lines';
import { type Activity, MIN_PAY_FEN, quoteMerge, remainingValue } from './pricing';
import { PACKAGE_STATE } from '../../lib/package-states';

export async function prepareMerge(
  db: D1Database,
  userId: number,
  req: { packageIds: number[]; mealId: number; units: number },
  activities: Activity[],
  now: number,
): Promise<PreparedCheckout> {
  const ids = [...new Set(req.packageIds)];
  const meal = await mealOrThrow(db, req.mealId);
  const pkgs = await findUserPackages(db, userId, ids);
  if (
    pkgs.length !== ids.length ||
    pkgs.some((p) => p.productType !== meal.productType || p.state !== PACKAGE_STATE.active)
  ) {
    throw new AppError('mergeTypeMismatch');
  }
  const line = await newPackageLine(db, meal, req.units, pkgs[0]?.regionId ?? undefined, activities, now);
  const credits = pkgs.map((p) => remainingValue(p, now));
  const merged = quoteMerge(line.quote, credits);
  return {
    kind: ORDER_KIND.merge,
    productType: meal.productType,
    productTypes: [meal.productType],
    title: `升级合并 · ${line.item.name}`,
    lines: [line],
    creditFen: merged.creditFen,
    // The snapshot the credit was computed from: the order is refused if the source changed meanwhile.
    mergeSources: pkgs.map((p, i) => ({
      packageId: p.id,
      creditFen: credits[i] ?? 0,
      remainingCount: p.remainingCount,
      expiresAt: p.expiresAt,
    })),
    couponsAllowed: false,
  };
}

/** A meal a held package can be upgraded to, with what the customer pays after the package's credit. */
export interface UpgradeTarget {
  mealId: number;
  name: string;
  /** The meal's price now (activity applied) less the package's remaining value: what PayOrder.Quote charges. */
  payFen: number;
}

/**
 * The meals a package can really be upgraded to: the same billing method and IP duration, a larger size than the
 * package holds (the meal it was bought from times its units; for a package no order created, its own size), and
 * something left to pay after the credit (a cheaper meal would be refused as mergeCreditTooHigh). Cheapest first.
 */
export function upgradeTargets(
  pkg: Pick<
    PackageWithTerms,
    'billingMethod' | 'ipDurationMinutes' | 'mealId' | 'units' | 'totalCount' | 'dailyLimit' | 'ipCount' | 'productType'
  >,
  meals: readonly MealView[],
  creditFen: number,
): UpgradeTarget[] {
  const bought = pkg.mealId === null ? undefined : meals.find((m) => m.id === pkg.mealId);
  const dedicated = pkg.productType === 30 || pkg.productType === 50;
  const held = bought
    ? bought.size * Math.max(1, pkg.units)
    : dedicated
      ? pkg.ipCount
      : pkg.billingMethod === 2
        ? pkg.dailyLimit
        : pkg.totalCount;
  return meals
    .filter(
      (m) =>
        m.billingMethod === pkg.billingMethod &&
        m.ipDurationMinutes === pkg.ipDurationMinutes &&
        m.size > held &&
        m.payFen - creditFen >= MIN_PAY_FEN,
    )
    .map((m) => ({ mealId: m.id, name: m.name, payFen: m.payFen - creditFen }))
    .sort((a, b) => a.payFen - b.payFen);
}
