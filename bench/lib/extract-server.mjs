// The extraction bench's server: `wrangler dev` on a source tree's edge entry (src/edge/worker.ts, no build needed)
// with its own --persist-to, the tree's migrations, the demo data and the bench's allowances, on free loopback ports;
// and the bounded concurrent load both extraction benches fire at it (bench/extract.mjs, scripts/bench-extract-ab.mjs).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { bin, DEV_VARS, run, toolEnv } from '../../scripts/lib/tools.mjs';
import { wranglerConfigFor } from '../../scripts/lib/wrangler-config.mjs';

export const KEY = 'demo13800138000key0000000000abcd';
export const EXTRACT_PATH = '/extract?num=10&format=json&fields=region,ttl';
export const TRIVIAL_PATH = '/builds/latest.json';

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });

/**
 * Start `wrangler dev` on the tree at `root` (its src/edge/worker.ts and migrations; node_modules of this project)
 * with state under `dir`. Resolves with the base URL and a stop function once the trivial route answers and a probe
 * extraction succeeds. `port` pins the port (inspector: port + 1000).
 */
export async function startExtractServer({ root = '.', dir, port: pinned } = {}) {
  const env = toolEnv();
  const state = `${dir}/state`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The tree's config with the source edge entry and no assets (the bench needs no pages).
  const config = wranglerConfigFor({ root, main: resolve(root, 'src/edge/worker.ts') });
  const configPath = `${dir}/wrangler.toml`;
  // The source entry runs outside Waku's react-server build, where 'server-only' would throw: alias it to its empty
  // module, as the test and tool configs do.
  writeFileSync(configPath, `${config}\n[alias]\n"server-only" = "${resolve('node_modules/server-only/empty.js')}"\n`);
  const step = async (label, cmd, args) => {
    const r = await run(cmd, args, { env, capture: true });
    if (r.code !== 0) throw new Error(`${label} failed\n${r.err || r.out}`);
  };
  const d1 = ['d1', 'migrations', 'apply', 'DB', '--local', '-c', configPath, '--persist-to', state];
  await step('migrate', bin('wrangler'), d1);
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
  const exec = ['d1', 'execute', 'DB', '--local', '-c', configPath, '--persist-to', state, '--file'];
  await step('bench data', bin('wrangler'), [...exec, `${dir}/bench.sql`]);

  const port = pinned || (await freePort());
  const inspector = pinned ? port + 1000 : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const wrangler = spawn(
    bin('wrangler'),
    ['dev', '-c', configPath, '--persist-to', state, '--ip', '127.0.0.1', '--port', String(port)].concat([
      '--inspector-port',
      String(inspector),
      ...DEV_VARS,
    ]),
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
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}${TRIVIAL_PATH}`);
      if (r.ok) break;
    } catch {
      // not yet listening
    }
    if (i === 120) {
      stop();
      throw new Error(`wrangler dev did not start:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const extractUrl = `${base}/extract?key=${KEY}&${EXTRACT_PATH.split('?')[1]}`;
  const probe = await fetch(extractUrl);
  const probeText = await probe.text();
  if (probe.status !== 200) {
    stop();
    throw new Error(`extraction probe failed: ${probe.status} ${probeText}`);
  }
  /** CPU seconds (user + system) used so far by the server's processes (wrangler and its workerd). */
  const cpu = () => processGroupCpu(wrangler.pid);
  return { base, extractUrl, cpu, trivialUrl: `${base}${TRIVIAL_PATH}`, stop };
}

/** n requests with at most `concurrency` in flight: throughput, latency percentiles (ms), non-200 answers. */
export async function load(url, n, concurrency) {
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
    seconds,
    rps: Math.round((n / seconds) * 10) / 10,
    p50: Math.round(pct(50) * 100) / 100,
    p99: Math.round(pct(99) * 100) / 100,
  };
}

/** CPU seconds used by the live processes of a process group (Linux /proc; 0 elsewhere). */
function processGroupCpu(pgid) {
  let ticks = 0;
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): state ppid pgrp ... utime(14) stime(15).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100;
}
