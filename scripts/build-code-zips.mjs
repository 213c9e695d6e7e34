// Packs each code-samples/<name>/ folder into <outDir>/<name>.zip (the code demos
// downloaded from /code/{file}.zip on the public site).
//
// Usage: node scripts/build-code-zips.mjs [outDir]   (default: dist/public/code)
//
// Dependency-free ZIP writer: local file headers + central directory + EOCD,
// deflate (method 8) for files, UTF-8 file names (general-purpose flag bit 11)
// and a fixed DOS timestamp, so the same sources always give byte-identical zips.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

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

// Fixed timestamp for every entry: 2025-01-01 00:00:00 (DOS format).
const DOS_TIME = (0 << 11) | (0 << 5) | 0;
const DOS_DATE = ((2025 - 1980) << 9) | (1 << 5) | 1;

const FLAG_UTF8 = 0x0800;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
const VERSION_NEEDED = 20; // 2.0: deflate + directories
const VERSION_MADE_BY = (3 << 8) | 20; // host 3 = Unix, so unzip honours the modes below
const MODE_FILE = 0o100644;
const MODE_DIR = 0o040755;

let crcTable;
function crc32(buf) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(buf) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < buf.length; i++) crc = crcTable[(crc ^ buf[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

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

/** Builds a zip archive from [{ name, data|null }] (data null = directory). */
function buildZip(entries) {
  const chunks = [];
  const central = [];
  let offset = 0;

  for (const { name, data } of entries) {
    const isDir = data === null;
    const nameBuf = Buffer.from(name, 'utf8');
    const raw = isDir ? Buffer.alloc(0) : data;
    const method = isDir ? METHOD_STORE : METHOD_DEFLATE;
    const body = isDir ? raw : zlib.deflateRawSync(raw, { level: 9 });
    const crc = isDir ? 0 : crc32(raw);
    if (offset > 0xffffffff || raw.length > 0xffffffff) throw new Error('zip64 not supported');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); // local file header signature
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    chunks.push(local, nameBuf, body);

    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0); // central directory header signature
    cen.writeUInt16LE(VERSION_MADE_BY, 4);
    cen.writeUInt16LE(VERSION_NEEDED, 6);
    cen.writeUInt16LE(FLAG_UTF8, 8);
    cen.writeUInt16LE(method, 10);
    cen.writeUInt16LE(DOS_TIME, 12);
    cen.writeUInt16LE(DOS_DATE, 14);
    cen.writeUInt32LE(crc, 16);
    cen.writeUInt32LE(body.length, 20);
    cen.writeUInt32LE(raw.length, 24);
    cen.writeUInt16LE(nameBuf.length, 28);
    cen.writeUInt16LE(0, 30); // extra field length
    cen.writeUInt16LE(0, 32); // comment length
    cen.writeUInt16LE(0, 34); // disk number start
    cen.writeUInt16LE(0, 36); // internal attributes
    cen.writeUInt32LE((((isDir ? MODE_DIR : MODE_FILE) << 16) | (isDir ? 0x10 : 0)) >>> 0, 38);
    cen.writeUInt32LE(offset, 42);
    central.push(cen, nameBuf);

    offset += local.length + nameBuf.length + body.length;
  }

  const cdSize = central.reduce((n, b) => n + b.length, 0);
  if (entries.length > 0xffff || offset > 0xffffffff) throw new Error('zip64 not supported');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0); // end of central directory signature
  eocd.writeUInt16LE(0, 4); // this disk
  eocd.writeUInt16LE(0, 6); // disk with central directory
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdSize, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(0, 20); // comment length

  return Buffer.concat([...chunks, ...central, eocd]);
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
