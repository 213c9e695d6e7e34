// Lets a page choose its HTTP status (e.g. 404 for an unknown slug) while still rendering inside its layout.
// Throwing Waku's notFound mid-render leaves server rendering with an empty shell; this renders the 404 view
// normally and the edge's pageStatus middleware applies the status to the response.
// The 404 view with its status is components/not-found-view.tsx notFoundPage() (components call down into this module).
import { unstable_getContextData as getContextData } from 'waku/server';

export const PAGE_STATUS_KEY = 'pageStatus';

/** Set the status of the response being rendered. */
export function setPageStatus(status: number): void {
  (getContextData() as Record<string, unknown>)[PAGE_STATUS_KEY] = status;
}
