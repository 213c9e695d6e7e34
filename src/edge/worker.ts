// The Worker entry without pages: the edge app (middleware + endpoints) for the workerd test suites. The deployed
// Worker wraps the same middleware around Waku's pages (src/server-entry.tsx, dist/server/worker.js).
import { createEdgeApp } from './app';

const app = createEdgeApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<import('../server/env').Bindings>;
