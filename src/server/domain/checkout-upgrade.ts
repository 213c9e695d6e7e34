// The upgrade/merge checkout: the user's active packages of one type are retired into a new package of a meal of the
// same type; their remaining value is credited against it, from a snapshot the placement batch re-checks.
import { ORDER_KIND } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { findUserPackages } from '../db/package-terms';
import { mealOrThrow, newPackageLine, type PreparedCheckout } from './checkout-lines';
import { type Activity, quoteMerge, remainingValue } from './pricing';

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
  if (pkgs.length !== ids.length || pkgs.some((p) => p.productType !== meal.productType || p.state !== 1)) {
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
