// Benchmark of the reference proxy node (node/) over HTTP CONNECT, side by side in one run with a direct connection
// and with squid (Debian package `squid`) as the anchor: throughput of 1 MB and 100 MB downloads (and a 100 MB upload),
// connection-setup latency p50/p99 (and what the proxy adds over direct), CPU time each proxy spends per 100 MB, and
// 500 concurrent tunnels. Loopback addresses only.
// The node runs as its own process against a small fake portal (the contract: one white-listed user leasing the
// exit); the target runs as its own process too; the same client code drives every path. Runs are interleaved
// round by round (the order rotates every round) so drift in the shared machine's load hits every path alike; figures
// are medians; every ratio is computed from this run alone. Writes bench/results/proxy-node.{json,md}.
// Usage: npm run bench -- proxy-node
//   env: BENCH_SETUP_SAMPLES, BENCH_1MB_RUNS, BENCH_100MB_RUNS (how many), BENCH_NODE_PORT (the exit's port, default
//   28100), BENCH_NODE_ARGS (extra flags for the node process, e.g. --cpu-prof), BENCH_NODE_MAIN (another copy of the
//   node's main.ts, e.g. an older version to compare)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { resolve } from 'node:path';
import { lease, startFakePortal, user } from '../node/test/helpers.ts';

const SETUP_SAMPLES = Number(process.env.BENCH_SETUP_SAMPLES ?? 1000);
const RUNS_1MB = Number(process.env.BENCH_1MB_RUNS ?? 200);
const RUNS_100MB = Number(process.env.BENCH_100MB_RUNS ?? 25);
const CONCURRENT = 500;
const EXIT = { host: '127.0.0.2', port: Number(process.env.BENCH_NODE_PORT ?? 28100) };
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const dir = resolve('.tmp/bench-proxy-node');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const children = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
};
process.on('exit', cleanup);
const loads = [];
const noteLoad = (phase) => loads.push({ phase, load1: Math.round(os.loadavg()[0] * 100) / 100 });
noteLoad('start');

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });

