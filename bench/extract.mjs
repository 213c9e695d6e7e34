// Benchmark of the extraction API: GET /extract against a trivial Worker route (GET /builds/latest.json, same edge
// middleware, no storage) in the same workerd, in one run. Starts `wrangler dev` on the edge entry
// (src/edge/worker.ts, no build needed) on a free loopback port with its own --persist-to, loads demo data, fires
// bounded concurrent requests at 127.0.0.1 only, stops wrangler, and writes bench/results/extract.{json,md}.
// Usage: npm run bench -- extract   (BENCH_REQUESTS / BENCH_CONCURRENCY to change the load)
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { bin, DEV_VARS, run, toolEnv } from '../scripts/lib/tools.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 100;
const KEY = 'demo13800138000key0000000000abcd';
const dir = resolve('.tmp/bench-extract');
const state = `${dir}/state`;
const env = toolEnv();

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// The project's config with the source edge entry and no assets (the bench needs no pages).
const config = readFileSync('wrangler.toml', 'utf8')
  .replace('main = "dist/server/worker.js"', `main = "${resolve('src/edge/worker.ts')}"`)
  .replace(/\[assets\][\s\S]*?(?=\n\[\[d1_databases\]\])/, '')
  .replace('migrations_dir = "migrations"', `migrations_dir = "${resolve('migrations')}"`);
const configPath = `${dir}/wrangler.toml`;
// The source entry runs outside Waku's react-server build, where 'server-only' would throw: alias it to its empty
// module, as the test and tool configs do.
writeFileSync(configPath, `${config}\n[alias]\n"server-only" = "${resolve('node_modules/server-only/empty.js')}"\n`);

const step = async (label, cmd, args) => {
  const r = await run(cmd, args, { env, capture: true });
  if (r.code !== 0) {
    console.error(`✘ ${label}\n${r.err || r.out}`);
    process.exit(1);
  }
};
await step('migrate', bin('wrangler'), [
  'd1',
  'migrations',
  'apply',
  'DB',
  '--local',
  '-c',
  configPath,
  '--persist-to',
  state,
]);
await step('seed', process.execPath, [
  'scripts/seed.mjs',
  `--persist-to=${state}`,
  `--config=${configPath}`,
  '--demo-pool',
]);
// Enough quota and rate allowance that the bench measures the work of a call, not its refusal.
writeFileSync(
  `${dir}/bench.sql`,
  [
    'UPDATE proxy_api_credentials SET rate_limit = 1000000;',
    "UPDATE proxy_packages SET remaining_count = 100000000, total_count = 100000000, daily_limit = 0 WHERE source = 'demo';",
  ].join('\n'),
);
await step('bench data', bin('wrangler'), [
  'd1',
  'execute',
  'DB',
  '--local',
  '-c',
  configPath,
  '--persist-to',
  state,
  '--file',
  `${dir}/bench.sql`,
]);

// BENCH_PORT=<port> pins the port (inspector: port + 1000); otherwise two free loopback ports.
const port = Number(process.env.BENCH_PORT) || (await freePort());
const inspector = process.env.BENCH_PORT ? port + 1000 : await freePort();
const base = `http://127.0.0.1:${port}`;
const wrangler = spawn(
  bin('wrangler'),
  [
    'dev',
    '-c',
    configPath,
    '--persist-to',
    state,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    ...DEV_VARS,
  ],
  { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let log = '';
wrangler.stdout.on('data', (d) => {
  log += d;
});
wrangler.stderr.on('data', (d) => {
  log += d;
});
const stop = () => {
  try {
    process.kill(-wrangler.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);
const killer = setTimeout(() => {
  console.error('bench timed out');
  stop();
  process.exit(1);
}, 300_000);

async function waitReady() {
  for (let i = 0; i < 120; i++) {
    try {
      const r = await fetch(`${base}/builds/latest.json`);
      if (r.ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not start:\n${log.slice(-2000)}`);
}

/** n requests with at most `concurrency` in flight; latencies in ms. */
async function load(url, n, concurrency) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== 200) failures++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    requests: n,
    failures,
    rps: Math.round((n / seconds) * 10) / 10,
    p50: Math.round(pct(50) * 100) / 100,
    p99: Math.round(pct(99) * 100) / 100,
  };
}

try {
  await waitReady();
  const extractUrl = `${base}/extract?key=${KEY}&num=10&format=json&fields=region,ttl`;
  const probe = await fetch(extractUrl);
  const probeText = await probe.text();
  if (probe.status !== 200) throw new Error(`extraction probe failed: ${probe.status} ${probeText}`);
  await load(`${base}/builds/latest.json`, WARMUP, CONCURRENCY);
  await load(extractUrl, WARMUP, CONCURRENCY);
  const trivial = await load(`${base}/builds/latest.json`, REQUESTS, CONCURRENCY);
  const extract = await load(extractUrl, REQUESTS, CONCURRENCY);
  const result = {
    date: new Date().toISOString(),
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    extract: { url: '/extract?num=10&format=json&fields=region,ttl', ...extract },
    trivial: { url: '/builds/latest.json', ...trivial },
    throughputRatio: Math.round((extract.rps / trivial.rps) * 1000) / 1000,
    note: 'local wrangler dev (workerd + local SQLite D1) on loopback; relative figures, not production capacity',
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/extract.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    'bench/results/extract.md',
    `# Extraction API benchmark

${result.date} · ${REQUESTS} requests per route · ${CONCURRENCY} in flight · local wrangler dev on loopback

| route | req/s | p50 ms | p99 ms | non-200 |
|---|---|---|---|---|
| GET ${result.extract.url} | ${extract.rps} | ${extract.p50} | ${extract.p99} | ${extract.failures} |
| GET ${result.trivial.url} (trivial) | ${trivial.rps} | ${trivial.p50} | ${trivial.p99} | ${trivial.failures} |

Throughput ratio (extract / trivial): **${result.throughputRatio}**

Each extraction does 1 D1 round trip (decision 171): one batch with the key lookup and the rate-limit upsert, the
white-list check, the packages, the candidate seeks into per-call scratch rows, the random draw, the package choice
and the conditional charge, then the log, 10 assignment rows and lease notices written only under that charge.
`,
  );
  console.log(JSON.stringify(result, null, 2));
} catch (err) {
  console.error(String(err));
  process.exitCode = 1;
} finally {
  clearTimeout(killer);
  stop();
}
