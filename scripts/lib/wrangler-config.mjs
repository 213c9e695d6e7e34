// A copy of a tree's wrangler.toml for a local run outside the default layout (a preview's own dist, the source edge
// entry of a bench): the entry, the assets and the migrations folder rewritten, optional sections left out. The file
// itself is never changed; a line this expects and does not find is an error, so a renamed key cannot pass unnoticed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A top-level `[section]` with its lines, up to the next section header. */
const section = (name) => new RegExp(`^\\[${name}\\]\\n(?:(?!\\[)[^\\n]*\\n)*`, 'm');

function replaceOnce(text, pattern, replacement) {
  const out = text.replace(pattern, replacement);
  if (out === text) throw new Error(`wrangler.toml: nothing matches ${pattern}`);
  return out;
}

/**
 * The wrangler.toml of `root` with `main` as the Worker entry, `assets` as the assets directory (null: no [assets]
 * section), the migrations folder as an absolute path, and without [triggers] when `triggers` is false.
 */
export function wranglerConfigFor({ root = '.', main, assets = null, triggers = true }) {
  let config = readFileSync(resolve(root, 'wrangler.toml'), 'utf8');
  config = replaceOnce(config, 'main = "dist/server/worker.js"', `main = "${main}"`);
  config =
    assets === null
      ? replaceOnce(config, section('assets'), '')
      : replaceOnce(config, 'directory = "./dist/public"', `directory = "${assets}"`);
  if (!triggers) config = replaceOnce(config, section('triggers'), '');
  return replaceOnce(config, 'migrations_dir = "migrations"', `migrations_dir = "${resolve(root, 'migrations')}"`);
}
