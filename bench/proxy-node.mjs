// Benchmark of the reference proxy node (node/) over HTTP CONNECT, side by side in one run with a direct connection
// and with squid (Debian package `squid`) as the anchor: throughput of 1 MB and 100 MB transfers, connection-setup
// latency p50/p99 (and what the proxy adds over direct), and 500 concurrent tunnels. Loopback addresses only.
// The node runs as its own process against a small fake portal (the contract: one white-listed user leasing the
// exit); the target runs as its own process too. Writes bench/results/proxy-node.{json,md}.
// Usage: npm run bench -- proxy-node   (BENCH_SETUP_SAMPLES, BENCH_1MB_RUNS, BENCH_100MB_RUNS to change the load)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { resolve } from 'node:path';
import { lease, startFakePortal, user } from '../node/test/helpers.ts';

const SETUP_SAMPLES = Number(process.env.BENCH_SETUP_SAMPLES ?? 1000);
const RUNS_1MB = Number(process.env.BENCH_1MB_RUNS ?? 100);
const RUNS_100MB = Number(process.env.BENCH_100MB_RUNS ?? 10);
const CONCURRENT = 500;
const EXIT = { host: '127.0.0.2', port: 28100 };
const dir = resolve('.tmp/bench-proxy-node');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const children = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
};
process.on('exit', cleanup);

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

// Target (own process): "N\n" from the client -> N bytes, then end.
const targetPort = await freePort();
const targetCode = `
const net = require('node:net');
const chunk = Buffer.alloc(65536, 97);
net.createServer({ noDelay: true }, (s) => {
  s.on('error', () => {});
  let head = '';
  const onData = (d) => {
    head += d;
    const i = head.indexOf('\\n');
    if (i < 0) return;
    s.off('data', onData);
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
  }),
);
const nodeProc = spawn(process.execPath, ['node/src/main.ts', '--config', `${dir}/node.json`], { stdio: 'inherit' });
children.push(nodeProc);
await waitPort(EXIT.host, EXIT.port);
await new Promise((r) => setTimeout(r, 500)); // first pull

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
    squid = { host: '127.0.0.1', port };
  } catch {
    console.error(`squid did not start (see ${sdir}/cache.log): running without the anchor`);
  }
}

/** Opens a tunnel (or a direct connection) and asks the target for n bytes; resolves with timings. */
function transfer(via, n) {
  return new Promise((ok, fail) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect(via ? { host: via.host, port: via.port } : { host: '127.0.0.1', port: targetPort });
    s.setNoDelay(true);
    let established = !via;
    let head = '';
    let got = 0;
    let tEst = via ? 0n : null;
    let tFirst = 0n;
    s.on('connect', () => {
      if (via) s.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\n\r\n`);
      else {
        tEst = process.hrtime.bigint();
        s.write(`${n}\n`);
      }
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
        tEst = process.hrtime.bigint();
        s.write(`${n}\n`);
        got += Buffer.byteLength(head.slice(i + 4), 'latin1');
      } else got += d.length;
      if (got > 0 && !tFirst) tFirst = process.hrtime.bigint();
      if (got >= n) s.end();
    });
    s.on('close', () => {
      const t1 = process.hrtime.bigint();
      if (got < n) return fail(new Error(`short transfer ${got}/${n}`));
      ok({ setupMs: Number(tFirst - t0) / 1e6, transferMs: Number(t1 - tEst) / 1e6, total: Number(t1 - t0) / 1e6 });
    });
    s.on('error', fail);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const targets = [['direct', null], ['yunshu-node', EXIT], ...(squid ? [['squid', squid]] : [])];
const results = {};
for (const [name] of targets) results[name] = {};

// Connection setup: connect, tunnel, first byte of a 1-byte answer. Interleaved so drift hits all alike.
for (let i = 0; i < 50; i++) for (const [, via] of targets) await transfer(via, 1);
const setup = Object.fromEntries(targets.map(([n]) => [n, []]));
for (let i = 0; i < SETUP_SAMPLES; i++)
  for (const [name, via] of targets) setup[name].push((await transfer(via, 1)).setupMs);
for (const [name] of targets)
  Object.assign(results[name], {
    setupP50Ms: round(pct(setup[name], 50), 3),
    setupP99Ms: round(pct(setup[name], 99), 3),
  });

