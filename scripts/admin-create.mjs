// Create an operator account (the first admin of a fresh deployment, or any other) without hand-written SQL:
//   npm run admin:create -- --username=alice --name=张三 [--role=admin] [--password=...] [--remote [--env=production]]
// Without --password a strong random password is generated and printed once. The operator binds a TOTP authenticator
// at the first login at /admin/login. Local by default (like npm run seed); --persist-to / --config as seed.mjs.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { arg, flag } from './lib/args.mjs';
import { importBundled } from './lib/bundle.mjs';
import { bin, run } from './lib/tools.mjs';

const ROLES = ['admin', 'finance', 'support', 'content', 'ops'];

const username = arg('username') ?? '';
const displayName = arg('name') ?? username;
const role = arg('role') ?? 'admin';
const generated = !arg('password');
const password = arg('password') ?? randomBytes(12).toString('base64url');
const fail = (text) => {
  console.error(text);
  process.exit(2);
};
if (!/^[A-Za-z0-9_.]{3,32}$/.test(username)) fail('--username: 3-32 letters, digits, _ or .');
if (!displayName || displayName.length > 32) fail('--name: 1-32 characters');
if (!ROLES.includes(role)) fail(`--role: one of ${ROLES.join(', ')}`);
if (password.length < 12) fail('--password: at least 12 characters');

const { operatorCreateSql } = await importBundled({ entry: 'src/server/seed/operator-create.ts' });
const sqlFile = `.tmp/operator-${process.pid}.sql`;
writeFileSync(sqlFile, await operatorCreateSql({ username, displayName, role, password, now: Date.now() }), {
  mode: 0o600,
});

const target = flag('remote') ? ['--remote'] : ['--local'];
const env = arg('env');
const persist = arg('persist-to');
const config = arg('config');
const common = [
  ...target,
  ...(env ? ['--env', env] : []),
  ...(persist ? ['--persist-to', persist] : []),
  ...(config ? ['-c', config] : []),
];
// A local run opens the same SQLite file as a `wrangler dev` that may be running on it; while that server writes, the
// file is locked and wrangler fails with SQLITE_BUSY, having changed nothing. Such a failure is tried again, a little
// later each time.
const busy = (r) => r.code !== 0 && /SQLITE_BUSY|database is locked/.test(`${r.err}${r.out}`);
const pause = (attempt) => new Promise((done) => setTimeout(done, 300 * attempt));
const MAX_ATTEMPTS = 10;
const d1 = async (args) => {
  for (let attempt = 1; ; attempt++) {
    const r = await run(bin('wrangler'), ['d1', 'execute', 'DB', ...common, ...args], { capture: true });
    if (!busy(r) || target[0] !== '--local' || attempt >= MAX_ATTEMPTS) return r;
    await pause(attempt);
  }
};
const select = async () => {
  const r = await d1(['--json', '--command', `SELECT role FROM operators WHERE username = '${username}'`]);
  if (r.code !== 0) fail(r.err || r.out);
  return JSON.parse(r.out)[0]?.results ?? [];
};
const existing = await select();
if (existing.length > 0) {
  rmSync(sqlFile);
  console.log(`operator "${username}" already exists (${existing[0].role}); nothing changed`);
  process.exit(0);
}
const exec = await d1(['--file', sqlFile]);
rmSync(sqlFile);
if (exec.code !== 0) fail(exec.err || exec.out);
if ((await select()).length === 0) fail('the account was not created');
console.log(`operator "${username}" (${role}) created.`);
if (generated) console.log(`initial password (shown once): ${password}`);
console.log('Log in at /admin/login; the first login binds a TOTP authenticator app.');
