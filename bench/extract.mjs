// Benchmark of the extraction API: GET /extract against a trivial Worker route (GET /builds/latest.json, same edge
// middleware, no storage) in the same workerd, in one run. Starts `wrangler dev` on the edge entry
// (src/edge/worker.ts, no build needed) on a free loopback port with its own --persist-to, loads demo data, fires
// bounded concurrent requests at 127.0.0.1 only, stops wrangler, and writes bench/results/extract.{json,md}.
// Usage: npm run bench -- extract   (BENCH_REQUESTS / BENCH_CONCURRENCY to change the load)
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXTRACT_PATH, load, startExtractServer, TRIVIAL_PATH } from './lib/extract-server.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 100;

// BENCH_PORT=<port> pins the port (inspector: port + 1000); otherwise two free loopback ports.
const server = await startExtractServer({ dir: resolve('.tmp/bench-extract'), port: Number(process.env.BENCH_PORT) });
const killer = setTimeout(() => {
  console.error('bench timed out');
  server.stop();
  process.exit(1);
}, 300_000);

try {
  const { extractUrl, trivialUrl } = server;
  await load(trivialUrl, WARMUP, CONCURRENCY);
  await load(extractUrl, WARMUP, CONCURRENCY);
  const { seconds: _t, ...trivial } = await load(trivialUrl, REQUESTS, CONCURRENCY);
  const { seconds: _e, ...extract } = await load(extractUrl, REQUESTS, CONCURRENCY);
  const result = {
    date: new Date().toISOString(),
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    extract: { url: EXTRACT_PATH, ...extract },
    trivial: { url: TRIVIAL_PATH, ...trivial },
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

Each extraction does 1 D1 round trip (decisions 171, 182): one batch with the key lookup and the rate-limit upsert,
the draw (the candidate seek and the random choice, writing only the drawn IPs as per-call scratch rows), the package
choice (white list and packages checked in it) and the conditional charge, then the log, 10 assignment rows and lease
notices written only under that charge; the white list and packages are read back only when nothing was charged.
`,
  );
  console.log(JSON.stringify(result, null, 2));
} catch (err) {
  console.error(String(err));
  process.exitCode = 1;
} finally {
  clearTimeout(killer);
  server.stop();
}
