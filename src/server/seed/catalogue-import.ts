// The catalogue and public content a fresh deployment imports (scripts/catalogue-import.mjs): the versioned data in
// src/server/seed (meals, activities, regions, coupons; help centre, notices, links, images, regions page), without
// any row about customers. Idempotent: existing rows keep their ids, content rows are updated in place.
import { demoCommerceSql } from './commerce';
import { demoContentStatements } from './content-sql';

const statements = (sql: string) =>
  sql
    .split(/;\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean);

/** One SQL statement per entry (no trailing semicolons). */
export function catalogueImportStatements(now: number): string[] {
  // Content entries are already one statement each (their HTML may hold ";\n"); the catalogue script is split.
  return [
    ...demoContentStatements(now).map((s) => s.trim().replace(/;$/, '')),
    ...statements(demoCommerceSql(now)),
  ].filter(
    // Demo customers' coupons and anything else about users stay in the development seed.
    (s) => !/\b(users|user_coupons|sessions)\b/.test(s),
  );
}

/** The same as one script for wrangler d1 execute, with its audit row. */
export function catalogueImportSql(now: number): string {
  const list = catalogueImportStatements(now);
  return [
    ...list.map((s) => `${s};`),
    `INSERT INTO audit_log (operator_id, operator_name, role, action, target, after_summary, reason, client_ip, created_at)
  VALUES (NULL, 'cli', 'none', 'Admin.CatalogueImport', 'catalogue', '${JSON.stringify({ statements: list.length })}', 'npm run catalogue:import', 'cli', ${now});`,
  ].join('\n');
}
