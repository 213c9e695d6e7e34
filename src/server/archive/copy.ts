// Copy-then-delete (docs/decisions/220): the daily job moves D1's delivery history past the hot window to the R2
// archive. For each kind, a batch of the oldest eligible rows is written (store.ts: merged into deterministic keys,
// verified by size and SHA-256), and only then deleted from D1. A crash between the two leaves the rows in both
// places; the next run selects them again, rewrites the same keys (merge by id: no duplicate) and deletes them. The
// kind's mark (archive_state.through) moves forward only after a delete, so reads never miss a row.
import 'server-only';
import { DAY_MS, shanghaiMidnight } from '../../lib/time';
import {
  ARCHIVE_KINDS,
  ARCHIVE_SOURCE,
  type ArchiveKind,
  advanceArchiveThrough,
  deleteArchivedRows,
  oldestLeftBefore,
  rowsToArchive,
  type SourceRow,
} from '../db/archive-rows';
import { type ArchiveRecord, writeArchive } from './store';

/** Days of delivery history D1 keeps before the archive takes it (the hot window). */
export const HOT_DAYS = 7;
const BATCH = 1_000;
const MAX_BATCHES = 50;
/**
 * Objects one run may write: each costs a get, a put and a head (R2 calls count against the invocation's subrequests,
 * 10,000 on Workers Paid), and a lease batch writes one exit-index object per exit it touches. The rest waits for the
 * next run (hourly).
 */
export const MAX_OBJECTS = 2_500;

/** Where the hot window starts: 北京时间 midnight HOT_DAYS days before today's. */
export const hotCutoff = (now: number, hotDays = HOT_DAYS): number => shanghaiMidnight(now) - hotDays * DAY_MS;

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A D1 row as an archive record: columns in camelCase, a lease's owned usage spread into it. */
export function toArchiveRecord(kind: ArchiveKind, row: SourceRow): ArchiveRecord {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'owned') Object.assign(data, JSON.parse(String(v ?? '{}')));
    else data[camel(k)] = v;
  }
  const s = ARCHIVE_SOURCE[kind];
  return { kind, id: row.id, owner: Number(row[s.owner] ?? 0), at: Number(row[s.at]), data };
}

export interface CopyOptions {
  hotDays?: number;
  batch?: number;
  maxBatches?: number;
  maxObjects?: number;
  /**
   * The kinds to move (all when left out): the job leaves D1's usage rows when the objects' leases before the cutoff
   * are not all archived yet, so each of those leases is stamped from all its usage (archive/objects.ts).
   */
  kinds?: readonly ArchiveKind[];
  /** Per customer, the start of the oldest lease its records object still holds: its usage rows from then on wait. */
  usageHeldFrom?: [userId: number, from: number][];
  /** Runs after a batch is copied and verified, before its rows are deleted (tests put a crash here). */
  afterCopy?: (kind: ArchiveKind, ids: number[]) => Promise<void> | void;
}

/** Move every kind's rows older than the hot window from D1 to the archive; returns rows moved per kind. */
export async function archiveHotHistory(
  bucket: R2Bucket,
  db: D1Database,
  now: number,
  opts: CopyOptions = {},
): Promise<Record<ArchiveKind, number>> {
  const cutoff = hotCutoff(now, opts.hotDays);
  const moved = { lease: 0, extract: 0, usage: 0, refusal: 0 } as Record<ArchiveKind, number>;
  let objects = 0;
  // Leases first: each is stamped with its usage while those rows are still in D1; the usage rows follow it out.
  for (const kind of ARCHIVE_KINDS) {
    if (opts.kinds && !opts.kinds.includes(kind)) continue;
    for (let i = 0; i < (opts.maxBatches ?? MAX_BATCHES); i++) {
      if (objects >= (opts.maxObjects ?? MAX_OBJECTS)) break;
      const rows = await rowsToArchive(db, kind, cutoff, opts.batch ?? BATCH, opts.usageHeldFrom);
      if (rows.length === 0) break;
      const written = await writeArchive(
        bucket,
        db,
        rows.map((r) => toArchiveRecord(kind, r)),
        now,
      );
      objects += written.length;
      const ids = rows.map((r) => r.id);
      await opts.afterCopy?.(kind, ids);
      moved[kind] += await deleteArchivedRows(db, kind, ids);
      if (rows.length < (opts.batch ?? BATCH)) break;
    }
    // Everything dated before the oldest row still here (or before the cutoff) has left D1 for the archive.
    await advanceArchiveThrough(db, kind, (await oldestLeftBefore(db, kind, cutoff)) ?? cutoff, now);
  }
  return moved;
}
