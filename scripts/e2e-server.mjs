// The server the browser journeys run against: the built Worker under wrangler dev with a fresh local state
// (migrations and demo data applied), on its own port. Builds first if dist/ is missing.
import { existsSync, rmSync } from 'node:fs';
import { bin, DEV_VARS, run, toolEnv } from './lib/tools.mjs';

const port = process.argv.find((a) => a.startsWith('--port='))?.split('=')[1] ?? '8788';
const state = `.tmp/e2e-state-${port}`;
const env = toolEnv();
const must = async (cmd, args) => {
  const { code, err } = await run(cmd, args, { env, capture: true });
  if (code !== 0) {
    console.error(err);
    process.exit(code);
  }
};
if (!existsSync('dist/server/worker.js')) await must('npm', ['run', 'build', '--silent']);
rmSync(state, { recursive: true, force: true });
await must(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
await must(process.execPath, ['scripts/seed.mjs', '--demo-pool', `--persist-to=${state}`]);
await run(
  bin('wrangler'),
  [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--inspector-port',
    String(Number(port) + 1000),
    '--persist-to',
    state,
    ...DEV_VARS,
  ],
  { env },
);
