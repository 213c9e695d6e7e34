// Queries for the append-only audit log (migrations/0015; docs/decisions/102): one INSERT statement that callers put
// in the same batch as the change it records, and the console's search.
import type { OperatorRole } from '../../lib/operator-roles';

export interface AuditActor {
  operatorId: number | null;
  operatorName: string;
  role: OperatorRole | 'none';
  ip: string;
  now: number;
}

export interface AuditEntry {
  /** The action name (e.g. Admin.SuspendCustomer) or event (Operator.Login). */
  action: string;
  /** What was changed, as kind:id (user:12, order:P2026..., operator:3). */
  target?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

/** An audit row to write in the same batch as a change (the db function adds its own condition). */
export interface AuditWrite {
  actor: AuditActor;
  entry: AuditEntry;
}

export interface AuditRecord {
  id: number;
  operatorId: number | null;
  operatorName: string;
  role: string;
  action: string;
  target: string;
  before: string;
  after: string;
  reason: string;
  clientIp: string;
  createdAt: number;
}

const MAX_SUMMARY = 1000;
const summary = (v: unknown): string =>
  v === undefined || v === null ? '' : (typeof v === 'string' ? v : JSON.stringify(v)).slice(0, MAX_SUMMARY);

/**
 * The INSERT of one audit row. With `onlyIf` (an SQL condition and its binds, plain `?` placeholders) the row is
 * written only when the condition holds inside the batch, e.g. `changes() > 0` right after a conditional UPDATE.
 */
export function auditInsertStatement(
  db: D1Database,
  actor: AuditActor,
  entry: AuditEntry,
  onlyIf?: { sql: string; binds?: unknown[] },
): D1PreparedStatement {
  const values = [
    actor.operatorId,
    actor.operatorName.slice(0, 64),
    actor.role,
    entry.action,
    (entry.target ?? '').slice(0, 128),
    summary(entry.before),
    summary(entry.after),
    (entry.reason ?? '').slice(0, 500),
    actor.ip.slice(0, 64),
    actor.now,
  ];
  return db
    .prepare(
      `INSERT INTO audit_log (operator_id, operator_name, role, action, target, before_summary, after_summary, reason,
         client_ip, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${onlyIf ? ` WHERE ${onlyIf.sql}` : ''}`,
    )
    .bind(...values, ...(onlyIf?.binds ?? []));
}

/**
 * The last statement of a batch whose audit row must have been written (the statement right before it): when that
 * INSERT wrote nothing, this one fails its CHECK (migrations/0028) and D1 rolls the whole batch back.
 */
export function refusedWriteGuardStatement(db: D1Database): D1PreparedStatement {
  return db.prepare('INSERT INTO refused_write_guard (ok) SELECT 0 WHERE changes() = 0');
}

/** True for the error refusedWriteGuardStatement raises. */
export const isRefusedWrite = (err: unknown): boolean => /refused_write_guard/.test(String(err));

/** An audit_log row as stored. */
export interface AuditRow {
  id: number;
  operator_id: number | null;
  operator_name: string;
  role: string;
  action: string;
  target: string;
  before_summary: string;
  after_summary: string;
  reason: string;
  client_ip: string;
  created_at: number;
}

/** An audit row as the console (and the tests) read it. */
export const mapAuditRow = (r: AuditRow): AuditRecord => ({
  id: r.id,
  operatorId: r.operator_id,
  operatorName: r.operator_name,
  role: r.role,
  action: r.action,
  target: r.target,
  before: r.before_summary,
  after: r.after_summary,
  reason: r.reason,
  clientIp: r.client_ip,
  createdAt: r.created_at,
});

/** Newest audit rows matching the filters, older than `beforeId` when paging. */
export async function searchAuditLog(
  db: D1Database,
  q: {
    operator?: string;
    action?: string;
    /** One object exactly (kind:id). */
    target?: string;
    /** Every object of a kind (kind:…). */
    targetKind?: string;
    /** Only rows written by operators of `role` or recording one of `actions` (docs/decisions/203). */
    visibleTo?: { role: string; actions: readonly string[] };
    from?: number;
    to?: number;
    beforeId?: number;
    limit: number;
  },
): Promise<AuditRecord[]> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (q.operator) {
    where.push('operator_name = ?');
    binds.push(q.operator);
  }
  if (q.action) {
    where.push('action = ?');
    binds.push(q.action);
  }
  if (q.target) {
    where.push('target = ?');
    binds.push(q.target);
  }
  if (q.targetKind) {
    where.push("substr(target, 1, length(?) + 1) = ? || ':'");
    binds.push(q.targetKind, q.targetKind);
  }
  if (q.visibleTo) {
    where.push('(role = ? OR action IN (SELECT value FROM json_each(?)))');
    binds.push(q.visibleTo.role, JSON.stringify(q.visibleTo.actions));
  }
  if (q.from !== undefined) {
    where.push('created_at >= ?');
    binds.push(q.from);
  }
  if (q.to !== undefined) {
    where.push('created_at < ?');
    binds.push(q.to);
  }
  if (q.beforeId !== undefined) {
    where.push('id < ?');
    binds.push(q.beforeId);
  }
  const { results } = await db
    .prepare(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ? + 0`,
    )
    .bind(...binds, q.limit)
    .all<AuditRow>();
  return results.map(mapAuditRow);
}

/** The objects audit rows name (`kind:id`) whose names are looked up: kind -> the SELECT of (id, name). */
const OBJECT_NAME_SQL: Record<string, string> = {
  user: 'SELECT id, phone AS name FROM users',
  node: 'SELECT id, name FROM proxy_nodes',
  coupon: 'SELECT id, name FROM coupons',
  red_launch: 'SELECT id, title AS name FROM red_launches',
  meal: 'SELECT id, name FROM meals',
  activity: 'SELECT id, name FROM activities',
  region: 'SELECT id, name FROM meal_regions',
  operator: 'SELECT id, username AS name FROM operators',
  seller: 'SELECT id, name FROM sellers',
  article: 'SELECT id, title AS name FROM articles',
  help_category: 'SELECT id, name FROM help_categories',
  consult: 'SELECT id, company AS name FROM consult_requests',
  company_auth: 'SELECT id, company_name AS name FROM company_auths',
};

/** The kinds whose objects auditObjectNames can name. */
export const NAMED_OBJECT_KINDS = Object.keys(OBJECT_NAME_SQL);

/**
 * The names of the objects audit rows point at, keyed `kind:id` (a customer's name is their phone, masked by the
 * caller). Ids of other kinds, or of rows gone since, are left out.
 */
export async function auditObjectNames(db: D1Database, ids: Map<string, Set<number>>): Promise<Map<string, string>> {
  const kinds = [...ids.entries()].filter(([k, set]) => OBJECT_NAME_SQL[k] && set.size > 0);
  const names = new Map<string, string>();
  if (kinds.length === 0) return names;
  const results = await db.batch(
    kinds.map(([k, set]) =>
      db.prepare(`${OBJECT_NAME_SQL[k]} WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify([...set])),
    ),
  );
  kinds.forEach(([k], i) => {
    for (const r of (results[i]?.results ?? []) as { id: number; name: string }[]) names.set(`${k}:${r.id}`, r.name);
  });
  return names;
}
