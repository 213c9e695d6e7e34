// Queries for the operator's egress rules (migrations/0027; docs/decisions/194): the console's list and edits (each
// with its audit row and the policy's change time in one batch) and the contract's read.
import type { EgressRuleKind } from '../../lib/egress-rules';
import { type AuditWrite, auditInsertStatement } from './console-audit';

export interface EgressRule {
  id: number;
  kind: EgressRuleKind;
  value: string;
  note: string;
  createdAt: number;
}

interface RuleRow {
  id: number;
  kind: EgressRuleKind;
  value: string;
  note: string;
  created_at: number;
}

const mapRule = (r: RuleRow): EgressRule => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  note: r.note,
  createdAt: r.created_at,
});

/** Stamps the rule set's change time when the statement before it changed a row (the row is made if missing). */
const policyChangedStatement = (db: D1Database, now: number) =>
  db
    .prepare(
      `INSERT INTO egress_policy (id, updated_at) SELECT 1, ? WHERE changes() > 0
       ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at`,
    )
    .bind(now);

/** Every rule, by kind then value (the set is small: operators type them one by one). */
export async function listEgressRules(db: D1Database): Promise<EgressRule[]> {
  const { results } = await db
    .prepare('SELECT id, kind, value, note, created_at FROM egress_rules ORDER BY kind, value LIMIT 2000')
    .all<RuleRow>();
  return results.map(mapRule);
}

export async function findEgressRule(db: D1Database, id: number): Promise<EgressRule | null> {
  const row = await db
    .prepare('SELECT id, kind, value, note, created_at FROM egress_rules WHERE id = ?')
    .bind(id)
    .first<RuleRow>();
  return row ? mapRule(row) : null;
}

/**
 * Adds a rule; false (nothing written) when the same kind and value exist. The policy's change time and the audit
 * row are written only when the rule was inserted.
 */
export async function insertEgressRule(
  db: D1Database,
  rule: { kind: EgressRuleKind; value: string; note: string; now: number },
  audit: AuditWrite,
): Promise<boolean> {
  const [ins] = await db.batch([
    db
      .prepare(
        `INSERT INTO egress_rules (kind, value, note, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (kind, value) DO NOTHING`,
      )
      .bind(rule.kind, rule.value, rule.note, rule.now),
    policyChangedStatement(db, rule.now),
    auditInsertStatement(db, audit.actor, audit.entry, { sql: 'changes() > 0' }),
  ]);
  return (ins?.meta.changes ?? 0) > 0;
}

/** Deletes a rule; false (nothing written) when it is gone already. */
export async function deleteEgressRule(db: D1Database, id: number, now: number, audit: AuditWrite): Promise<boolean> {
  const [del] = await db.batch([
    db.prepare('DELETE FROM egress_rules WHERE id = ?').bind(id),
    policyChangedStatement(db, now),
    auditInsertStatement(db, audit.actor, audit.entry, { sql: 'changes() > 0' }),
  ]);
  return (del?.meta.changes ?? 0) > 0;
}

/**
 * The rules for a node's contract when they changed after `since` (every rule, or none when the set is empty), else
 * null; a negative `since` reads them all (a full snapshot). One statement: a marker row says the set changed, the
 * rule rows follow.
 */
export async function egressRulesChangedSince(
  db: D1Database,
  since: number,
): Promise<{ kind: EgressRuleKind; value: string }[] | null> {
  if (since < 0) {
    const all = await db.prepare('SELECT kind, value FROM egress_rules').all<{ kind: EgressRuleKind; value: string }>();
    return all.results;
  }
  const { results } = await db
    .prepare(
      `SELECT '' AS kind, '' AS value FROM egress_policy WHERE id = 1 AND updated_at > ?1
       UNION ALL
       SELECT kind, value FROM egress_rules WHERE EXISTS (SELECT 1 FROM egress_policy WHERE id = 1 AND updated_at > ?1)`,
    )
    .bind(since)
    .all<{ kind: EgressRuleKind | ''; value: string }>();
  if (results.length === 0) return null;
  return results.filter((r): r is { kind: EgressRuleKind; value: string } => r.kind !== '');
}
