// One D1 batch (one transaction) whose results are read by the statement that produced them, never by position: a
// statement added to or removed from the list cannot shift what another result means.
import 'server-only';

export interface BatchResults {
  /** Every result, in the order of the statements. */
  results: D1Result[];
  /** The result of this statement of the batch (undefined when it was not in the batch). */
  of(statement: D1PreparedStatement | undefined): D1Result | undefined;
  /** The rows this statement of the batch changed (0 when it was not in the batch). */
  changes(statement: D1PreparedStatement | undefined): number;
}

/** Run the statements as one batch and read each result by its statement. */
export async function runBatch(db: D1Database, statements: D1PreparedStatement[]): Promise<BatchResults> {
  const results = await db.batch(statements);
  const of = (statement: D1PreparedStatement | undefined) =>
    statement === undefined ? undefined : results[statements.indexOf(statement)];
  return { results, of, changes: (statement) => of(statement)?.meta.changes ?? 0 };
}
