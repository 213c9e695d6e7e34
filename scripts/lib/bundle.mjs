// Run the TypeScript sources of src/ in Node from a script: bundle with esbuild, import the bundle, remove it.
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * The module `entry` (a path such as src/server/seed/index.ts), or the TypeScript `source` text resolved from the
 * project root, bundled for Node and imported. src/server modules import 'server-only', which resolves to an empty
 * module under the react-server condition.
 */
export async function importBundled({ entry, source }) {
  mkdirSync('.tmp', { recursive: true });
  const outfile = resolve(`.tmp/bundle-${process.pid}-${Date.now()}.mjs`);
  await build({
    ...(entry ? { entryPoints: [entry] } : { stdin: { contents: source, resolveDir: process.cwd(), loader: 'ts' } }),
    bundle: true,
    platform: 'node',
    conditions: ['react-server'],
    format: 'esm',
    outfile,
    logLevel: 'error',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}
