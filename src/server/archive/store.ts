// The delivery archive in R2 (docs/delivery.md; docs/decisions/219-221): the history that has left the hot store, kept
// at least 180 days as compressed batches. Source-independent: the archive job feeds it from D1's tables (./copy.ts)
// and from the customers' records objects (./objects.ts, decision 248).
//
// THE WRITER'S CONTRACT (writeArchive)
//   Input: records `{ kind, id, owner, at, data }`:
//     kind   'extract' (one extraction call), 'lease' (one IP handed out), 'usage' (bytes of a customer through an exit
//            over ~10 s, per client address), 'refusal' (connections a node refused: one client, exit, customer
//            and code in one report, `data.count` of them from `data.at` to `data.lastAt`; no count: one, decision 251);
//     id     an integer unique per (kind, owner): D1's row ids (positive), the objects' rows negative (decision 248:
//            a call −(receipt id × 1000), a refused call −(its object id × 1000 + 999), a lease −(receipt id × 1000 + k)),
//            so the two sources never meet in one object (D1's part = floor(id / 1,000,000) ≥ 0; the objects' rows
//            name theirs, objectPart: negative, counted in the customer's own calls);
//     owner  the customer (user id; 0 for a refusal that named nobody);
//     at     epoch ms that dates the record (call, lease start, usage period start, refusal); its 北京时间 day partitions;
//     data   the record itself, a JSON object. A lease's data must carry ip, port, assignedAt and expiresAt (the trace
//            index is built from them) and should carry bytes, connections and clients (the usage it owns).
//   Effect: every record lands in `archive/v1/{kind}/{day}/{owner}/{part}.ndjson.gz` (part = floor(id / 1,000,000),
//   zero-padded), gzip-compressed NDJSON, one record per line, sorted by id; each lease also lands in the exit index
//   `archive/v1/exit/{day}/{bucket}/{owner}-{part}.ndjson.gz` (bucket: the exit's /24 or /48, exitBucket) for every
//   day its window touches (at most 40), unless the caller says `exitIndex: false` (the objects' leases: their node
//   indexes them, writeExitIndex, `exit/{day}/{bucket}/n{node}-h{hour}.ndjson.gz`, decision 255). An object that
//   already exists is read and merged by (owner, id), so writing the same records again overwrites instead of
//   duplicating, and records added to a partition later (a late report) join the earlier ones. Each object is put with
//   its SHA-256 (R2 refuses a body that does not match) and then checked with a head (size and checksum); a customer
//   batch is recorded in D1's manifest (archive_objects) only after that check. Any failure throws: the caller must
//   not delete its source rows unless writeArchive resolved.
//   Idempotent and safe to call concurrently for different owners; one owner's partitions are written by one caller at
//   a time (the daily job, or the owner's own object).
// READERS: readArchiveObject (one batch), archivedRecords (a customer's kind over a day range, via the manifest),
// traceExitArchive (the leases of an exit address at an instant, via the exit index).
// RETENTION: expireArchive deletes days older than the retention (clampArchiveDays: never below 180 days).
import 'server-only';
import { DAY_MS, HOUR_MS, shanghaiDay, shanghaiDayStart } from '../../lib/time';
import {
  type ArchiveKind,
  type ArchiveObjectRow,
  dropArchiveObjectsBefore,
  listArchiveObjects,
  recordArchiveObjects,
} from '../db/archive-rows';

export type { ArchiveKind } from '../db/archive-rows';

export const ARCHIVE_PREFIX = 'archive/v1';
/** Ids per batch object of one (kind, day, owner): bounds an object for a heavy customer (about 150 MB raw at most). */
export const ARCHIVE_PART_IDS = 1_000_000;
/**
 * Calls of one customer's object per archive part. The objects' archive numbers come from the receipts, which all
 * customers share (a customer's 100 calls of a day can lie in 100 blocks of 1,000 receipts), so their part is counted
 * in the customer's own calls instead: one part per customer, day and kind for up to 1,000 calls (10,000 leases of
 * ten IPs, ≈ 0.3 MB of gzip), never one per call. Small enough that a batch of the job (500 calls) merges into at most
 * two parts of at most 1,000 calls each (decision 255: a part of 10,000 calls was read and rewritten 20 times).
 */