const waitPort = async (host, port, ms = 15000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const ok = await new Promise((r) => {
      const s = net.connect({ host, port }, () => {
        s.destroy();
        r(true);
      });
      s.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${host}:${port} did not open`);
};

// Target (own process): "N\n" from the client -> N bytes, then end; "uN\n" then N bytes -> "k", then end.
const targetPort = await freePort();
const targetCode = `
const net = require('node:net');
const chunk = Buffer.alloc(65536, 97);
net.createServer({ noDelay: true }, (s) => {
  s.on('error', () => {});
  let head = '';
  const onData = (d) => {
    head += d.toString('latin1');
    const i = head.indexOf('\\n');
    if (i < 0) return;
    s.off('data', onData);
    if (head[0] === 'u') {
      let left = Number(head.slice(1, i)) - (head.length - i - 1);
      const done = () => s.end('k');
      if (left <= 0) return done();
      s.on('data', (d) => {
        left -= d.length;
        if (left <= 0) done();
      });
      return;
    }
    let left = Number(head.slice(0, i));
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!s.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return s.once('drain', pump);
      }
      s.end();
    };
    pump();
  };
  s.on('data', onData);
}).listen(${targetPort}, '127.0.0.1');
`;
children.push(spawn(process.execPath, ['-e', targetCode], { stdio: 'inherit' }));
await waitPort('127.0.0.1', targetPort);

// The node (own process) and its fake portal.
const portal = await startFakePortal(1);
portal.users.set(
  1,
  user(1, { whiteList: [{ ip: '127.0.0.1', expiresAt: 0 }], limits: { maxConcurrent: 5000, newPerSecond: 100000 } }),
);
portal.leases.set('a1', lease('a1', EXIT.host, EXIT.port, 1, { expiresAt: Date.now() + 86_400_000 }));
writeFileSync(
  `${dir}/node.json`,
  JSON.stringify({
    portalUrl: portal.url,
    nodeId: 1,
    secret: 'test-node-secret-0123456789',
    stateDir: `${dir}/state`,
    logLevel: 'warn',
    exits: [{ ip: EXIT.host, port: EXIT.port, pool: 10, province: '广东省', city: '深圳市', carrier: '电信' }],
    egressAllow: [`127.0.0.1:${targetPort}`], // the local target (development-only setting, decision 193)
  }),
);
const nodeProc = spawn(
  process.execPath,
  [...NODE_ARGS, process.env.BENCH_NODE_MAIN ?? 'node/src/main.ts', '--config', `${dir}/node.json`],
  {
    stdio: 'inherit',
    env: { ...process.env, YUNSHU_NODE_DEV: '1' },
  },
);
children.push(nodeProc);
await waitPort(EXIT.host, EXIT.port);
await new Promise((r) => setTimeout(r, 500)); // first pull
EXIT.pid = nodeProc.pid;

/** CPU time (user + system, ms) a process has used so far; 0 when it cannot be read (not Linux). */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

// squid as the anchor: installed with apt-get when missing and we are root.
const squidBin = ['/usr/sbin/squid', '/usr/bin/squid'].find((p) => existsSync(p));
let squid = null;
if (!squidBin && process.getuid?.() === 0) {
  console.log('squid is missing: installing the Debian package squid');
  spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq squid'], {
    stdio: 'inherit',
  });
}
const squidPath = ['/usr/sbin/squid', '/usr/bin/squid'].find((p) => existsSync(p));
if (squidPath) {
  const port = await freePort();
  const sdir = `${dir}/squid`;
  mkdirSync(sdir, { recursive: true });
  spawnSync('chmod', ['777', sdir]);
  writeFileSync(
    `${sdir}/squid.conf`,
    [
      `http_port 127.0.0.1:${port}`,
      'http_access allow all',
      'acl SSL_ports port 1-65535',
      'acl CONNECT method CONNECT',
      'cache deny all',
      'cache_mem 8 MB',
      'access_log none',
      `cache_log ${sdir}/cache.log`,
      `pid_filename ${sdir}/squid.pid`,
      'coredump_dir none',
      'shutdown_lifetime 0 seconds',
      'max_filedescriptors 8192',
      'workers 1',
      '',
    ].join('\n'),
  );
  const proc = spawn(squidPath, ['-N', '-f', `${sdir}/squid.conf`], { stdio: 'ignore' });
  children.push(proc);
  try {
    await waitPort('127.0.0.1', port, 20000);
    squid = { host: '127.0.0.1', port, pid: proc.pid };
  } catch {
    console.error(`squid did not start (see ${sdir}/cache.log): running without the anchor`);
  }
}

/**
 * Opens a tunnel (or a direct connection) and asks the target for n bytes (or, with up, sends it n bytes); resolves
 * with timings. transferMs runs from the tunnel being up to the connection being closed.
 */
function transfer(via, n, up = false) {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect(via ? { host: via.host, port: via.port } : { host: '127.0.0.1', port: targetPort });
    s.setNoDelay(true);
    let established = !via;
    let head = '';
    let got = 0;
    const want = up ? 1 : n;
    let tEst = via ? 0n : null;
    let tFirst = 0n;
    const start = () => {
      tEst = process.hrtime.bigint();
      if (!up) return s.write(`${n}\n`);
      s.write(`u${n}\n`);
      let left = n;
      const pump = () => {
        while (left > 0) {
          const k = Math.min(left, upChunk.length);
          left -= k;
          if (!s.write(k === upChunk.length ? upChunk : upChunk.subarray(0, k))) return s.once('drain', pump);
        }
      };
      pump();
    };
    s.on('connect', () => {
      if (via) s.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\n\r\n`);
      else start();
    });
    s.on('data', (d) => {
      if (!established) {
        head += d.toString('latin1');
        const i = head.indexOf('\r\n\r\n');
        if (i < 0) return;
        if (!/^HTTP\/1\.[01] 200/.test(head)) {
          s.destroy();
          return fail(new Error(`tunnel refused: ${head.split('\r\n')[0]}`));
        }
        established = true;
        start();
        got += Buffer.byteLength(head.slice(i + 4), 'latin1');
      } else got += d.length;
      if (got > 0 && !tFirst) tFirst = process.hrtime.bigint();
      if (got >= want) s.end();
    });
    s.on('close', () => {
      const t1 = process.hrtime.bigint();
      if (got < want) return fail(new Error(`short transfer ${got}/${want}`));
      ok({ setupMs: Number(tFirst - t0) / 1e6, transferMs: Number(t1 - tEst) / 1e6, total: Number(t1 - t0) / 1e6 });
    });
    s.on('error', fail);
  });
}
const upChunk = Buffer.alloc(65536, 98);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const targets = [['direct', null], ['yunshu-node', EXIT], ...(squid ? [['squid', squid]] : [])];
const results = {};
for (const [name] of targets) results[name] = {};

