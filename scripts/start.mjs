// `npm start`: build, apply local D1 migrations, load demo data and serve the portal on http://127.0.0.1:8787.
import { copyFileSync, existsSync } from 'node:fs';
import { bin, DEV_VARS, run } from './lib/tools.mjs';

const port = process.env.PORT ?? '8787';
const step = async (label, cmd, args) => {
  console.log(`\n▶ ${label}`);
  const { code } = await run(cmd, args);
  if (code !== 0) {
    console.error(`✘ ${label} failed (exit ${code})`);
    process.exit(code);
  }
};

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars');
  console.log('created .dev.vars from .dev.vars.example');
}
await step('build', 'npm', ['run', 'build', '--silent']);
await step('apply local D1 migrations', bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local']);
await step('load demo data', process.execPath, ['scripts/seed.mjs']);
console.log(`
  云枢代理 portal: http://127.0.0.1:${port}
  Demo logins (password): 13800138000 / demo1234 (verified) · 13900139000 / demo1234 (new)
  SMS codes in development: http://127.0.0.1:${port}/dev/sms-outbox
`);
await step('serve', bin('wrangler'), [
  'dev',
  '--ip',
  '127.0.0.1',
  '--port',
  port,
  '--inspector-port',
  '9230',
  ...DEV_VARS,
]);
