// Queries for the console's catalogue screen: every meal, activity and sale region whatever its state, and the
// statements that create, edit and enable/disable them (the caller puts them in one audited batch). Orders keep their
// own amounts and order_items their own terms, so nothing here touches an existing order.

import type { Activity, Meal } from '../domain/pricing';
import {
  type ActivityRow,
  type MealRow as CatalogueMealRow,
  mapActivity as mapCatalogueActivity,
  mapMeal as mapCatalogueMeal,
} from './catalogue';
import { ON_OFF, otherOnOff } from '../../lib/on-off-states';

export interface MealAdminRow extends Meal {
  sort: number;
  state: 1 | 2;
}

export interface ActivityAdminRow extends Activity {
  state: number;
}

export interface RegionAdminRow {
  id: number;
  name: string;
  province: string;
  productTypes: number[];
  isOverseas: boolean;
  sort: number;
  state: number;
}

interface MealRow extends CatalogueMealRow {
  sort: number;
  state: 1 | 2;
}

const mapMeal = (r: MealRow): MealAdminRow => ({ ...mapCatalogueMeal(r), sort: r.sort, state: r.state });

/** Which meals of a type the console lists: 0 / null means any billing method, IP duration or state. */
export interface MealAdminFilter {
  productType: number;
  billingMethod: 0 | 1 | 2;
  ipDurationMinutes: number | null;
  state: 0 | 1 | 2;
  limit: number;
  offset: number;
}

/** One page of a type's meals matching the filter (on sale first, in display order) and how many match in all. */
export async function listMealsForAdmin(
  db: D1Database,
  f: MealAdminFilter,
): Promise<{ rows: MealAdminRow[]; total: number }> {
  const from = `FROM meals WHERE product_type = ?1 AND (?2 = 0 OR billing_method = ?2)
       AND (?3 IS NULL OR ip_duration_minutes = ?3) AND (?4 = 0 OR state = ?4)`;
  const binds = [f.productType, f.billingMethod, f.ipDurationMinutes, f.state];
  const [list, count] = await db.batch([
    db
      .prepare(`SELECT * ${from} ORDER BY state, billing_method, sort, id LIMIT ?5 + 0 OFFSET ?6`)
      .bind(...binds, f.limit, f.offset),
    db.prepare(`SELECT COUNT(*) AS n ${from}`).bind(...binds),
  ]);
  return {
    rows: ((list?.results ?? []) as MealRow[]).map(mapMeal),
    total: Number((count?.results?.[0] as { n?: number } | undefined)?.n ?? 0),
  };
}

/** How many meals of a type there are per billing method, IP duration and state (the filter's counts). */
export async function countMealsForAdmin(
  db: D1Database,
  productType: number,
): Promise<{ billingMethod: number; ipDurationMinutes: number; state: number; n: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT billing_method AS billingMethod, ip_duration_minutes AS ipDurationMinutes, state, COUNT(*) AS n
       FROM meals WHERE product_type = ? GROUP BY billing_method, ip_duration_minutes, state`,
    )
    .bind(productType)
    .all<{ billingMethod: number; ipDurationMinutes: number; state: number; n: number }>();
  return results;
}

/** A type's meals on sale as choices (id, name, billing method) for the activity form's "适用套餐". */
export async function listMealChoicesForAdmin(
  db: D1Database,
  productType: number,
): Promise<{ id: number; name: string; billingMethod: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, billing_method AS billingMethod FROM meals WHERE product_type = ? AND state = ${ON_OFF.on}
       ORDER BY billing_method, sort, id`,
    )
    .bind(productType)
    .all<{ id: number; name: string; billingMethod: number }>();
  return results;
}

export async function findMealForAdmin(db: D1Database, id: number): Promise<MealAdminRow | null> {
  const row = await db.prepare('SELECT * FROM meals WHERE id = ?').bind(id).first<MealRow>();
  return row ? mapMeal(row) : null;
}

/** What the console edits on a meal: its terms (type and billing as submitted numbers, checked later) and sort. */
export interface MealFields extends Omit<Meal, 'id' | 'productType' | 'billingMethod'> {
  productType: number;
  billingMethod: number;
  sort: number;
}

const mealBinds = (m: MealFields) => [
  m.productType,
  m.billingMethod,
  m.name,
  m.ipDurationMinutes,
  m.size,
  m.periodDays,
  m.priceFen,
  m.isOverseas ? 1 : 0,
  m.sort,
];

