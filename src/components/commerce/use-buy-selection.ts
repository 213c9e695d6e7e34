'use client';
// The buy page's selection: billing method, IP duration, size, period, line, region and quantity. It starts from the
// URL (?meal=&units=&region=) and keeps the URL in step, so the chosen package survives login, registration and
// real-name verification (every detour carries `selectionHref()` as its redirect).
import { useEffect, useState } from 'react';
import type { InitialSelection } from '../../lib/buy-selection';
import { defaultBillingMethod } from '../../lib/commerce';
import type { CatalogueView } from './types';

export function useBuySelection(data: CatalogueView, initial: InitialSelection = {}) {
  const dedicated = data.type === 30 || data.type === 50;
  const meals = data.meals;
  const start = meals.find((m) => m.id === initial.mealId);
  const [billing, setBilling] = useState<number>(start?.billingMethod ?? defaultBillingMethod(meals));
  const [overseas, setOverseas] = useState(start?.isOverseas ?? false);
  const [minutes, setMinutes] = useState<number>(start?.ipDurationMinutes ?? data.ipTimes[0]?.minutes ?? 0);
  const pool = meals.filter(
    (m) =>
      (dedicated ? m.isOverseas === overseas : m.billingMethod === billing) &&
      (dedicated || m.ipDurationMinutes === minutes),
  );
  const sizes = [...new Set(pool.map((m) => m.size))];
  const [sizeChoice, setSize] = useState<number>(start?.size ?? sizes[0] ?? 0);
  const size = sizes.includes(sizeChoice) ? sizeChoice : (sizes[0] ?? 0);
  const periods = [...new Set(pool.filter((m) => m.size === size || dedicated).map((m) => m.periodDays))];
  const [periodChoice, setPeriod] = useState<number>(start?.periodDays ?? periods[0] ?? 0);
  const period = periods.includes(periodChoice) ? periodChoice : (periods[0] ?? 0);
  const meal =
    pool.find((m) => (dedicated || m.size === size) && m.periodDays === period) ??
    pool.find((m) => dedicated || m.size === size) ??
    pool[0];
  const regions = data.regions.filter((r) => r.isOverseas === overseas);
  const [regionChoice, setRegionId] = useState<number>(initial.regionId ?? 0);
  const regionId = regions.some((r) => r.id === regionChoice) ? regionChoice : 0;
  const [units, setUnits] = useState(initial.units ?? 1);
  // Set when 立即购买 found no region chosen: the select is marked (and says why) until a region is picked.
  const [regionAsked, setRegionAsked] = useState(false);
  const regionMissing = dedicated && regionAsked && regionId === 0;

  // Keep the address bar on the current choice (replace, not push: the back button still leaves the page). In a task
  // of its own: `replaceState` is a same-document navigation for the browser, tens of milliseconds on a throttled
  // phone, and on the first render it ran in the one task holding every effect of the hydrated page
  // (docs/decisions/183).
  useEffect(() => {
    if (!meal) return;
    const timer = setTimeout(() => {
      const url = new URL(window.location.href);
      url.searchParams.set('type', String(data.type));
      url.searchParams.set('meal', String(meal.id));
      url.searchParams.set('units', String(units));
      if (regionId) url.searchParams.set('region', String(regionId));
      else url.searchParams.delete('region');
      if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
    }, 0);
    return () => clearTimeout(timer);
  }, [data.type, meal, units, regionId]);

  return {
    dedicated,
    billing,
    setBilling,
    overseas,
    setOverseas,
    minutes,
    setMinutes,
    sizes,
    size,
    setSize,
    periods,
    period,
    setPeriod,
    meal,
    regions,
    regionId,
    setRegionId,
    regionMissing,
    askRegion: () => setRegionAsked(true),
    units,
    setUnits,
  };
}

/** The current page with the selection in its query: where a login or real-name detour comes back to. */
export function selectionHref(): string {
  return `${window.location.pathname}${window.location.search}`;
}
