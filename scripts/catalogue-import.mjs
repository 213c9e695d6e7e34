// Import the catalogue and public content from the versioned files in src/server/seed into D1, with no customer rows:
//   npm run catalogue:import [-- --remote --env=production]   (local by default; --persist-to / --config as seed.mjs)
// Idempotent: run it again after changing the files.
import { rmSync, writeFileSync } from 'node:fs';
import { arg, flag } from './lib/args.mjs';
import { importBundled } from './lib/bundle.mjs';
import { bin, run } from './lib/tools.mjs';

const { catalogueImportSql } = await importBundled({ entry: 'src/server/seed/catalogue-import.ts' });
const sqlFile = `.tmp/catalogue-${process.pid}.sql`;
writeFileSync(sqlFile, catalogueImportSql(Date.now()));
const env = arg('env');
const persist = arg('persist-to');
const config = arg('config');
const args = [
  'd1',
  'execute',
  'DB',
  flag('remote') ? '--remote' : '--local',
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
