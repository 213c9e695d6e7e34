// Loads the demo data into the local D1 database (idempotent): bundles src/server/seed, renders SQL, applies it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arg, flag } from './lib/args.mjs';
import { importBundled } from './lib/bundle.mjs';
import { bin, run } from './lib/tools.mjs';

const persist = arg('persist-to');
const { demoSeedSql, DEFAULT_DEV_NODE_SECRET, DEMO_LICENCE_KEYS } = await importBundled({
  entry: 'src/server/seed/index.ts',
});
// The development node's secret (docs/decisions/046): NODE_DEV_SECRET from .dev.vars, else the example's default.
const devVars = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
const devNodeSecret = /^NODE_DEV_SECRET=(.+)$/m.exec(devVars)?.[1]?.trim() || DEFAULT_DEV_NODE_SECRET;
// NODE_SECRET_KEY from .dev.vars: the demo key is stored as its hash and the proxy password sealed under it.
const atRestKey = /^NODE_SECRET_KEY=([0-9a-fA-F]{64})\s*$/m.exec(devVars)?.[1]?.toLowerCase();
// --demo-pool: the documentation-range pool, for runs without a node (browser journeys, previews).
const demoPool = flag('demo-pool');
writeFileSync(
  '.tmp/seed.sql',
  await demoSeedSql(Date.now(), { demoPool, devNodeSecret, ...(atRestKey ? { atRestKey } : {}) }),
);
const config = arg('config');
const args = [
  'd1',
  'execute',
  'DB',
  '--local',
  '--file',
  '.tmp/seed.sql',
  ...(persist ? ['--persist-to', persist] : []),
  ...(config ? ['-c', config] : []),
];
const { code, err } = await run(bin('wrangler'), args, { capture: true });
if (code !== 0) {
  console.error(err);
  process.exit(code);
}
// The demo company applications' licence images (R2 is private: the console shows them to reviewers).
for (const key of DEMO_LICENCE_KEYS) {
  const put = await run(
    bin('wrangler'),
    [
      'r2',
      'object',
      'put',
      `proxy-portal-files/${key}`,
      '--local',
      '--file',
      'scripts/lib/demo-licence.png',
      '--content-type',
      'image/png',
      ...(persist ? ['--persist-to', persist] : []),
      ...(config ? ['-c', config] : []),
    ],
    { capture: true },
  );
  if (put.code !== 0) {
    console.error(put.err);
    process.exit(put.code);
  }
}
console.log('demo data loaded');
