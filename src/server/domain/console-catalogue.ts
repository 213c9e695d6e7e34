// The console's catalogue: meals, activities and sale regions checked against the catalogue's rules (the seed's IP
// durations, the billing methods of each type, the tables' bounds), each write with its audit row in one batch. A
// meal's price change applies to orders placed afterwards: an order keeps the amounts and order_items the terms it was
// created with (docs/decisions/121).
import { BILLING_METHODS_FOR, DEDICATED_SIZE, IP_DURATIONS } from '../../lib/catalogue-rules';
import { AppError } from '../../lib/errors';
import { listLiveActivities } from '../db/catalogue';
import type { AuditActor } from '../db/console-audit';
import {
  type ActivityFields,
  countMealsForAdmin,
  findActivityForAdmin,
  findMealForAdmin,
  findRegionForAdmin,
  insertActivityStatement,
  insertMealStatement,
  insertRegionStatement,
  listActivitiesForAdmin,
  listMealChoicesForAdmin,
  listMealsForAdmin,
  listRegionsForAdmin,
  type MealAdminRow,
  type MealFields,
  setActivityStateStatement,
  setMealStateStatement,
  setRegionStateStatement,
  updateActivityStatement,
  updateMealStatement,
  updateRegionStatement,
} from '../db/console-catalogue-edit';
import { mealView } from './catalogue';
import { auditedChange, auditedSave } from './console-audit';
import { activityRuleText, isDedicatedType } from './pricing';
import { regionKey } from './regions';
import { ON_OFF, otherOnOff } from '../../lib/on-off-states';

/** A meal's terms must be ones the engine and the buy page can sell. */
export function checkMeal(m: MealFields): void {
  if (!(BILLING_METHODS_FOR[m.productType] ?? []).includes(m.billingMethod as 1 | 2)) {
    throw new AppError('catalogueBillingInvalid');
  }
  if (!(IP_DURATIONS[m.productType] ?? []).includes(m.ipDurationMinutes))
    throw new AppError('catalogueDurationInvalid');
  if (isDedicatedType(m.productType) && m.size !== DEDICATED_SIZE) throw new AppError('catalogueDedicatedSize');
}

/** An activity must have an effect the engine applies, within a real window, on a meal of its own type. */
export async function checkActivity(db: D1Database, a: ActivityFields): Promise<void> {
  if (a.endsAt <= a.startsAt) throw new AppError('catalogueWindowInvalid');
  if (a.discountPercent === 0 && a.bonusPercent === 0) throw new AppError('catalogueActivityEmpty');
  if (isDedicatedType(a.productType) && a.bonusPercent > 0) throw new AppError('catalogueActivityBonusDedicated');
  if (a.billingMethod !== 0 && !(BILLING_METHODS_FOR[a.productType] ?? []).includes(a.billingMethod as 1 | 2)) {
    throw new AppError('catalogueBillingInvalid');
  }
  if (a.mealId !== 0) {
    const meal = await findMealForAdmin(db, a.mealId);
    if (
      !meal ||
      meal.productType !== a.productType ||
      (a.billingMethod !== 0 && meal.billingMethod !== a.billingMethod)
    ) {
      throw new AppError('catalogueActivityMealMismatch');
    }
  }
}

/** Meals on one page of the console's catalogue list. */
export const MEAL_PAGE_SIZE = 20;

/** What the catalogue screen asks for: a type, the meal filter, the page, and optionally the meal being edited. */
export interface CatalogueQuery {
  productType: number;
  billingMethod: 0 | 1 | 2;
  ipDurationMinutes: number | null;
  state: 0 | 1 | 2;
  page: number;
  mealId?: number | undefined;
}

/**
 * The catalogue screen of one product type: one page of its meals matching the filter, each with what it sells for now;
 * the counts the filter shows; the meal being edited (whatever page it is on); the type's meals on sale as choices for
 * an activity; every activity and region.
 */
export async function catalogueForAdmin(db: D1Database, q: CatalogueQuery, now: number) {
  // A filter the type cannot match is a caller's mistake, answered like the same value in a meal.
  if (q.billingMethod !== 0 && !(BILLING_METHODS_FOR[q.productType] ?? []).includes(q.billingMethod)) {
    throw new AppError('catalogueBillingInvalid');
  }
  if (q.ipDurationMinutes !== null && !(IP_DURATIONS[q.productType] ?? []).includes(q.ipDurationMinutes)) {
    throw new AppError('catalogueDurationInvalid');
  }
  const [page, counts, choices, editing, live, activities, regions] = await Promise.all([
    listMealsForAdmin(db, {
      productType: q.productType,
      billingMethod: q.billingMethod,
      ipDurationMinutes: q.ipDurationMinutes,
      state: q.state,
      limit: MEAL_PAGE_SIZE,
      offset: (q.page - 1) * MEAL_PAGE_SIZE,
    }),
    countMealsForAdmin(db, q.productType),
    listMealChoicesForAdmin(db, q.productType),
    q.mealId ? findMealForAdmin(db, q.mealId) : null,
    listLiveActivities(db, now),
    listActivitiesForAdmin(db),
    listRegionsForAdmin(db),
  ]);
  const priced = (m: MealAdminRow) => {
    const v = mealView(m, live, now);
    return { ...m, payFen: v.payFen, tag: v.tag, activityName: v.activityName, bonusPercent: v.bonusPercent };
  };
  return {
    meals: page.rows.map(priced),
    total: page.total,
    page: q.page,
    pageSize: MEAL_PAGE_SIZE,
    counts,
    mealChoices: choices,
    meal: editing && editing.productType === q.productType ? priced(editing) : null,
    activities: activities.map((a) => ({
      ...a,
      live: a.state === ON_OFF.on && a.startsAt <= now && a.endsAt > now,
      ruleText: activityRuleText(a),
    })),
    regions,
  };
}

