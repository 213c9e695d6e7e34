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

/** The lowest unit price in fen per product type found in a ProxyMeal.GetMealWithActivity payload. */
export function lowestPrices(payload: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const visit = (v: unknown, type: string | null, depth: number) => {
    if (depth > 5 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, type, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    const t = num(o.productType) ?? num(o.type) ?? num(o.product_type);
    const here = t !== null && [10, 30, 40, 50].includes(t) ? String(t) : type;
    const price = num(o.minPriceFen) ?? num(o.unitPriceFen) ?? num(o.priceFen) ?? num(o.price);
    if (here && price !== null && price > 0) out[here] = Math.min(out[here] ?? Number.POSITIVE_INFINITY, price);
    for (const [k, child] of Object.entries(o))
      if (typeof child === 'object') visit(child, /^(10|30|40|50)$/.test(k) ? k : here, depth + 1);
  };
  visit(payload, null, 0);
  return out;
}
