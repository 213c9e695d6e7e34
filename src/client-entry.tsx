// The browser entry (replaces Waku's managed one, which hydrates synchronously): hydration runs as a transition, so
// React renders the server HTML's tree in time slices that yield to the browser every few milliseconds instead of one
// long task; a tap that lands on a part not yet hydrated is replayed once it is (docs/decisions/175).
//
// The page's RSC payload is inline in the HTML (a dozen chunks of ~4 KB) and is all buffered by the time this module
// runs; read at once, the Flight client decodes every chunk in one chain of microtasks, a single task of 70-190 ms
// under Lighthouse's 4x CPU slowdown. The first response is therefore handed over one chunk per task
// (docs/decisions/183): same bytes, same order, and React simply renders what has arrived so far.
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'waku/router/client';

type Prefetched = Record<string, Promise<Response> | unknown>;

/** Give the browser a turn: `scheduler.yield()` where there is one (keeps the task's priority), else a macrotask. */
const nextTask = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

/** The same response with its body delivered one chunk per task. */
function chunkPerTask(res: Response): Response {
  const body = res.body;
  if (!body) return res;
  const reader = body.getReader();
  let first = true;
  const paced = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!first) await nextTask();
      first = false;
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(paced, { status: res.status, statusText: res.statusText, headers: res.headers });
}

const prefetched = (globalThis as { __WAKU_PREFETCHED__?: Prefetched }).__WAKU_PREFETCHED__;
if (prefetched) {
  for (const [key, entry] of Object.entries(prefetched)) {
    // Waku's first-hydration entry is a plain Promise<Response>; prefetches it made itself (arrays) are left alone.
    if (entry instanceof Promise) prefetched[key] = entry.then((res: Response) => chunkPerTask(res));
  }
}

const rootElement = (
  <StrictMode>
    <Router />
  </StrictMode>
);

// In the next task: evaluating this module's graph (React DOM, the RSC client, the router) is already one long task,
// and creating the root adds React's ~80 document listeners to it.
void nextTask().then(() => {
  if ((globalThis as { __WAKU_HYDRATE__?: boolean }).__WAKU_HYDRATE__) {
    startTransition(() => {
      hydrateRoot(document, rootElement);
    });
  } else {
    createRoot(document).render(rootElement);
  }
});
