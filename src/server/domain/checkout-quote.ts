// The checkout quote: turns a purchase request (buy, batch, renew, extra count, period change, upgrade/merge) into
// priced lines from the catalogue and the user's own packages, and the terms the buy page shows before payment.
import { ORDER_KIND, PRODUCT_LABEL } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { listLiveActivities } from '../db/catalogue';
import {
  type CheckoutRequest,
  extendLine,
  type Line,
  mealOrThrow,
  newPackageLine,
  orderedPackage,
  type PreparedCheckout,
} from './checkout-lines';
import { prepareMerge } from './checkout-upgrade';
import { activityFor, quoteAddTimes, quoteChangeDate, quoteRenewal } from './pricing';
import { PACKAGE_STATE } from '../../lib/package-states';

export type { CheckoutRequest, PreparedCheckout };

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
      if (pkg.expiresAt <= now || pkg.state === PACKAGE_STATE.expired) throw new AppError('packageNotRenewable');
      const quote = quoteAddTimes(meal, req.count, activityFor(meal, activities, now));
      return single(ORDER_KIND.addTimes, `补量 · ${pkg.name} +${req.count}个`, extendLine(pkg, meal, quote));
    }
    case 'changeDate': {
      const { pkg, meal } = await orderedPackage(db, needUser(), req.packageId);
      const quote = quoteChangeDate(meal, pkg.units, req.days);
      return single(ORDER_KIND.changeDate, `延长时长 · ${pkg.name} ${req.days}天`, extendLine(pkg, meal, quote));
    }
    case 'merge':
      return prepareMerge(db, needUser(), req, activities, now);
  }
}
