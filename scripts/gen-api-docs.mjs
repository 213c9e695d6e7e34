// Writes docs/api.md from the action registry (bundled with esbuild so the TypeScript sources run in Node).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const out = '.tmp/gen-api-docs.mjs';
mkdirSync('.tmp', { recursive: true });
await build({
  stdin: {
    contents:
      "import { renderApiDocs } from './src/server/actions/docs'; import { registry } from './src/server/actions/registry'; export default renderApiDocs(registry);",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  // src/server modules import 'server-only', which resolves to an empty module under react-server.
  conditions: ['react-server'],
  format: 'esm',
  outfile: out,
  logLevel: 'error',
});
const { default: markdown } = await import(pathToFileURL(`${process.cwd()}/${out}`).href);
writeFileSync('docs/api.md', markdown);
rmSync(out);
console.log('docs/api.md written');
