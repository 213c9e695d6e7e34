// The buy page's selection in its URL (?meal=&units=&region=), read by the server page and kept in step by the
// client (components/commerce/use-buy-selection.ts); login, registration and real-name carry it as the way back.

export interface InitialSelection {
  mealId?: number | undefined;
  units?: number | undefined;
  regionId?: number | undefined;
}

/** Parse ?meal=&units=&region= (anything else is ignored). */
export function parseSelection(query: URLSearchParams): InitialSelection {
  const int = (k: string, max: number) => {
    const n = Number(query.get(k));
    return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : undefined;
  };
  return { mealId: int('meal', 9_999_999), units: int('units', 1000), regionId: int('region', 9_999_999) };
}
