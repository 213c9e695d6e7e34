// Queries for operator-managed path redirects.
import { type AuditWrite, auditInsertStatement } from './console-audit';

export interface RedirectRule {
  fromPath: string;
  toPath: string;
  status: 301 | 302 | 307 | 308;
  updatedAt: number;
}

interface RedirectRow {
  from_path: string;
  to_path: string;
  status: 301 | 302 | 307 | 308;
  updated_at: number;
}

const mapRule = (r: RedirectRow): RedirectRule => ({
  fromPath: r.from_path,
  toPath: r.to_path,
  status: r.status,
  updatedAt: r.updated_at,
});

/** The rule for an exact path, or null. */
export async function findRedirect(db: D1Database, fromPath: string): Promise<RedirectRule | null> {
  const row = await db
    .prepare('SELECT from_path, to_path, status, updated_at FROM path_redirects WHERE from_path = ?')
    .bind(fromPath)
    .first<RedirectRow>();
  return row ? mapRule(row) : null;
}

/** Create or replace a rule. */
export async function upsertRedirect(db: D1Database, rule: RedirectRule, audit?: AuditWrite): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO path_redirects (from_path, to_path, status, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(from_path) DO UPDATE SET to_path = excluded.to_path, status = excluded.status, updated_at = excluded.updated_at`,
      )
      .bind(rule.fromPath, rule.toPath, rule.status, rule.updatedAt),
    ...(audit ? [auditInsertStatement(db, audit.actor, audit.entry)] : []),
  ]);
}

/** Delete a rule; true when one existed. */
export async function deleteRedirect(db: D1Database, fromPath: string, audit?: AuditWrite): Promise<boolean> {
  const [res] = await db.batch([
    db.prepare('DELETE FROM path_redirects WHERE from_path = ?').bind(fromPath),
    // Recorded only when a rule was deleted.
    ...(audit ? [auditInsertStatement(db, audit.actor, audit.entry, { sql: 'changes() > 0' })] : []),
  ]);
  return (res?.meta.changes ?? 0) > 0;
}

/** All rules, newest first. */
export async function listRedirects(db: D1Database): Promise<RedirectRule[]> {
  const { results } = await db
    .prepare('SELECT from_path, to_path, status, updated_at FROM path_redirects ORDER BY updated_at DESC LIMIT 500')
    .all<RedirectRow>();
  return results.map(mapRule);
}
