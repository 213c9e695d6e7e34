// `npm run bench`: runs every benchmark in bench/*.mjs in turn; each writes its figures to bench/results/.
import { readdirSync } from 'node:fs';
import { run } from './lib/tools.mjs';

const only = process.argv[2];
const benches = readdirSync('bench')
  .filter((f) => f.endsWith('.mjs') && (!only || f.includes(only)))
  .sort();
if (benches.length === 0) {
  console.log('no benchmarks found in bench/');
  process.exit(0);
}
let failed = 0;
for (const file of benches) {
  console.log(`\n▶ bench/${file}`);
  const { code } = await run(process.execPath, [`bench/${file}`]);
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
