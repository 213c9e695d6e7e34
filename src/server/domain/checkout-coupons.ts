// The checkout's coupon: which of the user's coupons apply to a prepared checkout (best first), and the totals with
// the chosen one (list - discount - credit - coupon = pay, in fen).
import { AppError } from '../../lib/errors';
import { listUserCoupons } from '../db/coupons';
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
