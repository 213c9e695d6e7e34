// The coverage figures the site quotes (home hero, /region, the login page) come from one place: the region
// catalogue's totals (Region.GetCoverage: how many cities, and the availability weighted by node count). When the
// catalogue cannot be read, the pages fall back to the spec's lower bound "300+" and quote no availability rather
// than a number nobody computed (docs/decisions/052).

export interface CoverageTotals {
  cities: number;
  provinces: number;
  nodes: number;
  /** Percent, two decimals (availability basis points / 100, weighted by node count). */
  availability: number;
}

export interface CoverageFigures {
  /** "345", or "300+" when the catalogue is unavailable. */
  cities: string;
  /** "99.68%", or null when the catalogue is unavailable. */
  availability: string | null;
}

/** The spec's marketing lower bound for the city count, used only when the catalogue is unavailable. */
export const CITY_COUNT_FALLBACK = '300+';

export function coverageFigures(totals: CoverageTotals | null | undefined): CoverageFigures {
  if (!totals || totals.cities <= 0) return { cities: CITY_COUNT_FALLBACK, availability: null };
  return { cities: String(totals.cities), availability: `${totals.availability.toFixed(2)}%` };
}
