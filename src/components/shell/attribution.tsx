'use client';
// Attribution on arrival (seed section 5): promotion links (did, from, keyword) into local storage (the edge already
// set the 30-day cookies), 推广链接有误，请联系客服 for a malformed link, ad click ids (bdVid, qhclickid) into session
// storage with their tracking points, and the device fingerprint as fingerPrint in local storage.
import { useEffect } from 'react';

/** Query parameters that carry attribution (promotion links and ad click ids). */
const ATTRIBUTION_PARAMS = /[?&](did|bd_vid|bdVid|qhclickid)=/;

export function Attribution() {
  useEffect(() => {
    // Most page views have nothing to record: the code (promotion parsing, fingerprint, tracking calls) loads only for
    // a first visit (no fingerprint yet) or a link carrying attribution parameters (page JavaScript budget). In a task
    // of its own, not in the one running every effect of the freshly hydrated page (docs/decisions/183): the first
    // local-storage read opens the storage area.
    const timer = setTimeout(() => {
      let stored = '';
      try {
        stored = window.localStorage.getItem('fingerPrint') ?? '';
      } catch {
        // storage disabled: nothing is stored either way
      }
      if (/^[0-9a-f]{32}$/.test(stored) && !ATTRIBUTION_PARAMS.test(window.location.search)) return;
      void import('./attribution-run').then((m) => m.runAttribution());
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  return null;
}
