// The extraction bench's server: `wrangler dev` on a source tree's edge entry (src/edge/worker.ts, no build needed)
// with its own --persist-to, the tree's migrations, the demo data and the bench's allowances, on free loopback ports;
// and the bounded concurrent load both extraction benches fire at it (bench/extract.mjs, scripts/bench-extract-ab.mjs).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sqliteFile } from '../../scripts/bench-scale/generate.mjs';
import { bin, DEV_NODE_SECRET_KEY, DEV_VARS, run, toolEnv } from '../../scripts/lib/tools.mjs';
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
 * extraction succeeds. `port` pins the port (inspector: port + 1000). `prepare(file)` changes the local D1 file (node:sqlite)
 * after the demo data and before wrangler dev opens it.
 */
export async function startExtractServer({ root = '.', dir, port: pinned, prepare } = {}) {
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
  if (prepare) prepare(sqliteFile(state));

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
  return {
    base,
    extractUrl,
    cpu,
    get log() {
      return log;
    },
    trivialUrl: `${base}${TRIVIAL_PATH}`,
    stop,
  };
}

/**
 * n requests with at most `concurrency` in flight: throughput, latency percentiles (ms), failed answers (non-200, or a refusal code). `url` may be a
 * list: in-flight slot i calls url[i % length] (several customers at once).
 */
export async function load(url, n, concurrency) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const urls = Array.isArray(url) ? url : [url];
  const worker = async (_, w) => {
    while (next < n) {
      next++;
      const t0 = performance.now();
      const res = await fetch(urls[w % urls.length]);
      // A refused extraction answers 200 with its code in the body (JSON format): a failure too.
      const head = (await res.text()).slice(0, 40);
      latencies.push(performance.now() - t0);
      if (res.status !== 200 || /"code":\s*[1-9]/.test(head)) failures++;
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

/** The extraction key as the Worker stores it (src/server/domain/credential-secrets.ts hashExtractKey, dev secret). */
function storedExtractKey(key) {
  const derived = createHmac('sha256', Buffer.from(DEV_NODE_SECRET_KEY, 'hex')).update('extract-key-hash-v1').digest();
  return `h1:${createHmac('sha256', derived).update(key).digest('hex')}`;
}

/**
 * `n` more customers like the demo one (same packages, white list and settings; phones 1390000xxxx), each with its own
 * extraction key; returns the keys. Writes straight into the local D1 file (use as `prepare`).
 */
export function addCustomers(file, n) {
  const db = new DatabaseSync(file);
  const cols = (t, skip) =>
    db
      .prepare(`PRAGMA table_info(${t})`)
      .all()
      .map((c) => c.name)
      .filter((c) => !skip.includes(c));
  const demo = db.prepare("SELECT id FROM users WHERE phone = '13800138000'").get().id;
  const keys = [];
  for (let i = 1; i <= n; i++) {
    const userCols = cols('users', ['id', 'phone']);
    const { lastInsertRowid: id } = db
      .prepare(`INSERT INTO users (phone, ${userCols}) SELECT ?, ${userCols} FROM users WHERE id = ?`)
      .run(`1390000${String(i).padStart(4, '0')}`, demo);
    const key = `bench${String(i).padStart(4, '0')}key00000000000000000000`.slice(0, 32);
    const credCols = cols('proxy_api_credentials', ['user_id', 'api_key', 'proxy_username']);
    db.prepare(
      `INSERT INTO proxy_api_credentials (user_id, api_key, proxy_username, ${credCols})
       SELECT ?, ?, proxy_username || ?, ${credCols} FROM proxy_api_credentials WHERE user_id = ?`,
    ).run(id, storedExtractKey(key), `b${i}`, demo);
    for (const t of ['white_list', 'proxy_packages']) {
      const c = cols(t, ['id', 'user_id']);
      db.prepare(`INSERT INTO ${t} (user_id, ${c}) SELECT ?, ${c} FROM ${t} WHERE user_id = ?`).run(id, demo);
    }
    keys.push(key);
  }
  db.close();
  return keys;
}

/** `n` more healthy short-lived pool IPs on the dev node (198.18.0.0/15, the benchmarking range), one city each. */
export function addPoolIps(file, n) {
  const db = new DatabaseSync(file);
  const now = Date.now();
  db.exec(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})
    INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key, carrier,
      expires_at, healthy, checked_at, created_at)
    SELECT 1, 10, '198.' || (18 + ((i >> 16) & 1)) || '.' || ((i >> 8) & 255) || '.' || (i & 255), 20000, 7,
      '北京市', '北京市', '北京', '北京', '电信', ${now + 6 * 3_600_000}, 1, ${now}, ${now} FROM s`);
  db.close();
}
