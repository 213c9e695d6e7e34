// `npm run bench:scale`: extraction and hot /api reads on the demo database and on a generated large one, each beside
// the trivial route /builds/latest.json in the same wrangler dev, in one run (docs/decisions/081). A benchmark, not a
// test: `npm test` does not run it. The steps live in scripts/bench-scale/: generate (the databases), serve (wrangler
// dev), measure (the routes in rounds), report (bench/results/scale.{md,json}).
//
// Steps: migrate + seed demo data into .tmp/bench-scale/state; bench (phase "demo"); stop wrangler; add generated rows
// straight into the local D1 SQLite file; bench again (phase "scale"); write the report. Loopback only, bounded in
// requests and time.
//
// Then the archive phase (scripts/bench-scale/archive.mjs, bench/results/archive.{md,json}): 1,000 customers and one
// heavy customer at the 10 calls/s cap for a sampled day through the real /extract, customer and node objects and
// node usage reports, then the real hourly archive job nine days later: D1 before/with/after, the largest object's
// size, archive bytes per lease, the trace's p50 over 30 days of archive and on the day's object-archived leases.
// --archive-only runs just it, --no-archive skips it; its sizes: [--customers=1000] [--heavy-sample=1000]
// [--customer-sample=50] [--days=30] [--traces=60] [--day-traces=30] [--archive-concurrency=4].
//
// Usage: npm run bench:scale -- [--ips=50000] [--users=100000] [--logs=500000] [--assignments=<logs>]
//          [--heavy-ips=20000] [--requests=400] [--rounds=3] [--concurrency=8] [--port=8823] [--build-only] [--reuse]
//          [--routes=<regex>] [--inspector-port=<port + 1000>]
//        the scale: --ips=200000 --users=1000000 --logs=5000000
// The large database is kept in .tmp/bench-scale/large: --build-only builds it and stops; --reuse benches an existing
// one built with the same sizes (new migrations applied, pool expiries, the heavy customer's day and the bench
// session moved to now) instead of generating it again.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { archivePhase } from './bench-scale/archive.mjs';
import { clock, generate, keptLarge, prepareDemo, refresh } from './bench-scale/generate.mjs';
import { phase, routes } from './bench-scale/measure.mjs';
import { writeArchiveReport, writeReport } from './bench-scale/report.mjs';
import { benchConfig, benchServer, migrate, migrateAndSeed } from './bench-scale/serve.mjs';
import { arg, flag } from './lib/args.mjs';

const num = (name, fallback) => Number(arg(name, fallback));
const logs = num('logs', 500_000);
const args = {
  ips: num('ips', 50_000),
  users: num('users', 100_000),
  logs,
  assignments: num('assignments', logs),
  heavyIps: num('heavy-ips', 20_000),
};
const run = {
  args,
  requests: num('requests', 400),
  rounds: num('rounds', 3),
  concurrency: num('concurrency', 8),
  reuse: flag('reuse'),
};
const buildOnly = flag('build-only');
const archiveOnly = flag('archive-only');
const archive = {
  customers: num('customers', 1000),
  heavySample: num('heavy-sample', 1000),
  customerSample: num('customer-sample', 50),
  days: num('days', 30),
  traces: num('traces', 60),
  dayTraces: num('day-traces', 30),
  concurrency: num('archive-concurrency', 4),
};
const port = num('port', 8823);
/** wrangler dev's inspector port (default: --port + 1000); --inspector-port keeps a run inside a given port range. */
const inspectorPort = num('inspector-port', port + 1000);
const dir = resolve('.tmp/bench-scale');
const state = `${dir}/state`;
const large = `${dir}/large`;

rmSync(state, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const configPath = benchConfig(dir);
await migrateAndSeed(configPath, state);
const time = clock();
prepareDemo(state, time);

const server = benchServer({ configPath, port, inspectorPort });
/** --routes=<regular expression>: bench only the routes whose names match (the trivial route always runs). */
const measured = { ...run, server, routes: routes(server.base, arg('routes')) };
const killer = setTimeout(() => {
  console.error('bench timed out');
  server.kill();
  process.exit(1);
}, 3_600_000);

/** The archive phase on its own wrangler dev (with --test-scheduled, so the job can be fired). */
async function runArchive() {
  console.log('▶ archive');
  const scheduled = benchServer({ configPath, port, inspectorPort, extra: ['--test-scheduled'] });
  const a = await archivePhase({ dir, demoState: state, server: scheduled, now: time.now, ...archive });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, local wrangler dev`;
  console.log(writeArchiveReport({ date: new Date().toISOString(), machine, ...a }));
}

try {
  if (archiveOnly) {
    await runArchive();
    process.exit(0);
  }
  let demo = [];
  if (!buildOnly) {
    console.log('▶ demo database');
    demo = await phase('demo', state, measured);
  }
  let built = run.reuse ? keptLarge(large, args) : null;
  if (built) {
    console.log(`▶ reusing the large database built ${built.date}`);
    await migrate('migrate large', configPath, large);
    refresh(large, built, time);
  } else {
    console.log('▶ generating the large database');
    rmSync(large, { recursive: true, force: true });
    cpSync(state, large, { recursive: true });
    built = { ...generate(large, args, time), args, today: time.today, date: new Date().toISOString() };
    writeFileSync(`${large}/built.json`, `${JSON.stringify(built, null, 2)}\n`);
    console.log(`  built in ${built.seconds} s: ${JSON.stringify(built.sizes)}`);
  }
  if (buildOnly) process.exit(0);
  console.log('▶ large database');
  const scale = await phase('scale', large, measured);
  console.log(writeReport(demo, scale, { ...run, built }));
  if (!flag('no-archive')) await runArchive();
} catch (err) {
  console.error(String(err?.stack ?? err));
  process.exitCode = 1;
} finally {
  clearTimeout(killer);
  server.kill();
}