/** A new meal, on sale (the id is the next rowid, above the imported catalogue's stable ids). */
export const insertMealStatement = (db: D1Database, m: MealFields) =>
  db
    .prepare(
      `INSERT INTO meals (product_type, billing_method, name, ip_duration_minutes, size, period_days, price_fen,
         is_overseas, sort, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
    )
    .bind(...mealBinds(m));

/** Edit a meal's terms (orders already placed keep the amounts and terms they were created with). */
export const updateMealStatement = (db: D1Database, id: number, m: MealFields) =>
  db
    .prepare(
      `UPDATE meals SET product_type = ?, billing_method = ?, name = ?, ip_duration_minutes = ?, size = ?,
         period_days = ?, price_fen = ?, is_overseas = ?, sort = ? WHERE id = ?`,
    )
    .bind(...mealBinds(m), id);

/** Put a meal on sale (1) or withdraw it (2), only from the other state. */
export const setMealStateStatement = (db: D1Database, id: number, state: 1 | 2) =>
  db.prepare('UPDATE meals SET state = ? WHERE id = ? AND state = ?').bind(state, id, otherOnOff(state));

const mapActivity = (r: ActivityRow): ActivityAdminRow => ({ ...mapCatalogueActivity(r), state: r.state });

/** Every activity, newest window first. */
export async function listActivitiesForAdmin(db: D1Database): Promise<ActivityAdminRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM activities ORDER BY state, product_type, ends_at DESC, id')
    .all<ActivityRow>();
  return results.map(mapActivity);
}

export async function findActivityForAdmin(db: D1Database, id: number): Promise<ActivityAdminRow | null> {
  const row = await db.prepare('SELECT * FROM activities WHERE id = ?').bind(id).first<ActivityRow>();
  return row ? mapActivity(row) : null;
}

/** What the console edits on an activity (everything but its id and state). */
export type ActivityFields = Omit<Activity, 'id'>;

const activityBinds = (a: ActivityFields) => [
  a.name,
  a.productType,
  a.billingMethod,
  a.mealId,
  a.discountPercent,
  a.bonusPercent,
  a.startsAt,
  a.endsAt,
];

export const insertActivityStatement = (db: D1Database, a: ActivityFields) =>
  db
    .prepare(
      `INSERT INTO activities (name, product_type, billing_method, meal_id, discount_percent, bonus_percent,
         starts_at, ends_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)`,
    )
    .bind(...activityBinds(a));

export const updateActivityStatement = (db: D1Database, id: number, a: ActivityFields) =>
  db
    .prepare(
      `UPDATE activities SET name = ?, product_type = ?, billing_method = ?, meal_id = ?, discount_percent = ?,
         bonus_percent = ?, starts_at = ?, ends_at = ? WHERE id = ?`,
    )
    .bind(...activityBinds(a), id);

/** Enable (1) or disable (2) an activity, only from the other state. */
export const setActivityStateStatement = (db: D1Database, id: number, state: 1 | 2) =>
  db.prepare('UPDATE activities SET state = ? WHERE id = ? AND state = ?').bind(state, id, otherOnOff(state));

interface RegionRow {
  id: number;
  name: string;
  province: string;
  product_types: string;
  is_overseas: number;
  sort: number;
  state: number;
}

const mapRegion = (r: RegionRow): RegionAdminRow => ({
  id: r.id,
  name: r.name,
  province: r.province,
  productTypes: r.product_types
    .split(',')
    .map(Number)
    .filter((n) => n > 0),
  isOverseas: r.is_overseas === 1,
  sort: r.sort,
  state: r.state,
});

export async function listRegionsForAdmin(db: D1Database): Promise<RegionAdminRow[]> {
  const { results } = await db
    .prepare(
      'SELECT id, name, province, product_types, is_overseas, sort, state FROM meal_regions ORDER BY state, sort, id',
    )
    .all<RegionRow>();
  return results.map(mapRegion);
}

export async function findRegionForAdmin(db: D1Database, id: number): Promise<RegionAdminRow | null> {
  const row = await db
    .prepare('SELECT id, name, province, product_types, is_overseas, sort, state FROM meal_regions WHERE id = ?')
    .bind(id)
    .first<RegionRow>();
  return row ? mapRegion(row) : null;
}

export interface RegionFields {
  name: string;
  province: string;
  /** Suffix-free keys the fixed-IP allocation matches exits by (empty for overseas regions). */
  provinceKey: string;
  cityKey: string;
  productTypes: number[];
  isOverseas: boolean;
  sort: number;
}

const regionBinds = (r: RegionFields) => [
  r.name,
  r.province,
  r.provinceKey,
  r.cityKey,
  r.productTypes.join(','),
  r.isOverseas ? 1 : 0,
  r.sort,
];

export const insertRegionStatement = (db: D1Database, r: RegionFields) =>
  db
    .prepare(
      `INSERT INTO meal_regions (name, province, province_key, city_key, product_types, is_overseas, sort, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1)`,
    )
    .bind(...regionBinds(r));

export const updateRegionStatement = (db: D1Database, id: number, r: RegionFields) =>
  db
    .prepare(
      `UPDATE meal_regions SET name = ?, province = ?, province_key = ?, city_key = ?, product_types = ?,
         is_overseas = ?, sort = ? WHERE id = ?`,
    )
    .bind(...regionBinds(r), id);

export const setRegionStateStatement = (db: D1Database, id: number, state: 1 | 2) =>
  db.prepare('UPDATE meal_regions SET state = ? WHERE id = ? AND state = ?').bind(state, id, otherOnOff(state));
