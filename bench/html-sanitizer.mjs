// The allow-list HTML sanitiser on ordinary and hostile input of growing size: time per call, to show it is linear
// (docs/decisions/096). It now runs when HTML is written, never on reads. Results: bench/results/html-sanitizer.*
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

async function load(ts, name) {
  const { code } = await transform(ts, { loader: 'ts', format: 'esm' });
  mkdirSync('.tmp', { recursive: true });
  writeFileSync(`.tmp/${name}.bench.mjs`, code);
  return (await import(pathToFileURL(`.tmp/${name}.bench.mjs`).href)).sanitizeHtml;
}
const sanitizeHtml = await load(readFileSync('src/server/domain/html-sanitizer.ts', 'utf8'), 'html-sanitizer');
// The version before decision 096, for comparison (from git, when available).
let before = null;
try {
  const { execFileSync } = await import('node:child_process');
  const old = execFileSync('git', ['show', '8233709:src/server/domain/html-sanitizer.ts'], { encoding: 'utf8' });
  before = await load(old, 'html-sanitizer-before');
} catch {}

const article = (bytes) => {
  const unit =
    '<h2>提取参数</h2><p>提取接口地址为 <code>GET /extract</code>，<a href="/helpDetails/x.html" title="说明">参数</a>说明如下。</p>' +
    '<table><tr><td><strong>num</strong></td><td>数量 1-200</td></tr></table><script>x()</script><p onclick="y()">文本 &amp; 更多</p>';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
};
const hostile = {
  'unterminated tags': (bytes) => '<a b '.repeat(bytes / 5),
  'unclosed quotes': (bytes) => '<a title="x '.repeat(bytes / 12),
  'deep nesting + stray closers': (bytes) => '<span>'.repeat(bytes / 12) + '</b>'.repeat(bytes / 8),
  'open comments': (bytes) => '<!-'.repeat(bytes / 3),
};

function time(fn, input) {
  fn(input);
  const runs = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    fn(input);
    runs.push(performance.now() - t);
  }
  return runs.sort((a, b) => a - b)[4];
}

const sizes = [16, 32, 64, 128].map((k) => k * 1024);
const rows = [];
for (const [name, make] of [['ordinary article', article], ...Object.entries(hostile)]) {
  for (const [version, fn] of [
    ['now', sanitizeHtml],
    ['before', before],
  ]) {
    if (!fn) continue;
    // The old version is quadratic on hostile input: measured up to 32 KB only (128 KB takes minutes).
    for (const size of version === 'before' && name !== 'ordinary article' ? sizes.slice(0, 2) : sizes) {
      rows.push({ input: `${name} (${version})`, kb: size / 1024, ms: Number(time(fn, make(size)).toFixed(2)) });
    }
  }
}
const table = [
  '| input | 16 KB | 32 KB | 64 KB | 128 KB |',
  '|---|---|---|---|---|',
  ...[...new Set(rows.map((r) => r.input))].map(
    (name) =>
      `| ${name} | ${sizes
        .map((size) => rows.find((r) => r.input === name && r.kb === size / 1024))
        .map((r) => (r ? `${r.ms} ms` : '–'))
        .join(' | ')} |`,
  ),
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/html-sanitizer.json',
  `${JSON.stringify({ at: new Date().toISOString(), rows }, null, 2)}\n`,
);
writeFileSync(
  'bench/results/html-sanitizer.md',
  `# HTML sanitiser (median of 9, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, shared 2-core machine)\n\nLinear: doubling the input about doubles the time.\n\n${table}\n`,
);
