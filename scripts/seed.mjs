// Loads the demo data into the local D1 database (idempotent): bundles src/server/seed, renders SQL, applies it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
});
const { demoSeedSql } = await import(pathToFileURL(`${process.cwd()}/${bundle}`).href);
writeFileSync('.tmp/seed.sql', await demoSeedSql());
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
console.log('demo data loaded');
