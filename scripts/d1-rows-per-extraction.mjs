// How many rows an extraction adds to D1 (issue 26: "100 extractions add <= 0.1 rows to D1 each"). Starts the
// extraction bench's server on this working tree (demo data, bench/lib/extract-server.mjs), counts every row of every
// D1 table, makes `--calls` ten-IP extractions one after another with the demo key, waits for whatever is written
// off the path (`--settle` ms: deferred work, an object's alarm), counts again and prints the rows added per call,
// table by table. Nothing is written to bench/results. Main at d185815: 21.0 per call (decision 243).
// Usage: node scripts/d1-rows-per-extraction.mjs [--calls=100] [--settle=3000]
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startExtractServer } from '../bench/lib/extract-server.mjs';
import { arg } from './lib/args.mjs';

const calls = Number(arg('calls', 100));
const settle = Number(arg('settle', 3000));
const dir = resolve('.tmp/d1-rows-per-extraction');

/** The local D1 database file under the server's state. */
const d1File = () => {
  const base = `${dir}/state/v3/d1/miniflare-D1DatabaseObject`;
  const file = readdirSync(base).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 database under ${base}`);
  return `${base}/${file}`;
};

/** Rows per table of the D1 database (FTS shadow tables and SQLite's own excluded). */
const countRows = () => {
  const db = new DatabaseSync(d1File(), { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .all()
      .map((r) => r.name)
      .filter((n) => !/_fts_(data|idx|docsize|config|content)$/.test(n));
    return new Map(tables.map((t) => [t, Number(db.prepare(`SELECT count(*) AS n FROM "${t}"`).get().n)]));
  } finally {
    db.close();
  }
};

const server = await startExtractServer({ dir });
try {
  // The server's probe extraction has run: let its write-back land before the first count.
  await new Promise((r) => setTimeout(r, settle));
  const before = countRows();
  let ok = 0;
  for (let i = 0; i < calls; i++) {
    const r = await fetch(server.extractUrl);
    await r.arrayBuffer();
    if (r.status === 200) ok++;
  }
  await new Promise((r) => setTimeout(r, settle));
  const after = countRows();
  const added = [...after].map(([t, n]) => [t, n - (before.get(t) ?? 0)]).filter(([, d]) => d !== 0);
  const total = added.reduce((s, [, d]) => s + d, 0);
  console.log(
    `${calls} extractions (${ok} answered 200): ${total} D1 rows added, ${(total / calls).toFixed(3)} per call`,
  );
  for (const [t, d] of added) console.log(`  ${t}: ${d} (${(d / calls).toFixed(3)} per call)`);
} finally {
  server.stop();
}
