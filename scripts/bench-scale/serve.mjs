// bench:scale, serve: the project's wrangler.toml pointed at the source edge entry (scripts/lib/wrangler-config.mjs),
// the local database migrated and seeded, and one `wrangler dev` at a time on a bench port over a chosen state
// directory.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bin, DEV_VARS, run, toolEnv } from '../lib/tools.mjs';
import { wranglerConfigFor } from '../lib/wrangler-config.mjs';

export const env = toolEnv();

/** Writes `<dir>/wrangler.toml`: the source Worker entry, no assets, no cron triggers; returns its path. */
export function benchConfig(dir) {
  const config = wranglerConfigFor({ main: resolve('src/edge/worker.ts'), assets: null, triggers: false });
  const path = `${dir}/wrangler.toml`;
  // The source entry runs outside Waku's react-server build, where 'server-only' would throw: alias it to its empty
  // module, as the test and tool configs do.
  writeFileSync(path, `${config}\n[alias]\n"server-only" = "${resolve('node_modules/server-only/empty.js')}"\n`);
  return path;
}

/** Runs one setup command, printing ✓ with its seconds or ✘ with its output (and exiting). */
export async function step(label, cmd, args) {
  const t0 = performance.now();
  const r = await run(cmd, args, { env, capture: true });
  if (r.code !== 0) {
    console.error(`✘ ${label}\n${r.err || r.out}`);
    process.exit(1);
  }
  console.log(`✓ ${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** Applies the migrations to the local database under `root`. */
export const migrate = (label, configPath, root) =>
  step(label, bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '-c', configPath, '--persist-to', root]);

/** Migrates and seeds the demo data (with the demo pool) under `root`. */
export async function migrateAndSeed(configPath, root) {
  await migrate('migrate', configPath, root);
  await step('seed', process.execPath, [
    'scripts/seed.mjs',
    `--persist-to=${root}`,
    `--config=${configPath}`,
    '--demo-pool',
  ]);
}

/**
 * One wrangler dev on `port` at a time: start(root) waits until it answers, stop() ends its process group. `extra`:
 * more wrangler dev arguments (the archive phase's --test-scheduled, for the local scheduled endpoints).
 */
export function benchServer({ configPath, port, inspectorPort = port + 1000, extra = [] }) {
  const base = `http://127.0.0.1:${port}`;
  let wrangler = null;
  let log = '';
  const kill = () => {
    if (!wrangler) return;
    try {
      process.kill(-wrangler.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    wrangler = null;
  };
  process.on('exit', kill);
  return {
    base,
    kill,
    async start(root) {
      log = '';
      wrangler = spawn(
        bin('wrangler'),
        [
          'dev',
          '-c',
          configPath,
          '--persist-to',
          root,
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          String(inspectorPort),
          ...DEV_VARS,
          ...extra,
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      );
      wrangler.stdout.on('data', (d) => {
        log += d;
      });
      wrangler.stderr.on('data', (d) => {
        log += d;
      });
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
    },
    async stop() {
      const pid = wrangler?.pid;
      kill();
      for (let i = 0; i < 40 && pid; i++) {
        try {
          process.kill(-pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    },
  };
}
