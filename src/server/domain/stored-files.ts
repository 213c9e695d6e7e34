// Private files in R2 that a D1 row names (docs/decisions/239): invoice PDFs and company licence images. Each is put
// in R2 first and named by its row after; the request deletes the file again when the row cannot be written, but a
// Worker that dies in between leaves a file nothing names. The daily sweep removes such files once they are older
// than an hour (an upload still on its way to D1 is younger), a bounded number of pages per run.
import 'server-only';
import { HOUR_MS } from '../../lib/time';
import { namedFileKeys, type StoredFileKind } from '../db/stored-files';

/** Where each kind of private file lives in the bucket (the one place the prefixes are written). */
export const STORED_FILE_PREFIX: Record<StoredFileKind, string> = {
  invoicePdf: 'private/invoices/',
  companyLicence: 'private/company-licence/',
};

/** A file younger than this may still be on its way to its row. */
export const ORPHAN_FILE_AGE_MS = HOUR_MS;
const PAGE = 500;
const MAX_PAGES = 20;

/** Delete the files of every kind that no row names and that are older than ORPHAN_FILE_AGE_MS; counts per kind. */
export async function sweepOrphanFiles(
  bucket: R2Bucket,
  db: D1Database,
  now: number,
): Promise<Record<StoredFileKind, number>> {
  const removed = { invoicePdf: 0, companyLicence: 0 };
  for (const kind of Object.keys(STORED_FILE_PREFIX) as StoredFileKind[]) {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await bucket.list({
        prefix: STORED_FILE_PREFIX[kind],
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      const old = listed.objects.filter((o) => o.uploaded.getTime() < now - ORPHAN_FILE_AGE_MS).map((o) => o.key);
      const named = await namedFileKeys(db, kind, old);
      const orphans = old.filter((k) => !named.has(k));
      if (orphans.length > 0) await bucket.delete(orphans);
      removed[kind] += orphans.length;
      if (!listed.truncated) break;
      cursor = listed.cursor;
    }
  }
  return removed;
}
