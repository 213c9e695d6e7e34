// The Worker entry without pages: the edge app (middleware + API routes) and the scheduled jobs. The test suites run
// it; the deployed Worker wraps the same app around Waku's pages (src/server-entry.tsx).
import { createEdgeApp } from './app';

const app = createEdgeApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler;
