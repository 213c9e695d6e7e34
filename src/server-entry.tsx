// The deployed Worker's server entry: Waku's file-system pages behind the same edge middleware the tests exercise,
// plus the scheduled jobs (dist/server/worker.js forwards cron events here).
import { fsRouter } from 'waku';
import adapter from 'waku/adapters/cloudflare';
import { edgeMiddlewareFactories } from './edge/app';
import type { Bindings } from './server/env';
import { runScheduledJobs } from './server/jobs';
import { customerRecordsClass } from './server/objects/customer-records';
import { nodeLeasesClass } from './server/objects/node-leases';

const entry = adapter(fsRouter(import.meta.glob('./**/*.{tsx,ts}', { base: './pages' })), {
  middlewareFns: edgeMiddlewareFactories() as never,
});

export default {
  ...entry,
  scheduled: (controller: ScheduledController, env: Bindings, ctx: ExecutionContext) =>
    ctx.waitUntil(runScheduledJobs(controller.cron, env, controller.scheduledTime)),
  // The Durable Object classes are built by dist/server/worker.js (scripts/post-build.mjs), inside workerd only.
  customerRecordsClass,
  nodeLeasesClass,
};
