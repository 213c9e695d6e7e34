// Packs each code-samples/<name>/ folder into <outDir>/<name>.zip (the code demos
// downloaded from /code/{file}.zip on the public site).
//
// Usage: node scripts/build-code-zips.mjs [outDir]   (default: dist/public/code)
//
// Written with fflate: deflate for files, UTF-8 names, Unix modes and a fixed
// timestamp, so the same sources always give byte-identical zips.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES_DIR = path.join(REPO_ROOT, 'code-samples');
const OUT_DIR = process.argv[2] ? path.resolve(process.argv[2]) : path.join(REPO_ROOT, 'dist', 'public', 'code');

// zip file name (without .zip) -> top folder inside the archive
const SAMPLES = [
  ['node', 'proxy-demo-node'],
  ['CSharp', 'proxy-demo-csharp'],
  ['python', 'proxy-demo-python'],
  ['java', 'proxy-demo-java'],
  ['kotlin', 'proxy-demo-kotlin'],
  ['php', 'proxy-demo-php'],
  ['go', 'proxy-demo-go'],
  ['easy', 'proxy-demo-easy'],
];

// Build artefacts / editor junk that must never end up in a download.
const IGNORED_NAMES = new Set([
  '.DS_Store',
  'Thumbs.db',
  '__pycache__',
  'node_modules',
  'bin',
  'obj',
  '.vs',
  '.idea',
  '.gradle',
  'build',
  'target',
  'vendor',
]);
const IGNORED_EXTENSIONS = ['.class', '.jar', '.exe', '.dll', '.pyc', '.zip'];

// Fixed timestamp for every entry (local midnight, so the DOS date is 2025-01-01 00:00:00 on any machine).
const MTIME = new Date(2025, 0, 1);
const HOST_UNIX = 3; // so unzip honours the modes below
const MODE_FILE = 0o100644;
const MODE_DIR = 0o040755;

/** Relative paths ("a/b.txt", directories end with "/") of a folder, sorted. */
function listEntries(root) {
  const out = [];
  const walk = (dir, rel) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (IGNORED_NAMES.has(d.name)) continue;
      const abs = path.join(dir, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        out.push(`${r}/`);
        walk(abs, r);
      } else if (d.isFile()) {
        if (IGNORED_EXTENSIONS.some((ext) => d.name.toLowerCase().endsWith(ext))) continue;
        out.push(r);
      }
    }
  };
  walk(root, '');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Builds a zip archive (fflate) from [{ name, data|null }] (data null = directory). */
function buildZip(entries) {
  const files = {};
  for (const { name, data } of entries) {
    const isDir = data === null;
    files[name] = [
      isDir ? new Uint8Array(0) : new Uint8Array(data),
      {
        level: isDir ? 0 : 9,
        mtime: MTIME,
        os: HOST_UNIX,
        attrs: (((isDir ? MODE_DIR : MODE_FILE) << 16) | (isDir ? 0x10 : 0)) >>> 0,
      },
    ];
  }
  return Buffer.from(zipSync(files));
}

fs.mkdirSync(OUT_DIR, { recursive: true });
for (const [file, top] of SAMPLES) {
  const src = path.join(SAMPLES_DIR, file);
  if (!fs.statSync(src, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`missing sample folder: ${path.relative(REPO_ROOT, src)}`);
  }
  const rels = listEntries(src);
  const files = rels.filter((r) => !r.endsWith('/'));
  if (files.length === 0) throw new Error(`empty sample folder: ${path.relative(REPO_ROOT, src)}`);
  const entries = [
    { name: `${top}/`, data: null },
    ...rels.map((r) => ({
      name: `${top}/${r}`,
      data: r.endsWith('/') ? null : fs.readFileSync(path.join(src, ...r.split('/'))),
    })),
  ];
  const zip = buildZip(entries);
  const dest = path.join(OUT_DIR, `${file}.zip`);
  fs.writeFileSync(dest, zip);
  const shown = path.relative(process.cwd(), dest);
  console.log(`${shown.startsWith('..') ? dest : shown}  ${zip.length} bytes  (${files.length} files)`);
}
