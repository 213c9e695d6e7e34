#!/usr/bin/env node
// Counts, the same way each time, the "ways of doing one thing" that issue 23 listed (docs/decisions/240): run
// `node scripts/one-way-counts.mjs`; every row should read 1 way (or 0 leftovers). Text search over the tree, like the
// issue's own count; a row names the files it found when there is more than the one way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sqlOutsideItsHomes } from './check-imports.mjs';

const root = process.cwd();
function files(dir, re = /\.(ts|tsx|mjs)$/) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (re.test(name) && !name.endsWith('.d.ts')) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out;
}
const text = (f) => readFileSync(join(root, f), 'utf8');
const having = (list, re, except = []) => list.filter((f) => !except.includes(f) && re.test(text(f)));

const pages = files('src/pages');
const admin = files('src/pages/admin');
const server = files('src/server');
const src = files('src');
const scripts = files('scripts').filter((f) => f !== 'scripts/one-way-counts.mjs');
const decisions = readdirSync(join(root, 'docs/decisions')).filter((f) => /^\d{3}-.*\.md$/.test(f));

const rows = [
  [
    'page data: loaders other than load() (serverApi().call in pages, the in-process hop)',
    having(pages, /serverApi\(\)\s*\.call\(|in-process-api/),
  ],
  [
    'console tables other than ListTable (<table>, DataTable)',
    having(admin, /<table\b|DataTable/, ['src/pages/admin/_components/console-list.tsx']),
  ],
  [
    'console forms other than RecordForm (<form> outside the kit and the login)',
    having(admin, /<form\b/, [
      'src/pages/admin/_components/record-form.tsx',
      'src/pages/admin/_components/console-list.tsx',
      'src/pages/admin/_components/login-form.tsx',
    ]),
  ],
  [
    'console screens with hand-copied roles (roles: [ … ] or roleAllows in pages)',
    having(pages, /roles:\s*\[|roleAllows\(/),
  ],
  [
    'server modules named admin-* or operators-* for the console',
    server.filter((f) => /\/(admin|operators)-[^/]*$/.test(f) && !/operators-(manage|bootstrap)\.ts$/.test(f)),
  ],
  [
    'input schema modules outside src/lib/schemas',
    src.filter((f) => /schemas?\.ts$/.test(f) && !f.startsWith('src/lib/schemas/')),
  ],
  [
    'idSchema / intIn declared more than once',
    having(src, /(const|function) (idSchema|intIn)\b/, ['src/lib/schemas/numbers.ts']),
  ],
  [
    'Shanghai offset or DAY/HOUR constants outside lib/time.ts',
    having(src, /8 \* 3600|8 \* 60 \* 60|28_?800_?000|const (DAY|HOUR)(_MS)? = \d/, ['src/lib/time.ts']),
  ],
  [
    // The extraction SQL and the node contract are left to the delivery-at-scale issue (26), which rewrites them.
    'batch results read by position (outside db/extract*.ts and db/node-contract.ts)',
    having(server, /results\[results\.length - |results\[\d\]\?\.meta/, [
      'src/server/db/extract.ts',
      'src/server/db/node-contract.ts',
    ]),
  ],
  ['decision records without a Status line', decisions.filter((f) => !/^Status: /m.test(text(`docs/decisions/${f}`)))],
  ['scripts declaring their own arg()', having(scripts, /function arg\(|const arg = /, ['scripts/lib/args.mjs'])],
  ['scripts bundling with esbuild themselves', having(scripts, /from 'esbuild'/, ['scripts/lib/bundle.mjs'])],
  ['SQL lines outside src/server/db, the objects and tests/helpers', sqlOutsideItsHomes()],
  ['hand-quoted SQL text (a q() quoter) in src', having(src, /const q = \(\w+: (string|number)/)],
];
let extra = 0;
for (const [what, found] of rows) {
  extra += found.length;
  console.log(`${found.length === 0 ? 'one way' : `${found.length} left`}  ${what}`);
  for (const f of found.slice(0, 10)) console.log(`    ${f}`);
}
console.log(`${extra} leftovers`);
process.exit(extra ? 1 : 0);
