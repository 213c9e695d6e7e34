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

/**
 * Fills a promotion material's placeholders: {link} (the customer's link), {cities} and {availability} (the same
 * figures the home page quotes, so a shared text never claims a number the site does not). With no availability
 * computed, "可用率{availability}" reads 可用率高 rather than quoting a number nobody computed.
 */
export function fillMaterialText(content: string, link: string, figures: CoverageFigures): string {
  return content
    .replaceAll('{link}', link)
    .replaceAll('{cities}', figures.cities)
    .replaceAll('{availability}', figures.availability ?? '高');
}

export function coverageFigures(totals: CoverageTotals | null | undefined): CoverageFigures {
  if (!totals || totals.cities <= 0) return { cities: CITY_COUNT_FALLBACK, availability: null };
  return { cities: String(totals.cities), availability: `${totals.availability.toFixed(2)}%` };
}