/** The paths in round i's order: rotated every round, so no path always runs right after another. */
const rotated = (i) => targets.map((_, k) => targets[(i + k) % targets.length]);

// Connection setup: connect, tunnel, first byte of a 1-byte answer. Interleaved so drift hits all alike.
for (let i = 0; i < 50; i++) for (const [, via] of rotated(i)) await transfer(via, 1);
noteLoad('setup');
const setup = Object.fromEntries(targets.map(([n]) => [n, []]));
for (let i = 0; i < SETUP_SAMPLES; i++)
  for (const [name, via] of rotated(i)) setup[name].push((await transfer(via, 1)).setupMs);
for (const [name] of targets)
  Object.assign(results[name], {
    setupP50Ms: round(pct(setup[name], 50), 3),
    setupP99Ms: round(pct(setup[name], 99), 3),
  });

// Throughput: MB/s of the transfer once the tunnel is up (median of runs), and the CPU time the proxy process used
// per 100 MB moved (from /proc: independent of how busy the rest of the machine is). Warm-up rounds first.
const phases = [
  ['1MB', 1 << 20, RUNS_1MB, false],
  ['100MB', 100 << 20, RUNS_100MB, false],
  ['Up100MB', 100 << 20, RUNS_100MB, true],
];
const pairedRatios = {};
/** Every throughput sample (MB/s, in round order), kept in the JSON report. */
const samples = Object.fromEntries(targets.map(([n]) => [n, {}]));
for (const [label, size, runs, up] of phases) {
  for (let i = 0; i < (size > 1 << 20 ? 1 : 10); i++) for (const [, via] of rotated(i)) await transfer(via, size, up);
  noteLoad(label);
  const rates = Object.fromEntries(targets.map(([n]) => [n, []]));
  const cpu = Object.fromEntries(targets.map(([n]) => [n, 0]));
  for (let i = 0; i < runs; i++)
    for (const [name, via] of rotated(i)) {
      const c0 = via?.pid ? cpuMs(via.pid) : 0;
      const r = await transfer(via, size, up);
      if (via?.pid) cpu[name] += cpuMs(via.pid) - c0;
      rates[name].push(size / (1 << 20) / (r.transferMs / 1000));
    }
  for (const [name, via] of targets) {
    results[name][`throughput${label}MBps`] = round(pct(rates[name], 50), 1);
    samples[name][label] = rates[name].map((r) => round(r, 1));
    if (via?.pid) results[name][`cpuMsPer100MB${label}`] = round(cpu[name] / ((runs * size) / (100 << 20)), 0);
  }
  if (squid)
    pairedRatios[label] = round(
      pct(
        rates['yunshu-node'].map((r, i) => r / rates.squid[i]),
        50,
      ),
      2,
    );
}
noteLoad('throughput done');

