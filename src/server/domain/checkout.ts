// Checkout: turns a purchase request (buy, batch, renew, extra count, period change, upgrade/merge) into priced lines
// from the catalogue and the user's own packages, offers the best coupon, and places the order atomically.
import { ORDER_KIND, PRODUCT_LABEL, packageName } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { findMeal, findSaleRegion, listLiveActivities } from '../db/catalogue';
import { listUserCoupons } from '../db/coupons';
import { insertOrder, type MergeSource, type OrderItemDraft } from '../db/orders';
import { findUserPackage, findUserPackages, type PackageWithTerms } from '../db/package-terms';
import { newOrderNo } from './order-numbers';
import {
  type Activity,
  activityFor,
  bestCoupon,
  type CouponOffer,
  isDedicatedType,
  type LineQuote,
  type Meal,
  quoteAddTimes,
  quoteChangeDate,
  quoteMerge,
  quotePurchase,
  quoteRenewal,
  remainingValue,
  splitProportionally,
  totalQuote,
} from './pricing';

export const ORDER_TTL_MS = 30 * 60_000;
export const MAX_UNPAID_ORDERS = 10;

export type CheckoutRequest =
  | { kind: 'buy'; mealId: number; units: number; regionId?: number | undefined }
  | { kind: 'batch'; items: { mealId: number; units: number; regionId?: number | undefined }[] }
  | { kind: 'renew'; packageId: number; periods: number }
  | { kind: 'addTimes'; packageId: number; count: number }
  | { kind: 'changeDate'; packageId: number; days: number }
  | { kind: 'merge'; packageIds: number[]; mealId: number; units: number };

interface Line {
  quote: LineQuote;
  item: Omit<OrderItemDraft, 'valueFen' | 'listFen'>;
  /** The activity applied (for naming the discount and bonus lines of the quote). */
  activity?: Activity | null;
  /** Extracted IPs (count) or daily volume before the activity bonus; the grant includes the bonus. */
  baseVolume?: number;
}

/** One line's terms as the buy page shows them before payment: what is delivered, for how long, and its amounts. */
export interface LineTerms {
  name: string;
  productType: number;
  billingMethod: number;
  ipDurationMinutes: number;
  units: number;
  /** IPs added (按量), daily volume (包天), dedicated IPs (固定/优质), all bonus included. */
  count: number;
  dailyLimit: number;
  ipCount: number;
  /** Validity in days from payment (or the extension). */
  days: number;
  /** The bonus part of count/dailyLimit (0 without a bonus activity). */
  bonusVolume: number;
  bonusPercent: number;
  listFen: number;
  discountFen: number;
  discountPercent: number;
  activityName: string | null;
}

