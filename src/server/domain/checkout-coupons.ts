// The checkout's coupon: which of the user's coupons apply to a prepared checkout (best first), and the totals with
// the chosen one (list - discount - credit - coupon = pay, in fen), and what each coupon the user may still receive
// would save on it, so the page can say when receiving one beats the coupon applied.
import { AppError } from '../../lib/errors';
import { DAY_MS } from '../../lib/time';
import { listClaimableCoupons, listUserCoupons } from '../db/coupons';
import type { PreparedCheckout } from './checkout-lines';
import { bestCoupon, type CouponOffer, totalQuote } from './pricing';

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

/**
 * The coupons the user may still receive (rule id) that apply to this checkout, with what each would save on it, most
 * first: the buy page says when receiving one would save more than the coupon applied.
 */
export async function receivableSavings(
  db: D1Database,
  userId: number | null,
  prepared: PreparedCheckout,
  now: number,
): Promise<{ couponId: number; reductionFen: number }[]> {
  if (userId === null || !prepared.couponsAllowed) return [];
  const base = totalQuote(
    prepared.lines.map((l) => l.quote),
    prepared.creditFen,
    null,
  );
  const rules = await listClaimableCoupons(db, userId, now);
  return rules
    .filter((r) => r.received < r.perUserLimit && r.remaining !== 0)
    .map((r) => {
      // Received now, the coupon is valid from now for its valid days (receiveCoupon).
      const offer: CouponOffer = { ...r, userCouponId: 0, validFrom: now, expiresAt: now + r.validDays * DAY_MS };
      const best = bestCoupon(base.payFen, [offer], prepared.productTypes, now, base.listFen);
      return { couponId: r.id, reductionFen: best?.reductionFen ?? 0 };
    })
    .filter((x) => x.reductionFen > 0)
    .sort((a, b) => b.reductionFen - a.reductionFen);
}