// 500 tunnels at once, each held open until all are up, then each fetches 64 KiB.
async function concurrent(via) {
  const sockets = [];
  let errors = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from(
      { length: CONCURRENT },
      () =>
        new Promise((ok) => {
          const s = net.connect({ host: via.host, port: via.port });
          let head = '';
          let answered = false;
          s.on('connect', () => s.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`));
          const onData = (d) => {
            head += d;
            if (!head.includes('\r\n\r\n')) return;
            s.off('data', onData);
            answered = true;
            if (!head.startsWith('HTTP/1.1 200')) errors++;
            sockets.push(s);
            ok();
          };
          s.on('data', onData);
          // Closed or failed before the tunnel answered (e.g. shed by the proxy): an error, and no hang.
          const failed = () => {
            if (answered) return;
            answered = true;
            errors++;
            ok();
          };
          s.on('error', failed);
          s.on('close', failed);
        }),
    ),
  );
  const open = sockets.length;
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise((ok) => {
          let got = 0;
          s.on('data', (d) => {
            got += d.length;
          });
          s.on('close', () => {
            if (got < 65536) errors++;
            ok();
          });
          s.on('error', () => {});
          s.write('65536\n');
        }),
    ),
  );
  return { tunnels: CONCURRENT, open, errors, ms: Date.now() - t0 };
}
results['yunshu-node'].concurrent = await concurrent(EXIT);
if (squid) results.squid.concurrent = await concurrent(squid);

cleanup();
await portal.close();

const node = results['yunshu-node'];
const anchor = results.squid;
const addedP50 = round(node.setupP50Ms - results.direct.setupP50Ms, 3);
const addedP99 = round(node.setupP99Ms - results.direct.setupP99Ms, 3);
const ratioOf = (label) =>
  anchor ? round(node[`throughput${label}MBps`] / anchor[`throughput${label}MBps`], 2) : null;
const ratio1 = ratioOf('1MB');
const ratio100 = ratioOf('100MB');
const ratioUp = ratioOf('Up100MB');
const goals = {
  throughputVsSquid: {
    goal: '>= 0.8x squid (downloads of 1 MB and 100 MB through CONNECT)',
    ratio1MB: ratio1,
    ratio100MB: ratio100,
    met: anchor ? ratio1 >= 0.8 && ratio100 >= 0.8 : null,
  },
  uploadVsSquid: {
    goal: '>= 0.9x squid (100 MB uploads through CONNECT), downloads staying >= 1.0x (issue 27)',
    ratioUp100MB: ratioUp,
    ratio1MB: ratio1,
    ratio100MB: ratio100,
    met: anchor ? ratioUp >= 0.9 && ratio1 >= 1 && ratio100 >= 1 : null,
  },
  cpuVsSquid: {
    goal: "node CPU per 100 MB <= squid's, downloads and uploads (100 MB runs)",
    down: anchor ? [node.cpuMsPer100MB100MB, anchor.cpuMsPer100MB100MB] : null,
    up: anchor ? [node.cpuMsPer100MBUp100MB, anchor.cpuMsPer100MBUp100MB] : null,
    met: anchor
      ? node.cpuMsPer100MB100MB <= anchor.cpuMsPer100MB100MB && node.cpuMsPer100MBUp100MB <= anchor.cpuMsPer100MBUp100MB
      : null,
  },
  addedSetupP50: { goal: '<= 2 ms', ms: addedP50, met: addedP50 <= 2 },
  concurrent: {
    goal: `${CONCURRENT} tunnels without an error`,
    met: node.concurrent.errors === 0 && node.concurrent.open === CONCURRENT,
  },
};
noteLoad('end');
const loadRange = `${Math.min(...loads.map((l) => l.load1))}-${Math.max(...loads.map((l) => l.load1))}`;
const report = {
  at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load1: loads, node: process.version },
  samples: { setup: SETUP_SAMPLES, runs1MB: RUNS_1MB, runs100MB: RUNS_100MB },
  results,
  addedSetupMs: { p50: addedP50, p99: addedP99 },
  ratiosVsSquid: {
    ofMedians: { '1MB': ratio1, '100MB': ratio100, up100MB: ratioUp },
    medianOfRoundRatios: pairedRatios,
  },
  goals,
  throughputSamplesMBps: samples,
};
mkdirSync('bench/results', { recursive: true });
// Arrays of numbers (the samples) one per line.
const json = JSON.stringify(report, null, 2).replace(
  /\[\s+([\d.,\s-]+?)\s+\]/g,
  (_, inner) => `[${inner.replace(/\s+/g, ' ')}]`,
);
writeFileSync('bench/results/proxy-node.json', `${json}\n`);
const cell = (v) => (v === undefined ? '—' : v);
const row = (name) => {
  const r = results[name];
  return `| ${name} | ${r.setupP50Ms} | ${r.setupP99Ms} | ${r.throughput1MBMBps} | ${r.throughput100MBMBps} | ${r.throughputUp100MBMBps} | ${cell(r.cpuMsPer100MB100MB)} | ${cell(r.cpuMsPer100MBUp100MB)} | ${cell(r.cpuMsPer100MB1MB)} | ${r.concurrent ? `${r.concurrent.open}/${r.concurrent.tunnels} open, ${r.concurrent.errors} errors, ${r.concurrent.ms} ms` : '—'} |`;
};
const md = `# Proxy node benchmark (HTTP CONNECT, loopback)

Run ${report.at} on ${report.machine.cpus} CPU (${report.machine.model}), Node ${report.machine.node}.
Load average (1 min) during the run: ${loadRange} (${loads.map((l) => `${l.phase} ${l.load1}`).join(', ')}).
Client, target, node and squid each in their own process on one machine; the same client drives every path; runs are
interleaved round by round with the order rotating; figures are medians; every ratio comes from this run alone.
Setup = connect, tunnel established, first byte of the answer (${SETUP_SAMPLES} samples each).
Throughput = MB/s of the transfer once the tunnel is up (median of ${RUNS_1MB} runs for 1 MB, ${RUNS_100MB} for 100 MB), downloads
from the target unless marked "up". CPU = user + system time of the proxy process per 100 MB moved (from /proc), which
does not depend on how busy the rest of the machine is.

| path | setup p50 ms | setup p99 ms | 1 MB MB/s | 100 MB MB/s | 100 MB up MB/s | CPU ms / 100 MB (100 MB runs) | CPU ms / 100 MB (100 MB up) | CPU ms / 100 MB (1 MB runs, incl. setup) | ${CONCURRENT} concurrent tunnels |
|---|---|---|---|---|---|---|---|---|---|
${targets.map(([n]) => row(n)).join('\n')}

Added setup by the node over direct: p50 ${addedP50} ms, p99 ${addedP99} ms (goal p50 <= 2 ms: ${goals.addedSetupP50.met ? 'met' : 'NOT met'}).
Throughput vs squid: ${anchor ? `${ratio1}x (1 MB), ${ratio100}x (100 MB) (goal >= 0.8x: ${goals.throughputVsSquid.met ? 'met' : 'NOT met'}); upload 100 MB ${ratioUp}x (goal >= 0.9x with downloads >= 1.0x: ${goals.uploadVsSquid.met ? 'met' : 'NOT met'}); CPU per 100 MB node / squid: down ${node.cpuMsPer100MB100MB} / ${anchor.cpuMsPer100MB100MB}, up ${node.cpuMsPer100MBUp100MB} / ${anchor.cpuMsPer100MBUp100MB} (goal node <= squid: ${goals.cpuVsSquid.met ? 'met' : 'NOT met'}). Median of the per-round ratios: ${pairedRatios['1MB']}x (1 MB), ${pairedRatios['100MB']}x (100 MB), ${pairedRatios.Up100MB}x (100 MB up)` : 'squid not available in this run'}.
${CONCURRENT} concurrent tunnels through the node: ${goals.concurrent.met ? 'no error' : `${node.concurrent.errors} errors`}.

Re-run: \`npm run bench -- proxy-node\`. The machine is shared; the load figures above show how busy it was.
`;
writeFileSync('bench/results/proxy-node.md', md);
console.log(md);
process.exit(0);
