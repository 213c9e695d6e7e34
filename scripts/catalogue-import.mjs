// Import the catalogue and public content from the versioned files in src/server/seed into D1, with no customer rows:
//   npm run catalogue:import [-- --remote --env=production]   (local by default; --persist-to / --config as seed.mjs)
// Idempotent: run it again after changing the files.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bin, run } from './lib/tools.mjs';

const arg = (k) => process.argv.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
mkdirSync('.tmp', { recursive: true });
const bundle = '.tmp/catalogue-import.mjs';
await build({
  entryPoints: ['src/server/seed/catalogue-import.ts'],
  bundle: true,
  platform: 'node',
  // src/server modules import 'server-only', which resolves to an empty module under react-server.
  conditions: ['react-server'],
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
});
const { catalogueImportSql } = await import(pathToFileURL(`${process.cwd()}/${bundle}`).href);
rmSync(bundle);
const sqlFile = `.tmp/catalogue-${process.pid}.sql`;
writeFileSync(sqlFile, catalogueImportSql(Date.now()));
const env = arg('env');
const persist = arg('persist-to');
const config = arg('config');
const args = [
  'd1',
  'execute',
  'DB',
  process.argv.includes('--remote') ? '--remote' : '--local',
  ...(env ? ['--env', env] : []),
  ...(persist ? ['--persist-to', persist] : []),
  ...(config ? ['-c', config] : []),
  '--file',
  sqlFile,
];
const { code, out, err } = await run(bin('wrangler'), args, { capture: true });
rmSync(sqlFile);
if (code !== 0) {
  console.error(err || out);
  process.exit(code);
}
console.log('catalogue and public content imported');
