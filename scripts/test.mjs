// `npm test`: every check the project has, in order, ending with one line "N passed, N failed" that sums them all.
// Suites: typecheck, lint, format, workerd unit+integration tests, build, client-bundle secret scan, deploy dry run,
// browser journeys (Playwright in Debian's Chromium, installed here when missing and we are root); the code samples run
// through a real node (their toolchains from Debian, installed the same way).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bin, run, toolEnv } from './lib/tools.mjs';

const env = toolEnv();
const results = [];
const record = (suite, passed, failed, note = '') => {
  results.push({ suite, passed, failed, note });
  console.log(`\n${failed ? '✘' : '✔'} ${suite}: ${passed} passed, ${failed} failed${note ? ` (${note})` : ''}`);
};
const check = async (suite, cmd, args) => {
  console.log(`\n▶ ${suite}`);
  const { code } = await run(cmd, args, { env });
  record(suite, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
  return code === 0;
};
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

await check('typecheck', bin('tsc'), ['--noEmit', '-p', '.']);
await check('lint', bin('biome'), ['lint', '.']);
await check('format', bin('biome'), ['format', '.']);
await check('module graph (no cycles, no upward imports, SQL in its homes)', process.execPath, [
  'scripts/check-imports.mjs',
]);
await check('one way for each thing (docs/decisions/240)', process.execPath, ['scripts/one-way-counts.mjs']);

console.log('\n▶ workerd tests (vitest)');
const vitest = await run(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json'],
  { env },
);
const v = readJson('.tmp/vitest.json');
if (v)
  record('workerd tests', v.numPassedTests, v.numFailedTests + (vitest.code !== 0 && v.numFailedTests === 0 ? 1 : 0));
else record('workerd tests', 0, 1, 'no report');

// The reference proxy node (node/, issue 9): its own typecheck and socket tests against a fake portal.
await check('proxy node typecheck', bin('tsc'), ['--noEmit', '-p', 'node']);
const nodeTests = async (suite, files) => {
  console.log(`\n▶ ${suite}`);
  const tap = `.tmp/${suite.replace(/\W+/g, '-')}.tap`;
  rmSync(tap, { force: true });
  const { code } = await run(
    process.execPath,
    [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { env },
  );
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (k) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + count('cancelled') + (code !== 0 && count('fail') === 0 ? 1 : 0);
  record(suite, passed, failed, count('skipped') ? `${count('skipped')} skipped` : '');
};
await nodeTests('proxy node tests', ['node/test/units.test.ts', 'node/test/node.test.ts', 'node/test/egress.test.ts']);

// The downloadable code samples, run through a real node (node/test/samples.test.ts). Their toolchains are Debian
// packages, installed here when missing and we are root; a sample whose toolchain is still missing is a skip.
{
  const missing = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0;
  const phpCurl = () => spawnSync('php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']).status === 0;
  const want = [
    ['openssl', 'openssl'],
    ['python3', 'python3'],
    ['javac', 'default-jdk-headless'],
    ['kotlinc', 'kotlin'],
    ['go', 'golang-go'],
    ['php', 'php-cli'],
  ].flatMap(([cmd, pkg]) => (missing(cmd) ? [pkg] : []));
  if (missing('php') || !phpCurl()) want.push('php-curl');
  if (want.length && process.getuid?.() === 0) {
    console.log(`Sample toolchains missing: installing Debian packages ${want.join(' ')}`);
    await run(
      'sh',
      [
        '-c',
        `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${want.join(' ')}`,
      ],
      { env },
    );
  }
}
await nodeTests('code samples (through a real node)', ['node/test/samples.test.ts']);

const built = await check('build', 'npm', ['run', 'build', '--silent']);

// Style rule 11: no secret may reach the client bundle (the transport key is public by design).
{
  const needles = [
    'BEGIN PRIVATE KEY',
    'BEGIN RSA PRIVATE KEY',
    'SESSION_SECRET',
    'CHAT_SIGN_SECRET',
    'ALIYUN_ACCESS_KEY_SECRET',
    'apiV3Key',
    'WECHATPAY_APIV3_KEY',
  ];
  const devVars = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
  for (const m of devVars.matchAll(
    /^(?:SESSION_SECRET|CHAT_SIGN_SECRET|ALIYUN_ACCESS_KEY_SECRET|WECHATPAY_[A-Z_]*KEY[A-Z_]*)=(.{12,})$/gm,
  ))
    needles.push(m[1]);
  const hits = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(js|css|html|txt|json)$/.test(name)) {
        const text = readFileSync(p, 'utf8');
        for (const n of needles) if (text.includes(n)) hits.push(`${p}: ${n.slice(0, 24)}`);
      }
    }
  };
  if (built && existsSync('dist/public')) walk('dist/public');
  if (hits.length) console.error(hits.join('\n'));
  record('client bundle has no secrets', built && !hits.length ? 1 : 0, built && !hits.length ? 0 : 1);
}

await check('deploy bundle (wrangler deploy --dry-run --env production)', bin('wrangler'), [
  'deploy',
  '--dry-run',
  '--env',
  'production',
  '--outdir',
  '.tmp/deploy-dry-run',
]);

// The node against the real portal (built Worker under wrangler dev, fresh state, its own port).
if (built) await nodeTests('proxy node end to end (real portal)', ['node/test/e2e/portal.e2e.ts']);
// The whole delivery path: buy, extract, connect, usage, archive, records from the archive, trace (issue 26).
if (built) await nodeTests('delivery end to end (real portal and node)', ['node/test/e2e/delivery.e2e.ts']);
else record('proxy node end to end (real portal)', 0, 1, 'build failed');

console.log('\n▶ browser journeys (playwright)');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium) && process.getuid?.() === 0) {
  console.log('Chromium is missing: installing Debian packages chromium and fonts-noto-cjk');
  await run(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk'],
    { env },
  );
}
if (!existsSync(chromium)) {
  console.error('Chromium not found. Install it with: sudo apt-get install -y chromium fonts-noto-cjk');
  record('browser journeys', 0, 1, 'chromium missing');
} else if (!built) {
  record('browser journeys', 0, 1, 'build failed');
} else {
  const e2e = await run(bin('playwright'), ['test'], { env });
  const r = readJson('.tmp/e2e-results.json');
  if (r?.stats) {
    const failed = r.stats.unexpected + (r.stats.flaky ?? 0) + (e2e.code !== 0 && r.stats.unexpected === 0 ? 1 : 0);
    record('browser journeys', r.stats.expected, failed, r.stats.skipped ? `${r.stats.skipped} skipped` : '');
  } else record('browser journeys', 0, 1, 'no report');
}

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
console.log('\nSummary');
for (const r of results)
  console.log(`  ${r.failed ? '✘' : '✔'} ${r.suite.padEnd(44)} ${r.passed} passed, ${r.failed} failed`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
