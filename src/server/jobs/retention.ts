// Daily, isolated steps (runSteps): the archive steps copy the objects' and D1's delivery history past the hot window
// (7 days) to R2 and delete it only once the copy is verified (archive/objects.ts, archive/copy.ts); the archive's days older than the
// retention go (archive/store.ts, never below 180 days); then the retention purge below; last, private files that no
// row names (an upload whose Worker died before its row was written) are swept (domain/stored-files.ts).
//
// The retention purge. Extraction logs, IP assignments, node usage reports, SMS codes and outbox, and login
// attempts older than RETENTION_DAYS (never below 180, the legal minimum for access logs; default 180) are deleted in
// batches of BATCH rows, at most MAX_BATCHES per table per run, so no statement holds D1 for long and a large backlog
// is worked off over several runs. Each run is recorded (retention_runs) and shown on the console's dashboard.
import { archiveHotHistory, MAX_OBJECTS } from '../archive/copy';
import { archiveObjectHistory, type ObjectArchiveResult } from '../archive/objects';
import { ARCHIVE_KINDS } from '../db/archive-rows';
import { expireArchive } from '../archive/store';
import { finishRetentionRun, purgeBatch, RETENTION_TABLES, startRetentionRun } from '../db/console-retention';
import { sweepOrphanFiles } from '../domain/stored-files';
import { type Bindings, readConfig } from '../env';
import { type Job, runSteps } from './job';
import { DAY_MS } from '../../lib/time';

export const MIN_RETENTION_DAYS = 180;
const BATCH = 500;
const MAX_BATCHES = 40;

/** The retention in days from RETENTION_DAYS: an integer, never below 180 (invalid or lower values mean 180). */
export function retentionDays(env: Bindings): number {
  const n = readConfig(env).retentionDays;
  return n !== undefined && n > MIN_RETENTION_DAYS ? n : MIN_RETENTION_DAYS;
}

/** Purge what the retention allows; returns the rows removed per table. */
export async function purgeRetained(db: D1Database, days: number, now: number): Promise<Record<string, number>> {
  const cutoff = now - Math.max(days, MIN_RETENTION_DAYS) * DAY_MS;
  const runId = await startRetentionRun(db, now, Math.max(days, MIN_RETENTION_DAYS));
  const removed: Record<string, number> = {};
  for (const t of RETENTION_TABLES) {
    let total = 0;
    try {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await purgeBatch(db, t, cutoff, BATCH);
        total += n;
        if (n < BATCH) break;
      }
    } catch (err) {
      // One table failing never stops the others; the next run tries again.
      console.error(
        JSON.stringify({
          level: 'error',
          where: 'job-step',
          job: 'retention-purge',
          step: t.table,
          error: String(err),
        }),
      );
    }
    removed[t.table] = total;
  }
  await finishRetentionRun(db, runId, Date.now(), removed);
  return removed;
}

/**
 * The archive's two steps: the objects' history past the hot window (archive/objects.ts, decision 248), then D1's
 * (archive/copy.ts). A customer's D1 usage rows wait while its object's leases before the cutoff are not all archived
 * (all of them, or from the start of a lease its object still holds; all customers' when the objects' step failed):
 * each lease is stamped with the usage it owns, read from D1.
 */
function archiveSteps(env: Bindings, now: number) {
  let objects: ObjectArchiveResult | null = null;
  return {
    objectsArchived: async () => {
      const r = await archiveObjectHistory(
        { files: env.FILES, db: env.DB, records: env.CUSTOMER_RECORDS, nodes: env.NODE_LEASES },
        now,
      );
      objects = r;
      return r;
    },
    archived: () =>
      archiveHotHistory(
        env.FILES,
        env.DB,
        now,
        objects
          ? // One budget of R2 objects per run for both steps (each object is three R2 calls: subrequests).
            { usageHeldFrom: objects.usageHeldFrom, maxObjects: Math.max(0, MAX_OBJECTS - objects.objects) }
          : { kinds: ARCHIVE_KINDS.filter((k) => k !== 'usage') },
      ),
  };
}

/** Hourly: the archive steps alone, so a busy day's history leaves the hot stores in 24 smaller runs (each bounded). */
export const archiveJob: Job = {
  name: 'archive',
  run: (env, now) => runSteps('archive', archiveSteps(env, now)),
};

/**
 * Daily: the archive's retention and the purge. The archive steps run in the hourly job only (decision 256): two runs
 * at once (03:07 and 03:17) would merge into the same R2 objects side by side, and one could put back an older merge.
 */
export const retentionJob: Job = {
  name: 'retention-purge',
  run: (env, now) =>
    runSteps('retention-purge', {
      archiveExpired: () => expireArchive(env.FILES, env.DB, retentionDays(env), now),
      purged: () => purgeRetained(env.DB, retentionDays(env), now),
      orphanFiles: () => sweepOrphanFiles(env.FILES, env.DB, now),
    }),
};
