#!/usr/bin/env node
// The module graph of src/: fails (exit 1) on an import cycle or an import against the layering of
// docs/architecture.md. Cycles count every import, `import type` included (a type cycle is still a cycle for a
// reader); the layering counts the imports that stay at run time (a lower layer may name a type of a higher one, e.g.
// db rows typed by the domain's pricing types). Dynamic import() and `export ... from` count too. Run by
// tests/unit/module-graph.test.ts and by hand: `node scripts/check-imports.mjs`. It also keeps SQL in its homes: a
// statement is prepared only in src/server/db (and the Durable Objects that own their storage, src/server/objects),
// and the integration tests reach D1 only through the named fixtures of tests/helpers (see sqlOutsideItsHomes).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveSpec(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

/** The imports of each file under src/ (paths relative to src/); `runtime: true` for the ones not erased. */
export function moduleGraph({ runtime = false } = {}) {
  const graph = new Map();
  for (const file of walk(src)) {
    const text = readFileSync(file, 'utf8');
    const deps = new Set();
    for (const m of text.matchAll(IMPORT)) {
      if (runtime && m[2]) continue; // import type / export type
      const target = resolveSpec(file, m[3] ?? m[4]);
      // A file outside src/ counts like a package (node/src/wire.ts, the wire protocol shared with the node).
      if (target && !relative(src, target).startsWith('..')) deps.add(relative(src, target));
    }
    graph.set(relative(src, file), [...deps]);
  }
  return graph;
}

/** Every cycle (as a list of files), found by Tarjan's strongly connected components. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** The layer of a file: the first matching rule. */
const LAYERS = [
  ['entry', /^(server-entry\.tsx|edge\/worker\.ts)$/],
  ['edge', /^edge\//],
  ['pages', /^pages\//],
  ['components', /^components\//],
  ['state', /^state\//],
  ['actions', /^server\/actions\//],
  ['jobs', /^server\/jobs\//],
  ['seed', /^server\/seed\//],
  ['providers', /^server\/providers\//],
  ['domain', /^server\/domain\//],
  ['db', /^server\/db\//],
  ['server', /^server\//],
  ['lib', /^lib\//],
  ['styles', /^styles\//],
];

/** Which layers each layer may import at runtime (docs/architecture.md). */
const ALLOWED = {
  entry: ['edge', 'server', 'jobs', 'actions', 'domain', 'db', 'providers', 'lib'],
  edge: ['edge', 'server', 'actions', 'domain', 'db', 'providers', 'lib'],
  pages: ['pages', 'components', 'state', 'server', 'lib', 'styles'],
  components: ['components', 'state', 'server', 'lib'],
  state: ['state', 'lib'],
  server: ['server', 'actions', 'domain', 'db', 'providers', 'lib'],
  jobs: ['jobs', 'server', 'domain', 'db', 'providers', 'lib'],
  seed: ['seed', 'server', 'domain', 'db', 'lib'],
  actions: ['actions', 'server', 'domain', 'db', 'providers', 'lib'],
  providers: ['providers', 'server', 'db', 'lib'],
  domain: ['domain', 'server', 'db', 'providers', 'lib'],
  db: ['db', 'server', 'lib'],
  lib: ['lib'],
};

/** Upward imports tolerated for now: none remain, so any upward import fails. */
const KNOWN = new Set([]);

export const layerOf = (file) => LAYERS.find(([, re]) => re.test(file))?.[0] ?? 'other';

/** Imports against the layering, plus actions importing other action files (shared logic belongs in domain). */
export function upwardImports(graph) {
  const bad = [];
  for (const [from, deps] of graph) {
    const a = layerOf(from);
    for (const to of deps) {
      const b = layerOf(to);
      if (KNOWN.has(`${from} -> ${to}`)) continue;
      if (!(ALLOWED[a] ?? []).includes(b)) bad.push(`${from} -> ${to} (${a} -> ${b})`);
      else if (
        a === 'actions' &&
        b === 'actions' &&
        !/^server\/actions\/(define|registry)\.ts$/.test(to) &&
        !from.endsWith('registry.ts')
      ) {
        bad.push(`${from} -> ${to} (action -> action)`);
      }
    }
  }
  return bad;
}

/** Where SQL may be written: the db layer, the objects that own their storage, the tests' fixtures. */
const SQL_HOMES = ['src/server/db/', 'src/server/objects/', 'tests/helpers/'];
/** SQL written on the spot: a prepared statement anywhere; in the tests also a batch, an exec or a one-number query. */
const SQL_IN_SRC = /\.prepare\(/;
const SQL_IN_TESTS = /\.prepare\(|\bDB\.(?:batch|exec)\(|\bscalar\(/;

/** Files that write SQL outside its homes (src/ and tests/integration/), as `file:line`. */
export function sqlOutsideItsHomes() {
  const bad = [];
  for (const [dir, sqlHere] of [
    [src, SQL_IN_SRC],
    [join(root, 'tests/integration'), SQL_IN_TESTS],
  ]) {
    if (!existsSync(dir)) continue;
    for (const file of walk(dir)) {
      const rel = relative(root, file);
      if (SQL_HOMES.some((h) => rel.startsWith(h))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (sqlHere.test(line)) bad.push(`${rel}:${i + 1}`);
        });
    }
  }
  return bad;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = moduleGraph();
  const cycles = findCycles(graph);
  const upward = upwardImports(moduleGraph({ runtime: true }));
  for (const c of cycles) console.log(`cycle: ${c.join(' <-> ')}`);
  for (const u of upward) console.log(`upward: ${u}`);
  const sql = sqlOutsideItsHomes();
  for (const s of sql) console.log(`sql outside its homes: ${s}`);
  console.log(
    `${graph.size} modules, ${cycles.length} cycles, ${upward.length} upward imports, ${sql.length} SQL lines outside their homes`,
  );
  process.exit(cycles.length || upward.length || sql.length ? 1 : 0);
}
