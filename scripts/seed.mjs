// Loads the demo data into the local D1 database (idempotent): bundles src/server/seed, renders SQL, applies it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bin, run } from './lib/tools.mjs';

const persist = process.argv.find((a) => a.startsWith('--persist-to='))?.split('=')[1];
mkdirSync('.tmp', { recursive: true });
const bundle = '.tmp/seed-bundle.mjs';
await build({
  entryPoints: ['src/server/seed/index.ts'],
  bundle: true,
  platform: 'node',
  // src/server modules import 'server-only', which resolves to an empty module under react-server.
  conditions: ['react-server'],
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
});
const { demoSeedSql, DEFAULT_DEV_NODE_SECRET, DEMO_LICENCE_KEYS } = await import(
  pathToFileURL(`${process.cwd()}/${bundle}`).href
);
// The development node's secret (docs/decisions/046): NODE_DEV_SECRET from .dev.vars, else the example's default.
const devVars = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
const devNodeSecret = /^NODE_DEV_SECRET=(.+)$/m.exec(devVars)?.[1]?.trim() || DEFAULT_DEV_NODE_SECRET;
// NODE_SECRET_KEY from .dev.vars: the demo key is stored as its hash and the proxy password sealed under it.
const atRestKey = /^NODE_SECRET_KEY=([0-9a-fA-F]{64})\s*$/m.exec(devVars)?.[1]?.toLowerCase();
// --demo-pool: the documentation-range pool, for runs without a node (browser journeys, previews).
const demoPool = process.argv.includes('--demo-pool');
writeFileSync(
  '.tmp/seed.sql',
  await demoSeedSql(Date.now(), { demoPool, devNodeSecret, ...(atRestKey ? { atRestKey } : {}) }),
);
rmSync(bundle);
const config = process.argv.find((a) => a.startsWith('--config='))?.split('=')[1];
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