/** The terms of every line of a prepared checkout. */
export function checkoutTerms(prepared: PreparedCheckout): LineTerms[] {
  return prepared.lines.map((l) => {
    const g = l.quote.grant;
    const total = l.item.billingMethod === 1 ? g.count : g.dailyLimit;
    const bonusVolume = l.baseVolume !== undefined && total > l.baseVolume ? total - l.baseVolume : 0;
    return {
      name: l.item.name,
      productType: l.item.productType,
      billingMethod: l.item.billingMethod,
      ipDurationMinutes: l.item.ipDurationMinutes,
      units: l.item.units,
      count: g.count,
      dailyLimit: g.dailyLimit,
      ipCount: g.ipCount,
      days: g.days,
      bonusVolume,
      bonusPercent: bonusVolume > 0 ? (l.activity?.bonusPercent ?? 0) : 0,
      listFen: l.quote.listFen,
      discountFen: l.quote.discountFen,
      discountPercent: l.quote.discountFen > 0 ? (l.activity?.discountPercent ?? 0) : 0,
      activityName: l.quote.discountFen > 0 || bonusVolume > 0 ? (l.activity?.name ?? null) : null,
    };
  });
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

async function mealOrThrow(db: D1Database, id: number, anyState = false): Promise<Meal> {
  const meal = await findMeal(db, id, anyState);
  if (!meal) throw new AppError('mealNotFound');
  return meal;
}

async function newPackageLine(
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

function extendLine(pkg: PackageWithTerms, meal: Meal, quote: LineQuote): Line {
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
async function orderedPackage(db: D1Database, userId: number, packageId: number) {
  const pkg = await findUserPackage(db, userId, packageId);
  if (!pkg || pkg.state === 5) throw new AppError('packageNotFound');
  if (pkg.mealId === null || pkg.units <= 0) throw new AppError('packageNotRenewable');
  // A source of an unpaid upgrade/merge order is retired when that order is paid: extending it would take money for
  // nothing (insertOrder re-checks this atomically).
  if (pkg.reserved) throw new AppError('packageBusy');
  return { pkg, meal: await mealOrThrow(db, pkg.mealId, true) };
}

/** Price a checkout request from the catalogue and the user's packages (no coupon yet). */
export async function prepareCheckout(
  db: D1Database,
  userId: number | null,
  req: CheckoutRequest,
  now: number,
): Promise<PreparedCheckout> {
  const activities = await listLiveActivities(db, now);
  const needUser = () => {
    if (userId === null) throw new AppError('loginExpired', { status: 401 });
    return userId;
  };
  const single = (kind: number, title: string, line: Line, couponsAllowed = true): PreparedCheckout => ({
    kind,
    productType: line.item.productType,
    productTypes: [line.item.productType],
    title,
    lines: [line],
    creditFen: 0,
    mergeSources: [],
    couponsAllowed,
  });

  switch (req.kind) {
    case 'buy': {
      const meal = await mealOrThrow(db, req.mealId);
      const line = await newPackageLine(db, meal, req.units, req.regionId, activities, now);
      return single(ORDER_KIND.buy, line.item.name, line);
    }
    case 'batch': {
      const lines: Line[] = [];
      for (const i of req.items) {
        lines.push(await newPackageLine(db, await mealOrThrow(db, i.mealId), i.units, i.regionId, activities, now));
      }
      const types = [...new Set(lines.map((l) => l.item.productType))];
      const first = lines[0];
      if (!first) throw new AppError('quantityInvalid');
      return {
        kind: ORDER_KIND.batch,
        productType: first.item.productType,
        productTypes: types,
        title: `批量购买 · ${types.map((t) => PRODUCT_LABEL[t]).join('、')} ${lines.length}项`,
        lines,
        creditFen: 0,
        mergeSources: [],
        couponsAllowed: true,
      };
    }
    case 'renew': {
      const { pkg, meal } = await orderedPackage(db, needUser(), req.packageId);
      const quote = quoteRenewal(meal, pkg.units, req.periods, activityFor(meal, activities, now));
      return single(ORDER_KIND.renew, `续费 · ${pkg.name}`, extendLine(pkg, meal, quote));
    }
    case 'addTimes': {
      const { pkg, meal } = await orderedPackage(db, needUser(), req.packageId);
      if (pkg.expiresAt <= now || pkg.state === 2) throw new AppError('packageNotRenewable');
      const quote = quoteAddTimes(meal, req.count, activityFor(meal, activities, now));
      return single(ORDER_KIND.addTimes, `补量 · ${pkg.name} +${req.count}个`, extendLine(pkg, meal, quote));
    }
    case 'changeDate': {
      const { pkg, meal } = await orderedPackage(db, needUser(), req.packageId);
      const quote = quoteChangeDate(meal, pkg.units, req.days);
      return single(ORDER_KIND.changeDate, `延长时长 · ${pkg.name} ${req.days}天`, extendLine(pkg, meal, quote));
    }
    case 'merge': {
      const uid = needUser();
      const ids = [...new Set(req.packageIds)];
      const meal = await mealOrThrow(db, req.mealId);
      const pkgs = await findUserPackages(db, uid, ids);
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
  }
}

export interface PricedCheckout {
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  payFen: number;
  coupon: { id: number; name: string } | null;
  /** The user's coupons that apply, best first, with what each would save. */
  applicableCoupons: { id: number; name: string; reductionFen: number; expiresAt: number }[];
  bestCouponId: number | null;
}

/**
 * Price a prepared checkout with a coupon: `couponId` undefined = no coupon; a given id must be the user's, unused
 * and applicable. The applicable coupons and the best one are always reported so the page can offer them.
 */
export async function priceCheckout(
  db: D1Database,
  userId: number | null,
  prepared: PreparedCheckout,
  couponId: number | undefined,
  now: number,
): Promise<PricedCheckout> {
  const base = totalQuote(
    prepared.lines.map((l) => l.quote),
    prepared.creditFen,
    null,
  );
  const offers: CouponOffer[] =
    userId !== null && prepared.couponsAllowed ? await listUserCoupons(db, userId, 'unused', now) : [];
  const applicable = offers
    .map((c) => ({ c, best: bestCoupon(base.payFen, [c], prepared.productTypes, now, base.listFen) }))
    .filter((x) => x.best !== null)
    .map((x) => ({
      id: x.c.userCouponId,
      name: x.c.name,
      reductionFen: x.best?.reductionFen ?? 0,
      expiresAt: x.c.expiresAt,
    }))
    .sort((a, b) => b.reductionFen - a.reductionFen || a.expiresAt - b.expiresAt);
  let chosen: CouponOffer | null = null;
  if (couponId !== undefined) {
    chosen = offers.find((c) => c.userCouponId === couponId) ?? null;
    if (!chosen) throw new AppError(prepared.couponsAllowed ? 'couponUnavailable' : 'couponNotApplicable');
  }
  const total = totalQuote(
    prepared.lines.map((l) => l.quote),
    prepared.creditFen,
    chosen ? { offer: chosen, productTypes: prepared.productTypes, now } : null,
  );
  return {
    listFen: total.listFen,
    discountFen: total.discountFen,
    creditFen: total.creditFen,
    couponFen: total.couponFen,
    payFen: total.payFen,
    coupon: chosen ? { id: chosen.userCouponId, name: chosen.name } : null,
    applicableCoupons: applicable,
    bestCouponId: applicable[0]?.id ?? null,
  };
}

export interface PlacedOrder {
  orderNo: string;
  payFen: number;
  expiresAt: number;
  title: string;
}

/** Price and place an order for the user; the coupon is locked in the same atomic batch as the order insert. */
export async function placeOrder(
  db: D1Database,
  r: { userId: number; sourceType: number; request: CheckoutRequest; couponId: number | undefined; now: number },
): Promise<PlacedOrder> {
  const prepared = await prepareCheckout(db, r.userId, r.request, r.now);
  const priced = await priceCheckout(db, r.userId, prepared, r.couponId, r.now);
  const orderNo = newOrderNo(r.now);
  const values = splitProportionally(
    priced.payFen + priced.creditFen,
    prepared.lines.map((l) => l.quote.listFen - l.quote.discountFen),
  );
  const expiresAt = r.now + ORDER_TTL_MS;
  const result = await insertOrder(
    db,
    {
      orderNo,
      userId: r.userId,
      kind: prepared.kind,
      productType: prepared.productType,
      title: prepared.title.slice(0, 120),
      listFen: priced.listFen,
      discountFen: priced.discountFen,
      creditFen: priced.creditFen,
      couponFen: priced.couponFen,
      payFen: priced.payFen,
      userCouponId: priced.coupon?.id ?? null,
      sourceType: r.sourceType,
      expiresAt,
      createdAt: r.now,
      items: prepared.lines.map((l, i) => ({ ...l.item, listFen: l.quote.listFen, valueFen: values[i] ?? 0 })),
      mergeSources: prepared.mergeSources,
    },
    MAX_UNPAID_ORDERS,
  );
  if (result === 'coupon_unavailable') throw new AppError('couponUnavailable');
  if (result === 'too_many_unpaid') throw new AppError('tooManyUnpaid');
  if (result === 'package_busy') throw new AppError('packageBusy');
  if (result === 'package_changed') throw new AppError('packageChanged');
  return { orderNo, payFen: priced.payFen, expiresAt, title: prepared.title };
}
