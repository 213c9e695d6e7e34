// The catalogue as the order pages see it: meals with their live activity, one-unit price and discount tag, and the
// per-type overview (largest discount and bonus, lowest price).
import { PRODUCT_TYPES } from '../../lib/commerce';
import { listLiveActivities, listMeals } from '../db/catalogue';
import { type Activity, activityFor, discountTag, type Meal, percentOf } from './pricing';

export interface MealView extends Meal {
  /** One unit after the activity discount. */
  payFen: number;
  discountPercent: number;
  bonusPercent: number;
  activityName: string | null;
  tag: string | null;
}

/** A meal as offered now. */
export function mealView(meal: Meal, activities: readonly Activity[], now: number): MealView {
  const a = activityFor(meal, activities, now);
  const discountPercent = a?.discountPercent ?? 0;
  return {
    ...meal,
    payFen: meal.priceFen - percentOf(meal.priceFen, discountPercent),
    discountPercent,
    bonusPercent: meal.productType === 30 || meal.productType === 50 ? 0 : (a?.bonusPercent ?? 0),
    activityName: a?.name ?? null,
    tag: discountTag(meal, a),
  };
}

/** Meals of a type as offered now. */
export async function offeredMeals(db: D1Database, productType: number, now: number): Promise<MealView[]> {
  const [meals, activities] = await Promise.all([listMeals(db, productType), listLiveActivities(db, now)]);
  return meals.map((m) => mealView(m, activities, now));
}

export interface MealOverview {
  meaDiscountMax: Record<string, number>;
  mealSendMax: Record<string, number>;
  mealMinPrice: Record<string, number>;
}

/** The seed's overview: largest live discount and bonus percent per type, and the lowest one-unit price. */
export async function mealOverview(db: D1Database, now: number): Promise<MealOverview> {
  const [meals, activities] = await Promise.all([listMeals(db), listLiveActivities(db, now)]);
  const out: MealOverview = { meaDiscountMax: {}, mealSendMax: {}, mealMinPrice: {} };
  for (const t of PRODUCT_TYPES) {
    const views = meals.filter((m) => m.productType === t).map((m) => mealView(m, activities, now));
    out.meaDiscountMax[t] = Math.max(0, ...views.map((v) => v.discountPercent));
    out.mealSendMax[t] = Math.max(0, ...views.map((v) => v.bonusPercent));
    out.mealMinPrice[t] = views.length ? Math.min(...views.map((v) => v.payFen)) : 0;
  }
  return out;
}
