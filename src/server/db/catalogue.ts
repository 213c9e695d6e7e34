// Queries for the catalogue: meals (purchasable specifications), activities and sale regions.
import type { Activity, BillingMethod, Meal, ProductType } from '../domain/pricing';
import { ON_OFF } from '../../lib/on-off-states';

/** A meals row as stored (the console's editor reads the same columns plus sort and state). */
export interface MealRow {
  id: number;
  product_type: ProductType;
  billing_method: BillingMethod;
  name: string;
  ip_duration_minutes: number;
  size: number;
  period_days: number;
  price_fen: number;
  is_overseas: number;
}

const MEAL_COLUMNS =
  'id, product_type, billing_method, name, ip_duration_minutes, size, period_days, price_fen, is_overseas';

export const mapMeal = (r: MealRow): Meal => ({
  id: r.id,
  productType: r.product_type,
  billingMethod: r.billing_method,
  name: r.name,
  ipDurationMinutes: r.ip_duration_minutes,
  size: r.size,
  periodDays: r.period_days,
  priceFen: r.price_fen,
  isOverseas: r.is_overseas === 1,
});

/** Meals on sale, optionally of one product type, in display order. */
export async function listMeals(db: D1Database, productType?: number): Promise<Meal[]> {
  const stmt =
    productType === undefined
      ? db.prepare(`SELECT ${MEAL_COLUMNS} FROM meals WHERE state = ${ON_OFF.on} ORDER BY product_type, sort, id`)
      : db
          .prepare(
            `SELECT ${MEAL_COLUMNS} FROM meals WHERE state = ${ON_OFF.on} AND product_type = ? ORDER BY sort, id`,
          )
          .bind(productType);
  const { results } = await stmt.all<MealRow>();
  return results.map(mapMeal);
}

/** A meal by id (on sale only unless `anyState`). */
export async function findMeal(db: D1Database, id: number, anyState = false): Promise<Meal | null> {
  const row = await db
    .prepare(`SELECT ${MEAL_COLUMNS} FROM meals WHERE id = ?${anyState ? '' : ` AND state = ${ON_OFF.on}`}`)
    .bind(id)
    .first<MealRow>();
  return row ? mapMeal(row) : null;
}

/** An activities row as stored (the console's editor maps the same row plus its state). */
export interface ActivityRow {
  id: number;
  name: string;
  product_type: number;
  billing_method: number;
  meal_id: number;
  discount_percent: number;
  bonus_percent: number;
  starts_at: number;
  ends_at: number;
  state: number;
}

export const mapActivity = (r: ActivityRow): Activity => ({
  id: r.id,
  name: r.name,
  productType: r.product_type,
  billingMethod: r.billing_method,
  mealId: r.meal_id,
  discountPercent: r.discount_percent,
  bonusPercent: r.bonus_percent,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
});

/** Activities live at `now`. */
export async function listLiveActivities(db: D1Database, now: number): Promise<Activity[]> {
  const { results } = await db
    .prepare(`SELECT * FROM activities WHERE state = ${ON_OFF.on} AND starts_at <= ?1 AND ends_at > ?1 ORDER BY id`)
    .bind(now)
    .all<ActivityRow>();
  return results.map(mapActivity);
}

export interface SaleRegion {
  id: number;
  name: string;
  province: string;
  isOverseas: boolean;
}

interface RegionRow {
  id: number;
  name: string;
  province: string;
  is_overseas: number;
  product_types: string;
}

const mapRegion = (r: RegionRow): SaleRegion => ({
  id: r.id,
  name: r.name,
  province: r.province,
  isOverseas: r.is_overseas === 1,
});

/** Regions offered for a product type. */
export async function listSaleRegions(db: D1Database, productType: number): Promise<SaleRegion[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, province, is_overseas, product_types FROM meal_regions WHERE state = ${ON_OFF.on} AND (',' || product_types || ',') LIKE ? ORDER BY sort, id`,
    )
    .bind(`%,${productType},%`)
    .all<RegionRow>();
  return results.map(mapRegion);
}

/** A region if it is offered for the product type. */
export async function findSaleRegion(db: D1Database, id: number, productType: number): Promise<SaleRegion | null> {
  const row = await db
    .prepare(
      `SELECT id, name, province, is_overseas, product_types FROM meal_regions WHERE id = ? AND state = ${ON_OFF.on} AND (',' || product_types || ',') LIKE ?`,
    )
    .bind(id, `%,${productType},%`)
    .first<RegionRow>();
  return row ? mapRegion(row) : null;
}
