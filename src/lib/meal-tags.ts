// Product-card marketing from the commerce actions (seed section 9): discount tags 折扣{n}%, 赠量{n}% when there is a
// bonus but no discount, 超低折扣 for overseas; and a defensive reading of meal payloads whose shape the commerce
// actions own (any missing or odd field simply means "no price shown").

/** The tag text for a product, or null. */
export function discountTag(p: { discount?: number | null; send?: number | null; overseas?: boolean }): string | null {
  if (p.overseas) return '超低折扣';
  const d = Number(p.discount ?? 0);
  const s = Number(p.send ?? 0);
  if (Number.isFinite(d) && d > 0) return `折扣${Math.round(d)}%`;
  if (Number.isFinite(s) && s > 0) return `赠量${Math.round(s)}%`;
  return null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Percent maxima keyed by product type, from ProxyMeal.GetMealOverview ({meaDiscountMax, mealSendMax}). */
export function overviewMaxima(payload: unknown): Record<string, { discount: number | null; send: number | null }> {
  const out: Record<string, { discount: number | null; send: number | null }> = {};
  if (!payload || typeof payload !== 'object') return out;
  const o = payload as { meaDiscountMax?: unknown; mealSendMax?: unknown };
  for (const type of ['10', '40', '30', '50']) {
    const d =
      o.meaDiscountMax && typeof o.meaDiscountMax === 'object'
        ? num((o.meaDiscountMax as Record<string, unknown>)[type])
        : null;
    const s =
      o.mealSendMax && typeof o.mealSendMax === 'object' ? num((o.mealSendMax as Record<string, unknown>)[type]) : null;
    out[type] = { discount: d, send: s };
  }
  return out;
}

/** The lowest package price in fen per product type, from ProxyMeal.GetMealOverview ({mealMinPrice}); 0 = none. */
export function startingPrices(payload: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!payload || typeof payload !== 'object') return out;
  const min = (payload as { mealMinPrice?: unknown }).mealMinPrice;
  if (!min || typeof min !== 'object') return out;
  for (const type of ['10', '40', '30', '50']) {
    const v = num((min as Record<string, unknown>)[type]);
    if (v !== null && v > 0) out[type] = v;
  }
  return out;
}
