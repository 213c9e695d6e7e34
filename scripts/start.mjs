// `npm start`: build, apply local D1 migrations, load demo data, serve the portal on http://127.0.0.1:8787 and run
// the local proxy node (node/config.local.json: exits 127.0.0.2-127.0.0.9 on port 18000, registered through the
// portal's /node/v2 API with NODE_DEV_SECRET from .dev.vars; docs/decisions/046 and 071).
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { startLocalCron } from './lib/local-cron.mjs';
import { bin, DEV_VARS, run, toolEnv } from './lib/tools.mjs';

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
// A .dev.vars made before the local node existed lacks its secret: take the example's (the seed and the node agree).
const nodeSecretLine = /^NODE_DEV_SECRET=.+$/m.exec(readFileSync('.dev.vars.example', 'utf8'))?.[0];
if (nodeSecretLine && !/^NODE_DEV_SECRET=.+$/m.test(readFileSync('.dev.vars', 'utf8'))) {
  appendFileSync('.dev.vars', `\n${nodeSecretLine}\n`);
  console.log('added NODE_DEV_SECRET to .dev.vars from .dev.vars.example');
}
await step('build', 'npm', ['run', 'build', '--silent']);
await step('apply local D1 migrations', bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local']);
await step('load demo data', process.execPath, ['scripts/seed.mjs']);
console.log(`
  云枢代理 portal: http://127.0.0.1:${port}
  Demo logins (password): 13800138000 / demo1234 (verified) · 13900139000 / demo1234 (new)
  SMS codes in development: http://127.0.0.1:${port}/dev/sms-outbox
  Local proxy node: exits 127.0.0.2-127.0.0.9 port 18000 (HTTP, HTTPS CONNECT and SOCKS5 on the same port)
  Try: curl 'http://127.0.0.1:${port}/extract?key=demo13800138000key0000000000abcd&num=3&format=json'
`);
const children = [];
const stopAll = (signal) => {
  for (const c of children) if (c.exitCode === null) c.kill(signal);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
const portal = spawn(
  bin('wrangler'),
  ['dev', '--ip', '127.0.0.1', '--port', port, '--inspector-port', '9230', '--test-scheduled', ...DEV_VARS],
  { env: toolEnv(), stdio: 'inherit' },
);
children.push(portal);
// The node starts once the portal answers, so its first heartbeat registers the exits at once.
const deadline = Date.now() + 120_000;
while (portal.exitCode === null && Date.now() < deadline) {
  const up = await fetch(`http://127.0.0.1:${port}/builds/latest.json`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  await new Promise((r) => setTimeout(r, 500));
}
if (portal.exitCode === null) {
  const config = process.env.NODE_CONFIG ?? 'node/config.local.json';
  const node = spawn(process.execPath, ['node/src/main.ts', '--config', config], {
    // YUNSHU_NODE_DEV=1: the local config's egressAllow (the portal's own address) is a development-only setting.
    env: { ...process.env, YUNSHU_NODE_PORTAL: `http://127.0.0.1:${port}`, YUNSHU_NODE_DEV: '1' },
    stdio: 'inherit',
  });
  children.push(node);
  node.on('exit', (code) => {
    if (code) console.error(`✘ the local proxy node stopped (exit ${code}); the portal keeps running`);
  });
}
// The Worker's cron jobs (usage roll-ups for records and bandwidth, order expiry, reconciliation, purges) run locally
// too; the 5-minute one also shortly after start.
const stopCron = startLocalCron(`http://127.0.0.1:${port}`, { first: ['*/5 * * * *'] });
const code = await new Promise((r) => portal.on('exit', (c) => r(c ?? 0)));
stopCron();
stopAll('SIGTERM');
process.exit(code);
