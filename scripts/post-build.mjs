// After `waku build`: write the Worker entry (fetch through Waku + edge, plus scheduled jobs).
import { writeFileSync } from 'node:fs';

writeFileSync(
  `${process.env.DIST_DIR ?? 'dist'}/server/worker.js`,
  `import { INTERNAL_runFetch, unstable_serverEntry } from './index.js';

export default {
  fetch: (request, env, ctx) => INTERNAL_runFetch(env, request, env, ctx),
  scheduled: (controller, env, ctx) => unstable_serverEntry.scheduled?.(controller, env, ctx),
};
`,
);
console.log('dist/server/worker.js written');