type Target = { kind: 'meal' | 'activity' | 'region'; id: number };

async function write(
  db: D1Database,
  actor: AuditActor,
  entry: { action: string; target: string; before?: unknown; after?: unknown; reason?: string },
  statement: D1PreparedStatement,
  notFound: 'catalogueMealNotFound' | 'catalogueActivityNotFound' | 'catalogueRegionNotFound' | 'catalogueStateChanged',
): Promise<number> {
  const written = await auditedChange(db, actor, entry, [statement], notFound);
  return Number(written.of(statement)?.meta.last_row_id ?? 0);
}

/** Create a meal (on sale at once) or edit one; returns its id. */
export async function saveMeal(
  db: D1Database,
  actor: AuditActor,
  r: MealFields & { id?: number | undefined; reason?: string | undefined },
): Promise<{ id: number }> {
  const { id, reason, ...fields } = r;
  checkMeal(fields);
  return auditedSave(db, actor, {
    action: 'Admin.MealSave',
    kind: 'meal',
    id,
    reason,
    after: fields,
    find: (i) => findMealForAdmin(db, i),
    insert: () => insertMealStatement(db, fields),
    update: (i) => updateMealStatement(db, i, fields),
    notFound: 'catalogueMealNotFound',
  });
}

export async function saveActivity(
  db: D1Database,
  actor: AuditActor,
  r: ActivityFields & { id?: number | undefined; reason?: string | undefined },
): Promise<{ id: number }> {
  const { id, reason, ...fields } = r;
  await checkActivity(db, fields);
  return auditedSave(db, actor, {
    action: 'Admin.ActivitySave',
    kind: 'activity',
    id,
    reason,
    after: fields,
    find: (i) => findActivityForAdmin(db, i),
    insert: () => insertActivityStatement(db, fields),
    update: (i) => updateActivityStatement(db, i, fields),
    notFound: 'catalogueActivityNotFound',
  });
}

export interface RegionInput {
  id?: number | undefined;
  name: string;
  province: string;
  productTypes: number[];
  isOverseas: boolean;
  sort: number;
  reason?: string | undefined;
}

export async function saveRegion(db: D1Database, actor: AuditActor, r: RegionInput): Promise<{ id: number }> {
  const { id, reason, ...rest } = r;
  const productTypes = [...new Set(rest.productTypes)].filter((t) => t === 30 || t === 50).sort();
  if (productTypes.length === 0) throw new AppError('catalogueRegionTypes');
  // Domestic regions match exits by city (and province); overseas ones by neither (docs/decisions/121).
  const fields = {
    ...rest,
    productTypes,
    provinceKey: rest.isOverseas ? '' : regionKey(rest.province),
    cityKey: rest.isOverseas ? '' : regionKey(rest.name),
  };
  return auditedSave(db, actor, {
    action: 'Admin.RegionSave',
    kind: 'region',
    id,
    reason,
    after: fields,
    find: (i) => findRegionForAdmin(db, i),
    insert: () => insertRegionStatement(db, fields),
    update: (i) => updateRegionStatement(db, i, fields),
    notFound: 'catalogueRegionNotFound',
  });
}

/** Put a meal, activity or region on (1) or off (2), with a reason; refused when it is already so. */
export async function setCatalogueState(
  db: D1Database,
  actor: AuditActor,
  r: Target & { state: 1 | 2; reason: string },
): Promise<{ state: 1 | 2 }> {
  const statement =
    r.kind === 'meal'
      ? setMealStateStatement(db, r.id, r.state)
      : r.kind === 'activity'
        ? setActivityStateStatement(db, r.id, r.state)
        : setRegionStateStatement(db, r.id, r.state);
  await write(
    db,
    actor,
    {
      action: 'Admin.CatalogueSetState',
      target: `${r.kind}:${r.id}`,
      before: { state: otherOnOff(r.state) },
      after: { state: r.state },
      reason: r.reason,
    },
    statement,
    'catalogueStateChanged',
  );
  return { state: r.state };
}
