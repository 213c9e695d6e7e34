// Audited operator writes (docs/decisions/102): the change and its audit row go to D1 in one batch, so a change never
// lands without its row and a row never records a change that did not happen.
import { AppError } from '../../lib/errors';
import type { MessageCode } from '../../lib/messages';
import { type BatchResults, runBatch } from '../db/batch';
import {
  type AuditActor,
  type AuditEntry,
  auditInsertStatement,
  isRefusedWrite,
  refusedWriteGuardStatement,
} from '../db/console-audit';
import type { OperatorPrincipal } from './operator-principal';

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
  /** The result of one statement of the batch. */
  of: BatchResults['of'];
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
  const batch = await runBatch(db, [...changes, audit]);
  return { changed: batch.changes(changes.at(-1)), results: batch.results, of: batch.of };
}

/**
 * auditedWrite for a change that must happen: the audit row only when the last statement changed a row, and when it
 * changed nothing (its conditions no longer hold), nothing at all is written, the statements before it included, and
 * `refusal` is thrown. The batch ends with refusedWriteGuard, which fails (rolling the transaction back) exactly when
 * the audit row was not written.
 */
export async function auditedChange(
  db: D1Database,
  actor: AuditActor,
  entry: AuditEntry,
  changes: D1PreparedStatement[],
  refusal: MessageCode,
): Promise<AuditedWriteResult> {
  const audit = auditInsertStatement(db, actor, entry, { sql: 'changes() > 0' });
  let batch: BatchResults;
  try {
    batch = await runBatch(db, [...changes, audit, refusedWriteGuardStatement(db)]);
  } catch (err) {
    if (isRefusedWrite(err)) throw new AppError(refusal);
    throw err;
  }
  return { changed: batch.changes(changes.at(-1)), results: batch.results, of: batch.of };
}

/**
 * Create (no id) or edit one console row, the write and its audit row in one batch. An edit records the row as it was,
 * refuses a missing row with `notFound`, and writes its audit row only when the UPDATE (whose own conditions say
 * what may change) changed the row; otherwise nothing is written and `unchanged` says why. Returns the row's id.
 */
export async function auditedSave(
  db: D1Database,
  actor: AuditActor,
  s: {
    action: string;
    /** The audit target's prefix: `${kind}:new` or `${kind}:${id}`. */
    kind: string;
    id: number | undefined;
    reason: string | undefined;
    after: unknown;
    find: (id: number) => Promise<unknown>;
    insert: () => D1PreparedStatement;
    update: (id: number) => D1PreparedStatement;
    notFound: MessageCode;
    /** Why an edit changed nothing (the code, or a look that finds it); notFound when left out. */
    unchanged?: MessageCode | ((id: number) => Promise<MessageCode>);
  },
): Promise<{ id: number }> {
  const reason = s.reason ?? '';
  if (s.id === undefined) {
    const insert = s.insert();
    const written = await auditedWrite(
      db,
      actor,
      { action: s.action, target: `${s.kind}:new`, after: s.after, reason },
      [insert],
    );
    // The new id: an INSERT … RETURNING id answers it as a row, a plain INSERT as the last row id.
    const result = written.of(insert);
    const returned = (result?.results?.[0] as { id?: number } | undefined)?.id;
    return { id: Number(returned ?? result?.meta.last_row_id ?? 0) };
  }
  const id = s.id;
  const before = await s.find(id);
  if (!before) throw new AppError(s.notFound);
  const { changed } = await auditedWrite(
    db,
    actor,
    { action: s.action, target: `${s.kind}:${id}`, before, after: s.after, reason },
    [s.update(id)],
    { requireChange: true },
  );
  if (!changed) {
    const why = s.unchanged ?? s.notFound;
    throw new AppError(typeof why === 'function' ? await why(id) : why);
  }
  return { id };
}
