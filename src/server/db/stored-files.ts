// Which private R2 files a D1 row still names (docs/decisions/239): a file is put in R2 before the row that names it
// is written, so a Worker that dies in between (or a failed clean-up) leaves a file nothing names; the daily sweep
// asks here before deleting one.
import 'server-only';

/** The kinds of private file and the column that names each (a fixed list: never built from input). */
const NAMED_BY = {
  invoicePdf: 'SELECT pdf_key AS k FROM invoice_requests WHERE pdf_key IN (SELECT value FROM json_each(?1))',
  companyLicence: 'SELECT r2_key AS k FROM company_licence_uploads WHERE r2_key IN (SELECT value FROM json_each(?1))',
} as const;

export type StoredFileKind = keyof typeof NAMED_BY;

/** The keys among `keys` that a row of `kind` names. */
export async function namedFileKeys(db: D1Database, kind: StoredFileKind, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { results } = await db.prepare(NAMED_BY[kind]).bind(JSON.stringify(keys)).all<{ k: string }>();
  return new Set(results.map((r) => r.k));
}
