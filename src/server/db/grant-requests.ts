// Queries for grants waiting for a second operator's approval (migrations/0028).
import { GRANT_REQUEST_STATE } from '../../lib/trust-states';
export interface GrantRequestRecord {
  id: number;
  userId: number;
  params: string;
  summary: string;
  requestedBy: number;
  requestedName: string;
  state: 1 | 2 | 3;
  decidedName: string;
  decidedAt: number | null;
  packageId: number | null;
  createdAt: number;
}

interface Row {
  id: number;
  user_id: number;
  params: string;
  summary: string;
  requested_by: number;
  requested_name: string;
  state: 1 | 2 | 3;
  decided_name: string;
  decided_at: number | null;
  package_id: number | null;
  created_at: number;
}

const map = (r: Row): GrantRequestRecord => ({
  id: r.id,
  userId: r.user_id,
  params: r.params,
  summary: r.summary,
  requestedBy: r.requested_by,
  requestedName: r.requested_name,
  state: r.state,
  decidedName: r.decided_name,
  decidedAt: r.decided_at,
  packageId: r.package_id,
  createdAt: r.created_at,
});

/** The INSERT of a pending grant request. */
export function insertGrantRequestStatement(
  db: D1Database,
  g: { userId: number; params: string; summary: string; requestedBy: number; requestedName: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO grant_requests (user_id, params, summary, requested_by, requested_name, created_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(g.userId, g.params, g.summary, g.requestedBy, g.requestedName, g.now);
}

/** A grant request by id, or null. */
export async function findGrantRequest(db: D1Database, id: number): Promise<GrantRequestRecord | null> {
  const row = await db.prepare('SELECT * FROM grant_requests WHERE id = ?').bind(id).first<Row>();
  return row ? map(row) : null;
}

/** Grant requests, pending first then the newest decided (at most 100). */
export async function listGrantRequests(db: D1Database): Promise<GrantRequestRecord[]> {
  const { results } = await db
    .prepare(`SELECT * FROM grant_requests ORDER BY state != ${GRANT_REQUEST_STATE.pending}, id DESC LIMIT 100`)
    .all<Row>();
  return results.map(map);
}

/** Decide a pending request (never by the operator who asked); the statement changes nothing otherwise. */
export function decideGrantRequestStatement(
  db: D1Database,
  d: { id: number; state: 2 | 3; operatorId: number; operatorName: string; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE grant_requests SET state = ?1, decided_by = ?2, decided_name = ?3, decided_at = ?4
       WHERE id = ?5 AND state = ${GRANT_REQUEST_STATE.pending} AND requested_by != ?2`,
    )
    .bind(d.state, d.operatorId, d.operatorName, d.now, d.id);
}

/** Put an approved request back to pending (its grant failed) or record the package it produced. */
export async function finishGrantRequest(db: D1Database, id: number, packageId: number | null): Promise<void> {
  await (packageId === null
    ? db
        .prepare(
          `UPDATE grant_requests SET state = ${GRANT_REQUEST_STATE.pending}, decided_by = NULL, decided_name = '', decided_at = NULL WHERE id = ?`,
        )
        .bind(id)
    : db.prepare('UPDATE grant_requests SET package_id = ? WHERE id = ?').bind(packageId, id)
  ).run();
}
