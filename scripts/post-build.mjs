// After `waku build`: write the Worker entry (fetch through Waku + edge, plus scheduled jobs).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

writeFileSync(
  `${process.env.DIST_DIR ?? 'dist'}/server/worker.js`,
  `import { DurableObject } from 'cloudflare:workers';
import { INTERNAL_runFetch, unstable_serverEntry } from './index.js';

// The Durable Object classes (wrangler.toml [[durable_objects.bindings]]), built on the runtime's base class.
export const CustomerRecords = unstable_serverEntry.customerRecordsClass(DurableObject);
export const NodeLeases = unstable_serverEntry.nodeLeasesClass(DurableObject);

export default {
  fetch: (request, env, ctx) => INTERNAL_runFetch(env, request, env, ctx),
  scheduled: (controller, env, ctx) => unstable_serverEntry.scheduled?.(controller, env, ctx),
};
`,
);
console.log('dist/server/worker.js written');

// The code-sample downloads (/code/{file}.zip), built from code-samples/ into the static assets.
execFileSync(process.execPath, ['scripts/build-code-zips.mjs', `${process.env.DIST_DIR ?? 'dist'}/public/code`], {
  stdio: 'inherit',
});
