// The catalogue and public content a fresh deployment imports (scripts/catalogue-import.mjs): the versioned data in
// src/server/seed (meals, activities, regions, coupons; help centre, notices, links, images, regions page), without
// any row about customers. Idempotent: existing rows keep their ids, content rows are updated in place.
import { demoCatalogueStatements } from './commerce';
import { demoContentStatements } from './content-sql';
import { insert } from './sql';

const withoutSemicolon = (s: string) => s.trim().replace(/;$/, '');

/** One SQL statement per entry (no trailing semicolons). */
export function catalogueImportStatements(now: number): string[] {
  return [...demoContentStatements(now), ...demoCatalogueStatements()].map(withoutSemicolon);
}

/** The same as one script for wrangler d1 execute, with its audit row. */
export function catalogueImportSql(now: number): string {
  const list = catalogueImportStatements(now);
  return [
    ...list.map((s) => `${s};`),
    ...insert('audit_log', [
      {
        operator_id: null,
        operator_name: 'cli',
        role: 'none',
        action: 'Admin.CatalogueImport',
        target: 'catalogue',
        after_summary: JSON.stringify({ statements: list.length }),
        reason: 'npm run catalogue:import',
        client_ip: 'cli',
        created_at: now,
      },
    ]),
  ].join('\n');
}
