// Lighthouse budgets for the public site (issue 5): builds a private preview, runs Lighthouse 13 (mobile profile,
// Debian's Chromium) three times on each page, takes the median score per category, measures the JavaScript shipped
// to the home page (gzip), and writes bench/results/lighthouse.json and .md. Exit code 1 when a budget is missed.
// Usage: npm run bench -- lighthouse    (env: LH_BASE=http://host:port to measure a running server instead; LH_RUNS=3;
// LH_PORT=<port> for the private preview, default 8795)
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';

const PORT = Number(process.env.LH_PORT ?? 8795);
const RUNS = Number(process.env.LH_RUNS ?? 3);
const PAGES = ['/', '/buy?type=10', '/getProxy/10', '/helpDetails/quick-start.html'];
const BUDGET = { performance: 95, accessibility: 95, seo: 100, 'best-practices': 95 };
const JS_BUDGET_KB = 100;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
const toolEnv = {
  ...process.env,
  TMPDIR: `${process.cwd()}/.tmp`,
  XDG_CONFIG_HOME: `${process.cwd()}/.tmp/config`,
  XDG_CACHE_HOME: `${process.cwd()}/.tmp/cache`,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: toolEnv, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function startPreview() {
  const child = spawn(process.execPath, ['scripts/preview.mjs', '--name=bench', `--port=${PORT}`], {
    env: toolEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const ready = new Promise((resolve, reject) => {
    const onData = (d) => {
      log += d;
      if (/Ready on http/.test(log)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => reject(new Error(`preview exited (${code}):\n${log.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`preview not ready after 240 s:\n${log.slice(-2000)}`)), 240_000);
  });
  await ready;
  return { base: `http://127.0.0.1:${PORT}`, stop: () => process.kill(-child.pid, 'SIGTERM') };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function lighthouseOnce(url, i, attempt = 0) {
  const file = `.tmp/lh-${i}.json`;
  const { code, out } = await run(
    'node_modules/.bin/lighthouse',
    [
      url,
      `--chrome-flags=${FLAGS}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      '--output=json',
      `--output-path=${file}`,
      '--quiet',
    ],
    { env: { ...toolEnv, CHROME_PATH: CHROME } },
  );
  // Chromium sometimes records a trace without its navigation start (NO_NAVSTART): a tool fault, not the page's; run
  // that measurement again (at most twice) instead of losing the whole bench.
  if (code !== 0 && out.includes('NO_NAVSTART') && attempt < 2) return lighthouseOnce(url, i, attempt + 1);
  if (code !== 0) throw new Error(`lighthouse failed on ${url}:\n${out.slice(-2000)}`);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(file);
  const scores = Object.fromEntries(Object.entries(report.categories).map(([k, v]) => [k, Math.round(v.score * 100)]));
  const failed = Object.values(report.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  return {
    scores,
    failed,
    lcpMs: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
  };
}

async function homeJsGzipKb(base) {
  const html = await (await fetch(`${base}/`)).text();
  const srcs = new Set();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) srcs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) srcs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+href="([^"]+)"[^>]+rel="modulepreload"/g)) srcs.add(m[1]);
  // The bootstrap script imports the entry and, since decision 175, lists the preloads it adds after the first paint.
  const bootstrap = html.match(/<script[^>]*\bid="_R_"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? '';
  for (const m of bootstrap.matchAll(/["'](\/assets\/[^"'\\]+\.js)["']/g)) srcs.add(m[1]);
  let bytes = 0;
  const files = [];
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    const gz = gzipSync(body, { level: 9 }).length;
    bytes += gz;
    files.push({ src, gzipBytes: gz });
  }
  // Inline scripts (RSC payload, bootstrap) ship too.
  let inline = 0;
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) inline += m[1].length;
  const inlineGz = inline
    ? gzipSync(Buffer.from(html.match(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g).join('')), { level: 9 }).length
    : 0;
  return {
    kb: Math.round(((bytes + inlineGz) / 1024) * 10) / 10,
    externalKb: Math.round((bytes / 1024) * 10) / 10,
    inlineKb: Math.round((inlineGz / 1024) * 10) / 10,
    files,
  };
}

mkdirSync('bench/results', { recursive: true });
const preview = process.env.LH_BASE ? { base: process.env.LH_BASE, stop: () => {} } : await startPreview();
let ok = true;
// Total blocking time is what moves the performance score run to run, and it grows with the machine's load: the load
// average at the start and the end goes into the results beside the scores.
const results = {
  measuredAt: new Date().toISOString(),
  loadAverage: { start: loadavg()[0], end: 0 },
  runs: RUNS,
  lighthouse: '13.5.0',
  profile: 'mobile',
  pages: {},
};
try {
  await fetch(`${preview.base}/`); // warm the Worker
  for (const page of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await lighthouseOnce(preview.base + page, i));
    const cats = Object.keys(runs[0].scores);
    const med = Object.fromEntries(cats.map((c) => [c, median(runs.map((r) => r.scores[c]))]));
    const misses = Object.entries(BUDGET).filter(([c, min]) => (med[c] ?? 0) < min);
    if (misses.length) ok = false;
    results.pages[page] = {
      median: med,
      runs: runs.map((r) => r.scores),
      lcpMsMedian: median(runs.map((r) => r.lcpMs)),
      tbtMs: runs.map((r) => r.tbtMs),
      failedAudits: [...new Set(runs.flatMap((r) => r.failed))],
      pass: misses.length === 0,
    };
    console.log(page, JSON.stringify(med), misses.length ? `MISSED ${misses.map(([c]) => c).join(',')}` : 'ok');
  }
  const js = await homeJsGzipKb(preview.base);
  // The budget counts every script the home page ships: files and inline scripts (RSC payload, bootstrap) alike.
  results.homeJs = { ...js, budgetKb: JS_BUDGET_KB, pass: js.kb <= JS_BUDGET_KB };
  if (!results.homeJs.pass) ok = false;
  console.log(
    `home JS ${js.kb} KB gzip: files ${js.externalKb} KB + inline ${js.inlineKb} KB (budget ${JS_BUDGET_KB} KB in total)`,
  );
} finally {
  preview.stop();
}
results.pass = ok;
results.loadAverage.end = loadavg()[0];
writeFileSync('bench/results/lighthouse.json', `${JSON.stringify(results, null, 2)}\n`);
const rows = Object.entries(results.pages).map(
  ([p, r]) =>
    `| ${p} | ${r.median.performance} (${r.runs.map((x) => x.performance).join('/')}) | ${r.tbtMs.join('/')} | ${r.median.accessibility} | ${r.median['best-practices']} | ${r.median.seo} | ${r.pass ? 'pass' : 'MISS'} |`,
);
writeFileSync(
  'bench/results/lighthouse.md',
  `# Lighthouse (mobile, median of ${RUNS} runs, Lighthouse 13.5.0, Debian Chromium)\n\nMeasured ${results.measuredAt}; 1-minute load average ${results.loadAverage.start.toFixed(2)} at the start, ${results.loadAverage.end.toFixed(2)} at the end.\n\n| page | performance: median (runs) | total blocking time per run, ms | accessibility | best practices | SEO | budget |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n\nBudgets: performance >= 95, accessibility >= 95, best practices >= 95, SEO 100.\n\nJavaScript shipped to the home page: ${results.homeJs?.kb ?? '?'} KB gzip (external ${results.homeJs?.externalKb ?? '?'} KB + inline ${results.homeJs?.inlineKb ?? '?'} KB; budget ${JS_BUDGET_KB} KB in total, inline included).\n`,
);
console.log(ok ? 'all budgets met' : 'some budgets missed (see bench/results/lighthouse.md)');
process.exit(ok ? 0 : 1);
