// The browser entry (replaces Waku's managed one, which hydrates synchronously): hydration runs as a transition, so
// React renders the server HTML's tree in time slices that yield to the browser every few milliseconds instead of one
// long task; a tap that lands on a part not yet hydrated is replayed once it is (docs/decisions/175).
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'waku/router/client';

const rootElement = (
  <StrictMode>
    <Router />
  </StrictMode>
);

if ((globalThis as { __WAKU_HYDRATE__?: boolean }).__WAKU_HYDRATE__) {
  startTransition(() => {
    hydrateRoot(document, rootElement);
  });
} else {
  createRoot(document).render(rootElement);
}
