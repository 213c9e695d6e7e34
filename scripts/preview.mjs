// A private preview for one developer: builds into .tmp/preview-<name>/dist, keeps its own local D1/KV/R2 state,
// and serves on its own port, so several people can look at their pages without touching dist/ or .wrangler/.
// Usage: node scripts/preview.mjs --name=alice --port=8791 [--no-build]
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { arg } from './lib/args.mjs';
import { bin, DEV_VARS, run, toolEnv } from './lib/tools.mjs';
import { wranglerConfigFor } from './lib/wrangler-config.mjs';

const name = arg('name', 'preview');
const port = arg('port', '8790');
const dir = resolve(`.tmp/preview-${name}`);
const distRel = `.tmp/preview-${name}/dist`; // waku resolves distDir against the project root
const dist = resolve(distRel);
const state = `${dir}/state`;
mkdirSync(dir, { recursive: true });
const env = toolEnv({ DIST_DIR: distRel });

if (!process.argv.includes('--no-build')) {
  const b = await run('npx', ['waku', 'build'], { env });
  if (b.code !== 0) process.exit(b.code);
  const p = await run(process.execPath, ['scripts/post-build.mjs'], { env });
  if (p.code !== 0) process.exit(p.code);
}
const config = wranglerConfigFor({ main: `${dist}/server/worker.js`, assets: `${dist}/public` });
const configPath = `${dir}/wrangler.toml`;
writeFileSync(configPath, config);
const migrate = await run(
  bin('wrangler'),
  ['d1', 'migrations', 'apply', 'DB', '--local', '-c', configPath, '--persist-to', state],
  { env },
);
if (migrate.code !== 0) process.exit(migrate.code);
await run(process.execPath, ['scripts/seed.mjs', '--demo-pool', `--persist-to=${state}`, `--config=${configPath}`], {
  env,
});
console.log(`preview "${name}" on http://127.0.0.1:${port}`);
await run(
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
    port,
    '--inspector-port',
    String(Number(port) + 1000),
    ...DEV_VARS,
  ],
  { env },
);
