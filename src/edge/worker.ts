// The Worker entry without pages: the edge app (middleware + endpoints) and the scheduled jobs, for the workerd test
// suites. The deployed Worker wraps the same middleware around Waku's pages (src/server-entry.tsx).
import type { Bindings } from '../server/env';
import { runScheduledJobs } from '../server/jobs';
import { createEdgeApp } from './app';
import { DurableObject } from 'cloudflare:workers';
import { customerRecordsClass } from '../server/objects/customer-records';
import { nodeLeasesClass } from '../server/objects/node-leases';

/** The Durable Object classes (wrangler.toml [[durable_objects.bindings]]). */
export const CustomerRecords = customerRecordsClass(DurableObject);
export const NodeLeases = nodeLeasesClass(DurableObject);

const app = createEdgeApp();

export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduledJobs(controller.cron, env, controller.scheduledTime)),
} satisfies ExportedHandler<Bindings>;
