// Lets a page choose its HTTP status (e.g. 404 for an unknown slug) while still rendering inside its layout.
// Throwing Waku's notFound mid-render leaves server rendering with an empty shell; this renders the 404 view
// normally and the edge's pageStatus middleware applies the status to the response.
import { createElement, type ReactElement } from 'react';
import { unstable_getContextData as getContextData } from 'waku/server';
import { NotFoundView } from '../components/not-found-view';

export const PAGE_STATUS_KEY = 'pageStatus';

/** Set the status of the response being rendered. */
export function setPageStatus(status: number): void {
  (getContextData() as Record<string, unknown>)[PAGE_STATUS_KEY] = status;
}

/** Render the 404 view with status 404 (use as `return notFoundPage()`). */
export function notFoundPage(): ReactElement {
  setPageStatus(404);
  return createElement(NotFoundView);
}
