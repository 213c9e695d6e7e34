// The SQL building blocks the fixture modules (tests/helpers/*.ts) share: counting rows under an optional filter (each
// filter field that is set adds its clause) and splitting a seed script into statements. For the fixture modules only:
// the integration tests call named fixtures, never these.
import { env } from 'cloudflare:test';

/** One condition of a filter: a clause with its binds, or undefined when the filter field is not set. */
export type Cond = [clause: string, binds: unknown[]] | undefined;

/** `clause` with `value` when the value is set. */
export const when = (clause: string, value: unknown): Cond => (value === undefined ? undefined : [clause, [value]]);

/** ` WHERE a AND b …` (or nothing) and the binds, for the conditions that are set. */
export function where(conds: Cond[]): { sql: string; binds: unknown[] } {
  const set = conds.filter((c): c is [string, unknown[]] => c !== undefined);
  return {
    sql: set.length ? ` WHERE ${set.map(([c]) => c).join(' AND ')}` : '',
    binds: set.flatMap(([, b]) => b),
  };
}

/** How many rows of a table meet the conditions that are set (all rows when none is). */
export async function count(table: string, conds: Cond[] = []): Promise<number> {
  const w = where(conds);
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}${w.sql}`)
    .bind(...w.binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The statements of a seed script (split at ";" + newline, trimmed, without trailing semicolons or empty entries). */
export const seedStatements = (sql: string): string[] =>
  sql
    .split(/;\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean);
