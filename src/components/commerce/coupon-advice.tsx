// What the buy page says about coupons, from the quote alone: which coupon is applied and why (the one saving most,
// or the customer's own choice and what the best one would save instead), and whether receiving a coupon would save
// more than the one applied. Amounts are the engine's (PayOrder.Quote), never computed here.
import { formatFen } from '../../lib/format';
import type { QuoteView } from './types';

/**
 * One line under the coupon select: the applied coupon and why, or what the customer leaves unused; and when a coupon
 * they may still receive saves more than any they hold, that too (receive it below).
 */
export function couponReason(quote: QuoteView, receivableNames: ReadonlyMap<number, string>): string | null {
  const held = couponHeldReason(quote);
  const top = quote.receivableSavings.find((s) => receivableNames.has(s.couponId));
  const extra = top ? top.reductionFen - (quote.applicableCoupons[0]?.reductionFen ?? 0) : 0;
  const tip =
    top && extra > 0
      ? `领取下方「${receivableNames.get(top.couponId)}」本单可${held ? '再' : ''}省${formatFen(extra)}`
      : null;
  return [held, tip].filter(Boolean).join('；') || null;
}

function couponHeldReason(quote: QuoteView): string | null {
  const best = quote.applicableCoupons[0];
  if (!best) return null;
  if (!quote.coupon) return `未使用优惠券；「${best.name}」本单可省${formatFen(best.reductionFen)}`;
  const saved = `已选用「${quote.coupon.name}」，省${formatFen(quote.couponFen)}`;
  if (quote.couponFen >= best.reductionFen) {
    return quote.applicableCoupons.length > 1 ? `${saved}（本单最优惠的优惠券）` : saved;
  }
  return `${saved}；「${best.name}」可多省${formatFen(best.reductionFen - quote.couponFen)}`;
}

/** What receiving a coupon would save on this order, and whether that beats the applied one (null: it does not apply). */
export function receivableAdvice(
  quote: QuoteView | null,
  couponId: number,
): { savingFen: number; extraFen: number; heldFen: number } | null {
  const s = quote?.receivableSavings.find((x) => x.couponId === couponId);
  if (!quote || !s) return null;
  // The best coupon the customer already holds is what the engine would apply; receiving helps only beyond it.
  const held = quote.applicableCoupons[0]?.reductionFen ?? 0;
  return { savingFen: s.reductionFen, extraFen: Math.max(0, s.reductionFen - held), heldFen: held };
}

export function CouponReason({
  quote,
  receivable,
}: {
  quote: QuoteView | null;
  /** The coupons offered for receiving on the page (id, name). */
  receivable: readonly { id: number; name: string }[];
}) {
  const text = quote ? couponReason(quote, new Map(receivable.map((r) => [r.id, r.name]))) : null;
  if (!text) return null;
  return (
    <p className="mt-2 text-xs leading-5 text-slate-500" data-testid="coupon-reason">
      {text}
    </p>
  );
}

/** The receivable coupon's line: what it saves on this order, or that this order cannot use it. */
export function ReceivableSaving({ quote, couponId }: { quote: QuoteView | null; couponId: number }) {
  if (!quote) return null;
  const a = receivableAdvice(quote, couponId);
  if (!a) {
    return (
      <span className="block text-xs text-slate-400" data-testid="receivable-saving">
        本单暂不可用
      </span>
    );
  }
  return (
    <span
      className={`block text-xs ${a.extraFen > 0 ? 'font-medium text-rose-600' : 'text-slate-500'}`}
      data-testid="receivable-saving"
    >
      领取后本单可省{formatFen(a.savingFen)}
      {a.heldFen === 0 ? '' : a.extraFen > 0 ? `，比已有优惠券多省${formatFen(a.extraFen)}` : '，不比已有优惠券更省'}
    </span>
  );
}