export const OBJECT_PART_CALLS = 1_000;
/** The part of an object's call (by its row id in the customer's object) and of its leases and usage: negative. */
export const objectPart = (logId: number): number => -1 - Math.floor(logId / OBJECT_PART_CALLS);
/** The part a record lands in. */
export const archivePart = (r: Pick<ArchiveRecord, 'id' | 'part'>): number =>
  r.part ?? Math.floor(r.id / ARCHIVE_PART_IDS);

/** The legal minimum: access logs are kept at least 180 days (Cybersecurity Law art. 21). */
export const MIN_ARCHIVE_DAYS = 180;
/** A lease is indexed under each day its window touches, up to this many. */
const EXIT_INDEX_MAX_DAYS = 40;

export interface ArchiveRecord {
  kind: ArchiveKind;
  id: number;
  owner: number;
  at: number;
  data: Record<string, unknown>;
  /** The record's part when not floor(id / ARCHIVE_PART_IDS): the objects' rows (objectPart). */
  part?: number;
}

/** What one stored line holds: the record's identity and its data. */
export interface StoredRecord {
  id: number;
  owner: number;
  at: number;
  data: Record<string, unknown>;
}

export interface WrittenObject {
  key: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** The retention of the archive in days: any value, clamped to at least 180 (invalid values mean 180). */
export function clampArchiveDays(days: number | undefined): number {
  return days !== undefined && Number.isFinite(days) && days > MIN_ARCHIVE_DAYS ? Math.floor(days) : MIN_ARCHIVE_DAYS;
}

/** A part's name: zero-padded; the objects' negative id blocks (decision 248) as `n` and the padded magnitude. */
const pad = (part: number) => (part < 0 ? `n${String(-part).padStart(6, '0')}` : String(part).padStart(6, '0'));

/** The key of a customer batch. */
export const customerKey = (kind: ArchiveKind, day: string, owner: number, part: number): string =>
  `${ARCHIVE_PREFIX}/${kind}/${day}/${owner}/${pad(part)}.ndjson.gz`;

/**
 * The exit index's bucket of an address: its /24 (IPv4) or /48 (IPv6). A batch of leases touches few buckets (one
 * object each) where it touches many addresses, so the index costs a few R2 writes per batch, not one per exit.
 */
export function exitBucket(ip: string): string {
  if (ip.includes(':')) {
    const [head = '', tail = ''] = ip.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const full = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
    return full
      .slice(0, 3)
      .map((h) => h.padStart(4, '0'))
      .join('-');
  }
  return ip.split('.').slice(0, 3).join('.');
}

/** The key prefix of the exit index for an address's bucket on a day. */
export const exitPrefix = (day: string, ip: string): string => `${ARCHIVE_PREFIX}/exit/${day}/${exitBucket(ip)}/`;

const exitKey = (day: string, ip: string, owner: number, part: number) =>
  `${exitPrefix(day, ip)}${owner}-${pad(part)}.ndjson.gz`;

/**
 * The key of a node's exit index object (decision 255): the leases of one node on one /24 (or /48) and day whose
 * window reaches that day from the hour `hour` (北京时间: their start's hour on their first day, 0 on the days after).
 */
const nodeExitKey = (day: string, ip: string, nodeId: number, hour: number) =>
  `${exitPrefix(day, ip)}n${nodeId}-h${String(hour).padStart(2, '0')}.ndjson.gz`;

/** The hour a node exit index object names, from its key (null: a customer's object, which holds any hour). */
const nodeExitHour = (key: string): number | null => {
  const m = /\/n\d+-h(\d{2})\.ndjson\.gz$/.exec(key);
  return m ? Number(m[1]) : null;
};

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(body: ReadableStream): Promise<string> {
  return new Response(body.pipeThrough(new DecompressionStream('gzip'))).text();
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const bufHex = (b: ArrayBuffer | undefined) =>
  b ? [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('') : '';

/** The records of one batch object (empty when it does not exist). */
export async function readArchiveObject(bucket: R2Bucket, key: string): Promise<StoredRecord[]> {
  const obj = await bucket.get(key);
  if (!obj) return [];
  const text = await gunzip(obj.body);
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as StoredRecord);
}

/** Put a merged batch, then check what R2 holds (size and SHA-256); throws on any difference. */
async function putVerified(bucket: R2Bucket, key: string, records: StoredRecord[]): Promise<WrittenObject> {
  const body = await gzip(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const sha256 = await sha256Hex(body);
  await bucket.put(key, body, {
    sha256,
    httpMetadata: { contentType: 'application/x-ndjson' },
    customMetadata: { rows: String(records.length), sha256 },
  });
  const head = await bucket.head(key);
  if (!head || head.size !== body.byteLength || bufHex(head.checksums.sha256) !== sha256) {
    throw new Error(`archive verify failed: ${key}`);
  }
  return { key, rows: records.length, bytes: body.byteLength, sha256 };
}

interface Group {
  key: string;
  kind: ArchiveKind | 'exit';
  day: string;
  owner: number;
  part: number;
  records: StoredRecord[];
}

/** The days (北京时间) a lease's window touches, at most EXIT_INDEX_MAX_DAYS. */
function leaseDays(assignedAt: number, expiresAt: number): string[] {
  const days: string[] = [];
  let t = shanghaiDayStart(shanghaiDay(assignedAt));
  while (t <= expiresAt && days.length < EXIT_INDEX_MAX_DAYS) {
    days.push(shanghaiDay(t));
    t += DAY_MS;
  }
  return days.length > 0 ? days : [shanghaiDay(assignedAt)];
}

/**
 * Write records to the archive (see THE WRITER'S CONTRACT at the top): merged into their partitions, verified, the
 * customer batches recorded in the manifest. Resolves with the objects written; throws if any of them failed.
 */
export async function writeArchive(
  bucket: R2Bucket,
  db: D1Database,
  records: ArchiveRecord[],
  now: number,
  opts: { exitIndex?: boolean } = {},
): Promise<WrittenObject[]> {
  const groups = new Map<string, Group>();
  const add = (g: Omit<Group, 'records'>, r: StoredRecord) => {
    let hit = groups.get(g.key);
    if (!hit) {
      hit = { ...g, records: [] };
      groups.set(g.key, hit);
    }
    hit.records.push(r);
  };
  for (const r of records) {
    const part = archivePart(r);
    const day = shanghaiDay(r.at);
    const stored: StoredRecord = { id: r.id, owner: r.owner, at: r.at, data: r.data };
    add({ key: customerKey(r.kind, day, r.owner, part), kind: r.kind, day, owner: r.owner, part }, stored);
    if (r.kind === 'lease' && opts.exitIndex !== false) {
      const ip = String(r.data.ip);
      for (const d of leaseDays(Number(r.data.assignedAt), Number(r.data.expiresAt))) {
        add({ key: exitKey(d, ip, r.owner, part), kind: 'exit', day: d, owner: r.owner, part }, stored);
      }
    }
  }
  const written: WrittenObject[] = [];
  const manifest: ArchiveObjectRow[] = [];
  for (const g of groups.values()) {
    const w = await mergeVerified(bucket, g.key, g.records);
    if (g.kind !== 'exit') manifest.push({ ...w, kind: g.kind, day: g.day, owner: g.owner, part: g.part });
    written.push(w);
  }
  // One D1 statement for the batch's customer objects, written only after every object was verified.
  await recordArchiveObjects(db, manifest, now);
  return written;
}

/** Merge records into the object at `key` by (owner, id) (a record written again replaces itself), put, verify. */
async function mergeVerified(bucket: R2Bucket, key: string, records: StoredRecord[]): Promise<WrittenObject> {
  const merged = new Map<string, StoredRecord>();
  for (const r of await readArchiveObject(bucket, key)) merged.set(`${r.owner}:${r.id}`, r);
  for (const r of records) merged.set(`${r.owner}:${r.id}`, r);
  const sorted = [...merged.values()].sort((a, b) => a.owner - b.owner || a.id - b.id);
  return putVerified(bucket, key, sorted);
}

/**
 * Write one node's ended leases (kind `lease` records, each with its customer as owner) into the exit index (decision
 * 255): one object per /24, day and hour of the node, merged by (owner, id) and verified like every batch. A
 * customer's leases of a day spread over the whole pool's blocks, so indexing them from the customer's batches cost
 * one object per customer and block (≈ 570 for a batch of 1,000 leases on 200,000 exits); from the node that ran
 * them it costs the node's blocks × 24 per day however many customers there are. Throws if any object failed.
 */
export async function writeExitIndex(
  bucket: R2Bucket,
  nodeId: number,
  records: ArchiveRecord[],
): Promise<WrittenObject[]> {
  const groups = new Map<string, StoredRecord[]>();
  for (const r of records) {
    const ip = String(r.data.ip);
    const start = Number(r.data.assignedAt);
    const stored: StoredRecord = { id: r.id, owner: r.owner, at: r.at, data: r.data };
    for (const d of leaseDays(start, Number(r.data.expiresAt))) {
      const hour = Math.max(0, Math.floor((start - shanghaiDayStart(d)) / HOUR_MS));
      const key = nodeExitKey(d, ip, nodeId, hour);
      const rows = groups.get(key);
      if (rows) rows.push(stored);
      else groups.set(key, [stored]);
    }
  }
  const written: WrittenObject[] = [];
  for (const [key, rows] of groups) written.push(await mergeVerified(bucket, key, rows));
  return written;
}

/**
 * Newest first, as the object's pages order its rows (by time, then the later row first): of one instant, the later of
 * the objects' calls or leases has the more negative number (decision 247), the later of D1's the larger id.
 */
export const newestFirst = (a: StoredRecord, b: StoredRecord): number =>
  b.at - a.at || (a.id < 0 && b.id < 0 ? a.id - b.id : b.id - a.id);

/** A customer's archived batches of a kind over a day range (inclusive), newest first, from the manifest. */
export const archivedObjects = (
  db: D1Database,
  r: { owner: number; kind: ArchiveKind; fromDay: string; toDay: string },
): Promise<ArchiveObjectRow[]> => listArchiveObjects(db, r);

/**
 * A customer's archived records of a kind dated in [from, to), newest first, reading at most `maxRows` records
 * (`truncated` says the range held more).
 */
export async function archivedRecords(
  bucket: R2Bucket,
  db: D1Database,
  r: { owner: number; kind: ArchiveKind; from: number; to: number; maxRows: number },
): Promise<{ records: StoredRecord[]; truncated: boolean }> {
  const objects = await listArchiveObjects(db, {
    owner: r.owner,
    kind: r.kind,
    fromDay: shanghaiDay(r.from),
    toDay: shanghaiDay(r.to - 1),
  });
  const out: StoredRecord[] = [];
  for (const o of objects) {
    const rows = (await readArchiveObject(bucket, o.key)).filter((x) => x.at >= r.from && x.at < r.to);
    rows.sort(newestFirst);
    for (const x of rows) {
      if (out.length >= r.maxRows) return { records: out, truncated: true };
      out.push(x);
    }
  }
  return { records: out, truncated: false };
}

/**
 * One page of a customer's archived records of a kind (newest day first; within a day newest first), skipping
 * `offset` records by the manifest's counts so only the batches the page needs are read. `total` counts them all.
 */
export async function archivedPage(
  bucket: R2Bucket,
  db: D1Database,
  r: { owner: number; kind: ArchiveKind; fromDay: string; toDay: string; offset: number; limit: number },
): Promise<{ total: number; list: StoredRecord[] }> {
  const objects = await listArchiveObjects(db, r);
  const total = objects.reduce((s, o) => s + o.rows, 0);
  const list: StoredRecord[] = [];
  let skip = r.offset;
  for (const o of objects) {
    if (list.length >= r.limit) break;
    if (skip >= o.rows) {
      skip -= o.rows;
      continue;
    }
    const rows = await readArchiveObject(bucket, o.key);
    rows.sort(newestFirst);
    for (const x of rows.slice(skip)) {
      if (list.length >= r.limit) break;
      list.push(x);
    }
    skip = 0;
  }
  return { total, list };
}

/**
 * The archived leases of an exit address whose window holds `at` (with `slackMs` after the end), newest first: one
 * list of the address's bucket on that day and a read of each of its objects.
 */
export async function traceExitArchive(
  bucket: R2Bucket,
  ip: string,
  at: number,
  slackMs: number,
): Promise<StoredRecord[]> {
  const out = new Map<string, StoredRecord>();
  const day = shanghaiDay(at);
  // A node's object of an hour after `at` holds leases that began after it (decision 255): never read.
  const hourOfAt = Math.floor((at - shanghaiDayStart(day)) / HOUR_MS);
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: exitPrefix(day, ip), ...(cursor ? { cursor } : {}) });
    const keys = listed.objects.map((o) => o.key).filter((k) => (nodeExitHour(k) ?? 0) <= hourOfAt);
    const held = (r: StoredRecord) =>
      r.data.ip === ip && Number(r.data.assignedAt) <= at && Number(r.data.expiresAt) > at - slackMs;
    // Read side by side (the runtime queues reads past its limit of open connections), each object's rows filtered as
    // it is read, so only the address's leases stay in memory.
    for (const rows of await Promise.all(keys.map(async (k) => (await readArchiveObject(bucket, k)).filter(held)))) {
      for (const r of rows) out.set(`${r.owner}:${r.id}`, r);
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return [...out.values()].sort((a, b) => Number(b.data.assignedAt) - Number(a.data.assignedAt));
}

/**
 * Delete the archive's days older than the retention (clamped to at least 180 days), every kind and the exit index,
 * and their manifest rows. Returns the objects deleted.
 */
export async function expireArchive(bucket: R2Bucket, db: D1Database, days: number, now: number): Promise<number> {
  const keepFrom = shanghaiDay(now - clampArchiveDays(days) * DAY_MS);
  let deleted = 0;
  for (const kind of ['extract', 'lease', 'usage', 'refusal', 'exit']) {
    let cursor: string | undefined;
    const oldDays: string[] = [];
    do {
      const page = await bucket.list({
        prefix: `${ARCHIVE_PREFIX}/${kind}/`,
        delimiter: '/',
        ...(cursor ? { cursor } : {}),
      });
      for (const p of page.delimitedPrefixes) {
        const day = p.slice(`${ARCHIVE_PREFIX}/${kind}/`.length, -1);
        if (day < keepFrom) oldDays.push(day);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    for (const day of oldDays) {
      // Listed again from the start after each delete (a cursor may skip keys once the ones before it are gone).
      for (;;) {
        const page = await bucket.list({ prefix: `${ARCHIVE_PREFIX}/${kind}/${day}/` });
        const keys = page.objects.map((o) => o.key);
        if (keys.length === 0) break;
        await bucket.delete(keys);
        deleted += keys.length;
        if (!page.truncated) break;
      }
    }
  }
  await dropArchiveObjectsBefore(db, keepFrom);
  return deleted;
}
