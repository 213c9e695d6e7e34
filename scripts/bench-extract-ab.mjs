// Interleaved A/B of the extraction bench (docs/decisions/171, 182): the same routes as bench/extract.mjs against two
// source trees at once, a git revision (default main) and this working tree, each in its own `wrangler dev`. The
// routes run in short alternating segments (A trivial, A extract, B trivial, B extract, then B first next round), so
// both trees see the same drifting load of a shared machine; each tree's ratio is its extraction throughput over its
// trivial route's, summed over all segments; beside it, the CPU time the server's processes (wrangler, workerd) spend
// per call of each route, a figure that drifts less with the load. Nothing is written to bench/results.
// Usage: node scripts/bench-extract-ab.mjs [--base=main] [--rounds=6] [--segment=200] [--concurrency=16]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { load, startExtractServer } from '../bench/lib/extract-server.mjs';
import { arg } from './lib/args.mjs';

const base = arg('base', 'main');
const rounds = Number(arg('rounds', 6));
const segment = Number(arg('segment', 200));
const concurrency = Number(arg('concurrency', 16));
const dir = resolve('.tmp/bench-extract-ab');

// The base revision's tree, exported under .tmp (node_modules resolve from this project's).
rmSync(dir, { recursive: true, force: true });
mkdirSync(`${dir}/a-src`, { recursive: true });
execFileSync('sh', [
  '-c',
  `git archive ${JSON.stringify(base)} src node/src migrations wrangler.toml | tar -x -C ${dir}/a-src`,
]);
const rev = (r) => execFileSync('git', ['rev-parse', '--short', r]).toString().trim();
const dirty = execFileSync('git', ['status', '--porcelain', 'src', 'migrations']).toString().trim() !== '';
const trees = [
  { name: `A ${base} (${rev(base)})`, root: `${dir}/a-src` },
  { name: `B working tree (${rev('HEAD')}${dirty ? '+changes' : ''})`, root: '.' },
];
const servers = [];
try {
  for (const [i, t] of trees.entries()) {
    servers.push(await startExtractServer({ root: t.root, dir: `${dir}/state-${i}` }));
  }
  const totals = trees.map(() => ({ trivial: 0, extract: 0, cpuTrivial: 0, cpuExtract: 0, failures: 0, ratios: [] }));
  for (const s of servers) {
    await load(s.trivialUrl, 100, concurrency);
    await load(s.extractUrl, 100, concurrency);
  }
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const s = servers[i];
      const c0 = s.cpu();
      const trivial = await load(s.trivialUrl, segment, concurrency);
      const c1 = s.cpu();
      const extract = await load(s.extractUrl, segment, concurrency);
      totals[i].cpuTrivial += c1 - c0;
      totals[i].cpuExtract += s.cpu() - c1;
      totals[i].trivial += trivial.seconds;
      totals[i].extract += extract.seconds;
      totals[i].failures += trivial.failures + extract.failures;
      totals[i].ratios.push(Math.round((trivial.seconds / extract.seconds) * 1000) / 1000);
    }
  }
  const load1 = execFileSync('uptime').toString().trim();
  for (const [i, t] of trees.entries()) {
    const x = totals[i];
    const ratio = Math.round((x.trivial / x.extract) * 1000) / 1000;
    const ms = (sec) => Math.round((sec / (rounds * segment)) * 1e5) / 100;
    console.log(
      `${t.name}: ratio ${ratio} (trivial ${Math.round((rounds * segment) / x.trivial)} req/s, extract ` +
        `${Math.round((rounds * segment) / x.extract)} req/s, non-200 ${x.failures}); per round ${x.ratios.join(' ')}; ` +
        `server CPU per call: trivial ${ms(x.cpuTrivial)} ms, extract ${ms(x.cpuExtract)} ms, ratio ` +
        `${Math.round((x.cpuTrivial / x.cpuExtract) * 1000) / 1000}`,
    );
  }
  console.log(load1);
} catch (err) {
  console.error(String(err));
  process.exitCode = 1;
} finally {
  for (const s of servers) s.stop();
}
