// Audited operator writes (docs/decisions/102): the change and its audit row go to D1 in one batch, so a change never
// lands without its row and a row never records a change that did not happen.
import { type AuditActor, type AuditEntry, auditInsertStatement } from '../db/operators-audit';
import type { OperatorPrincipal } from './operators';

/** The audit actor for an operator acting from a client IP at a time. */
export const auditActor = (op: OperatorPrincipal, ip: string, now: number): AuditActor => ({
  operatorId: op.id,
  operatorName: op.username,
  role: op.role,
  ip,
  now,
});

export interface AuditedWriteResult {
  /** Rows changed by the last change statement. */
  changed: number;
  results: D1Result[];
}

/**
 * Run `changes` and the audit INSERT as one batch (one transaction). With `requireChange` the audit row is written
 * only when the last change statement changed a row (a conditional UPDATE that matched nothing records nothing).
 * If any statement fails, nothing is written.
 */
export async function auditedWrite(
  db: D1Database,
  actor: AuditActor,
  entry: AuditEntry,
  changes: D1PreparedStatement[],
  options: { requireChange?: boolean } = {},
): Promise<AuditedWriteResult> {
  const audit = auditInsertStatement(db, actor, entry, options.requireChange ? { sql: 'changes() > 0' } : undefined);
  const results = await db.batch([...changes, audit]);
  const last = results[changes.length - 1];
  return { changed: last?.meta.changes ?? 0, results };
}