// Throughput: MB/s of the transfer once the tunnel is up (median of runs).
for (const [label, size, runs] of [
  ['1MB', 1 << 20, RUNS_1MB],
  ['100MB', 100 << 20, RUNS_100MB],
]) {
  const rates = Object.fromEntries(targets.map(([n]) => [n, []]));
  for (let i = 0; i < runs; i++)
    for (const [name, via] of targets) {
      const r = await transfer(via, size);
      rates[name].push(size / (1 << 20) / (r.transferMs / 1000));
    }
  for (const [name] of targets) results[name][`throughput${label}MBps`] = round(pct(rates[name], 50), 1);
}

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
          s.on('connect', () => s.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`));
          const onData = (d) => {
            head += d;
            if (!head.includes('\r\n\r\n')) return;
            s.off('data', onData);
            if (!head.startsWith('HTTP/1.1 200')) errors++;
            sockets.push(s);
            ok();
          };
          s.on('data', onData);
          s.on('error', () => {
            errors++;
            ok();
          });
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
const ratio1 = anchor ? round(node.throughput1MBMBps / anchor.throughput1MBMBps, 2) : null;
const ratio100 = anchor ? round(node.throughput100MBMBps / anchor.throughput100MBMBps, 2) : null;
const goals = {
  throughputVsSquid: {
    goal: '>= 0.8x squid',
    ratio1MB: ratio1,
    ratio100MB: ratio100,
    met: anchor ? ratio1 >= 0.8 && ratio100 >= 0.8 : null,
  },
  addedSetupP50: { goal: '<= 2 ms', ms: addedP50, met: addedP50 <= 2 },
  concurrent: {
    goal: `${CONCURRENT} tunnels without an error`,
    met: node.concurrent.errors === 0 && node.concurrent.open === CONCURRENT,
  },
};
const report = {
  at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load1: os.loadavg()[0], node: process.version },
  samples: { setup: SETUP_SAMPLES, runs1MB: RUNS_1MB, runs100MB: RUNS_100MB },
  results,
  addedSetupMs: { p50: addedP50, p99: addedP99 },
  goals,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/proxy-node.json', `${JSON.stringify(report, null, 2)}\n`);
const row = (name) => {
  const r = results[name];
  return `| ${name} | ${r.setupP50Ms} | ${r.setupP99Ms} | ${r.throughput1MBMBps} | ${r.throughput100MBMBps} | ${r.concurrent ? `${r.concurrent.open}/${r.concurrent.tunnels} open, ${r.concurrent.errors} errors, ${r.concurrent.ms} ms` : '—'} |`;
};
const md = `# Proxy node benchmark (HTTP CONNECT, loopback)

Run ${report.at} on ${report.machine.cpus} CPU (${report.machine.model}), load ${round(report.machine.load1, 2)}, Node ${report.machine.node}.
Client, target, node and squid each in their own process on one machine; figures are medians unless marked.
Setup = connect, tunnel established, first byte of the answer (${SETUP_SAMPLES} samples each, interleaved).
Throughput = MB/s of the transfer once the tunnel is up (median of ${RUNS_1MB} runs for 1 MB, ${RUNS_100MB} for 100 MB).

| path | setup p50 ms | setup p99 ms | 1 MB MB/s | 100 MB MB/s | ${CONCURRENT} concurrent tunnels |
|---|---|---|---|---|---|
${targets.map(([n]) => row(n)).join('\n')}

Added setup by the node over direct: p50 ${addedP50} ms, p99 ${addedP99} ms (goal p50 <= 2 ms: ${goals.addedSetupP50.met ? 'met' : 'NOT met'}).
Throughput vs squid: ${anchor ? `${ratio1}x (1 MB), ${ratio100}x (100 MB) (goal >= 0.8x: ${goals.throughputVsSquid.met ? 'met' : 'NOT met'})` : 'squid not available in this run'}.
${CONCURRENT} concurrent tunnels through the node: ${goals.concurrent.met ? 'no error' : `${node.concurrent.errors} errors`}.

Re-run: \`npm run bench -- proxy-node\`. The machine is shared; a loaded run shows in the load figure above.
`;
writeFileSync('bench/results/proxy-node.md', md);
console.log(md);
process.exit(0);
