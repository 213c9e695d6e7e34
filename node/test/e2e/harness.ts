// The end-to-end suites' harness: the built portal under `wrangler dev` on a local state of its own (migrations and
// demo data), SQL on that state, and the node configuration for the local exits 127.0.0.2-127.0.0.9.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseConfig, readDotenv } from '../../src/config.ts';
import { sleep, until } from '../helpers.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');

const env = {
  ...process.env,
  PATH: `${resolve(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
  TMPDIR: resolve(ROOT, '.tmp'),
  XDG_CONFIG_HOME: resolve(ROOT, '.tmp/config'),
  XDG_CACHE_HOME: resolve(ROOT, '.tmp/cache'),
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};
const wranglerBin = resolve(ROOT, 'node_modules/.bin/wrangler');

function exec(cmd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((ok) => {
    const c = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.stderr.on('data', (d) => {
      err += d;
    });
    c.on('close', (code) => ok({ code: code ?? 1, out, err }));
  });
}

async function must(cmd: string, args: string[]): Promise<string> {
  const r = await exec(cmd, args);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.err}\n${r.out}`);
  return r.out;
}

export type Portal = {
  base: string;
  /** The portal's local state directory (D1, R2, KV). */
  state: string;
  /** Runs SQL on the portal's local D1 (the same files wrangler dev uses), retried while wrangler dev holds the lock. */
  d1<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /** Runs a file of SQL statements on the portal's local D1. */
  d1File(name: string, sql: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * A portal on `port` over a fresh state `.tmp/<name>-state-<port>`: the build made when missing, migrations applied,
 * demo data seeded (no demo pool). start() serves it with --test-scheduled (the jobs are fired through /__scheduled).
 */
export async function freshPortal(name: string, port: number): Promise<Portal> {
  const state = resolve(ROOT, `.tmp/${name}-state-${port}`);
  const base = `http://127.0.0.1:${port}`;
  if (!existsSync(resolve(ROOT, 'dist/server/worker.js'))) await must('npm', ['run', 'build', '--silent']);
  rmSync(state, { recursive: true, force: true });
  mkdirSync(resolve(ROOT, '.tmp/config'), { recursive: true });
  await must(wranglerBin, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
  await must(process.execPath, ['scripts/seed.mjs', `--persist-to=${state}`]);
  let child: ChildProcess | null = null;
  // Whatever happens to the test process, the wrangler group it started goes with it.
  process.on('exit', () => {
    if (child?.pid)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
  });
  return {
    base,
    state,
    async d1<T = Record<string, unknown>>(sql: string): Promise<T[]> {
      const args = ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--json', '--command', sql];
      for (let attempt = 1; ; attempt++) {
        const r = await exec(wranglerBin, args);
        if (r.code === 0) return (JSON.parse(r.out) as { results: T[] }[]).flatMap((p) => p.results);
        if (attempt >= 8 || !/SQLITE_BUSY|database is locked/.test(r.out + r.err))
          throw new Error(`d1 ${sql} failed:\n${r.err}\n${r.out}`);
        await sleep(500 * attempt);
      }
    },
    async d1File(file: string, sql: string): Promise<void> {
      const path = resolve(ROOT, `.tmp/${file}-${port}.sql`);
      writeFileSync(path, sql);
      await must(wranglerBin, ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--file', path]);
    },
    async start(): Promise<void> {
      const p = spawn(
        wranglerBin,
        [
          'dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          String(port + 1000),
          '--persist-to',
          state,
          '--test-scheduled',
          '--var',
          'APP_ENV:development',
          '--var',
          'API_ENVELOPE:any',
        ],
        { cwd: ROOT, env, stdio: 'ignore', detached: true },
      );
      child = p;
      await until(
        async () =>
          (await fetch(`${base}/builds/latest.json`).then(
            (r) => r.ok,
            () => false,
          )) || p.exitCode !== null,
        120_000,
        'the portal to answer',
      );
      assert.equal(p.exitCode, null, 'wrangler dev exited');
    },
    async stop(): Promise<void> {
      const p = child;
      child = null;
      if (!p?.pid) return;
      const group = -p.pid;
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(group, signal);
        } catch {
          // the group is gone
        }
      };
      const exited = p.exitCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r));
      kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      // wrangler leaves workerd and esbuild children behind on SIGTERM: end the whole group it started.
      kill('SIGKILL');
      await sleep(300);
    },
  };
}

/**
 * The reference node's configuration against `portal`: node 1 with the development secret, the local exits of
 * node/config.local.json on `exitPort`, the local target let through the egress policy (decision 193).
 */
export function localNodeConfig(
  portal: Portal,
  o: { name: string; exitPort: number; targetPort: number; extra?: Record<string, unknown> },
) {
  const stateDir = resolve(ROOT, `.tmp/${o.name}-node-${portal.base.split(':').at(-1)}`);
  rmSync(stateDir, { recursive: true, force: true });
  const devVars = resolve(ROOT, existsSync(resolve(ROOT, '.dev.vars')) ? '.dev.vars' : '.dev.vars.example');
  const secret =
    readDotenv(devVars, 'NODE_DEV_SECRET') ?? readDotenv(resolve(ROOT, '.dev.vars.example'), 'NODE_DEV_SECRET');
  const local = JSON.parse(readFileSync(resolve(ROOT, 'node/config.local.json'), 'utf8')) as {
    exits: Record<string, unknown>[];
  };
  return parseConfig(
    {
      portalUrl: portal.base,
      nodeId: 1,
      secret,
      stateDir,
      flushMs: 3_600_000, // cut by the tests
      pullMs: 300,
      logLevel: 'error',
      exits: local.exits.map((e) => ({ ...e, port: o.exitPort })),
      egressAllow: [`127.0.0.1:${o.targetPort}`],
      ...o.extra,
    },
    ROOT,
    { YUNSHU_NODE_DEV: '1' },
  );
}
