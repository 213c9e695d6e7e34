// Writes docs/api.md from the action registry (bundled with esbuild so the TypeScript sources run in Node).
import { writeFileSync } from 'node:fs';
import { importBundled } from './lib/bundle.mjs';

const { default: markdown } = await importBundled({
  source:
    "import { renderApiDocs } from './src/server/actions/docs'; import { registry } from './src/server/actions/registry'; export default renderApiDocs(registry);",
});
writeFileSync('docs/api.md', markdown);
console.log('docs/api.md written');
