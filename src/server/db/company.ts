// Queries for company authentication: licence uploads (R2 keys), applications, reviews and their audit trail.
import { type AuditWrite, auditInsertStatement } from './console-audit';
import { COMPANY_STATE } from '../../lib/company-states';

export interface LicenceUpload {
  id: number;
  userId: number;
  r2Key: string;
  mime: string;
  size: number;
  createdAt: number;
}

interface UploadRow {
  id: number;
  user_id: number;
  r2_key: string;
  mime: string;
  size: number;
  created_at: number;
}

const mapUpload = (r: UploadRow): LicenceUpload => ({
  id: r.id,
  userId: r.user_id,
  r2Key: r.r2_key,
  mime: r.mime,
  size: r.size,
  createdAt: r.created_at,
});

/**
 * Reserve an upload row before anything is stored, only while the user made fewer than `max` uploads since `since`
 * (the limit is inside the INSERT, so concurrent uploads cannot all pass). The row is pending (placeholder key, empty
 * mime) until completeLicenceUpload; pending rows are invisible to the lookups below. Returns its id, or null.
 */
export async function reserveLicenceUpload(
  db: D1Database,
  r: { userId: number; now: number; since: number; max: number },
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO company_licence_uploads (user_id, r2_key, mime, size, created_at)
       SELECT ?1, 'pending:' || lower(hex(randomblob(16))), '', 0, ?2
       WHERE (SELECT count(*) FROM company_licence_uploads WHERE user_id = ?1 AND created_at > ?3) < ?4
       RETURNING id`,
    )
    .bind(r.userId, r.now, r.since, r.max)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Fill in a reserved upload once its image is in R2. */
export async function completeLicenceUpload(
  db: D1Database,
  id: number,
  u: { r2Key: string; mime: string; size: number },
): Promise<void> {
  await db
    .prepare('UPDATE company_licence_uploads SET r2_key = ?, mime = ?, size = ? WHERE id = ?')
    .bind(u.r2Key, u.mime, u.size, id)
    .run();
}

/** Drop a reservation whose upload failed (it no longer counts against the limit). */
export async function deleteLicenceUpload(db: D1Database, id: number): Promise<void> {
  await db.prepare('DELETE FROM company_licence_uploads WHERE id = ?').bind(id).run();
}

/** A completed upload by id. */
export async function findLicenceUpload(db: D1Database, id: number): Promise<LicenceUpload | null> {
  const row = await db
    .prepare("SELECT * FROM company_licence_uploads WHERE id = ? AND mime != ''")
    .bind(id)
    .first<UploadRow>();
  return row ? mapUpload(row) : null;
}

/** The user's newest completed upload. */
export async function findLatestLicenceUpload(db: D1Database, userId: number): Promise<LicenceUpload | null> {
  const row = await db
    .prepare("SELECT * FROM company_licence_uploads WHERE user_id = ? AND mime != '' ORDER BY id DESC LIMIT 1")
    .bind(userId)
    .first<UploadRow>();
  return row ? mapUpload(row) : null;
}

export interface CompanyAuthRecord {
  id: number;
  userId: number;
  companyName: string;
  creditCode: string;
  legalPerson: string;
  licenceUploadId: number;
  state: number;
  userRemark: string;
  reviewRemark: string;
  createdAt: number;
  reviewedAt: number | null;
}

interface CompanyRow {
  id: number;
  user_id: number;
  company_name: string;
  credit_code: string;
  legal_person: string;
  licence_upload_id: number;
  state: number;
  user_remark: string;
  review_remark: string;
  created_at: number;
  reviewed_at: number | null;
}

const mapCompany = (r: CompanyRow): CompanyAuthRecord => ({
  id: r.id,
  userId: r.user_id,
  companyName: r.company_name,
  creditCode: r.credit_code,
  legalPerson: r.legal_person,
  licenceUploadId: r.licence_upload_id,
  state: r.state,
  userRemark: r.user_remark,
  reviewRemark: r.review_remark,
  createdAt: r.created_at,
  reviewedAt: r.reviewed_at,
});

/** The user's newest application. */
export async function findLatestCompanyAuth(db: D1Database, userId: number): Promise<CompanyAuthRecord | null> {
  const row = await db
    .prepare('SELECT * FROM company_auths WHERE user_id = ? ORDER BY id DESC LIMIT 1')
    .bind(userId)
    .first<CompanyRow>();
  return row ? mapCompany(row) : null;
}

/** An application by id. */
export async function findCompanyAuth(db: D1Database, id: number): Promise<CompanyAuthRecord | null> {
  const row = await db.prepare('SELECT * FROM company_auths WHERE id = ?').bind(id).first<CompanyRow>();
  return row ? mapCompany(row) : null;
}

/** Applications in a state, oldest first (the operator's queue). */
export async function listCompanyAuthsByState(
  db: D1Database,
  state: number,
  limit: number,
): Promise<CompanyAuthRecord[]> {
  const { results } = await db
    .prepare('SELECT * FROM company_auths WHERE state = ? ORDER BY created_at LIMIT ? + 0')
    .bind(state, limit)
    .all<CompanyRow>();
  return results.map(mapCompany);
}

/** True when another account holds an approved company with this credit hash. */
export async function isCompanyTaken(db: D1Database, creditHash: string, userId: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS x FROM company_auths WHERE credit_hash = ? AND state = ${COMPANY_STATE.approved} AND user_id != ?`,
    )
    .bind(creditHash, userId)
    .first();
  return row !== null;
}

/**
 * Submit an application (state 4) and mirror the state on the user, in one transaction. The partial unique index
 * allows one pending application per user; false when one already exists.
 */
export async function insertCompanyAuth(
  db: D1Database,
  a: {
    userId: number;
    companyName: string;
    creditCode: string;
    creditHash: string;
    legalPerson: string;
    licenceUploadId: number;
    userRemark: string;
    allowedFrom: number[];
    now: number;
  },
): Promise<boolean> {
  const allowed = a.allowedFrom.map(() => '?').join(', ');
  const [ins] = await db.batch([
    db
      .prepare(
        `INSERT INTO company_auths (user_id, company_name, credit_code, credit_hash, legal_person, licence_upload_id,
           state, user_remark, created_at)
         SELECT ?, ?, ?, ?, ?, ?, 4, ?, ? WHERE (SELECT company_auth_state FROM users WHERE id = ?) IN (${allowed})
         ON CONFLICT DO NOTHING`,
      )
      .bind(
        a.userId,
        a.companyName,
        a.creditCode,
        a.creditHash,
        a.legalPerson,
        a.licenceUploadId,
        a.userRemark,
        a.now,
        a.userId,
        ...a.allowedFrom,
      ),
    db
      .prepare(
        `UPDATE users SET company_auth_state = ${COMPANY_STATE.pending}, updated_at = ?1
         WHERE id = ?2 AND EXISTS (SELECT 1 FROM company_auths WHERE user_id = ?2 AND state = ${COMPANY_STATE.pending} AND created_at = ?1)`,
      )
      .bind(a.now, a.userId),
  ]);
  return ins?.meta.changes === 1;
}

/** Update the applicant's own remark on a pending application. */
export async function updateUserRemark(db: D1Database, userId: number, remark: string): Promise<boolean> {
  const res = await db
    .prepare(`UPDATE company_auths SET user_remark = ? WHERE user_id = ? AND state = ${COMPANY_STATE.pending}`)
    .bind(remark, userId)
    .run();
  return res.meta.changes === 1;
}

/**
 * Move an application from one state to another, mirror it on the user and write the audit event, atomically and
 * only if it is still in `from`. The move stamps a random decision id and the mirror and the event follow only the row
 * carrying this call's id, so of concurrent identical reviews exactly one wins and writes one event (docs/decisions/094).
 * Throws the D1 error when the approved-company unique index refuses.
 */
export async function transitionCompanyAuth(
  db: D1Database,
  t: { id: number; from: number; to: number; actorId: number; remark: string; now: number },
  audit?: AuditWrite,
): Promise<boolean> {
  const decision = crypto.randomUUID();
  const [upd] = await db.batch([
    db
      .prepare(
        `UPDATE company_auths SET state = ?, review_remark = ?, reviewer_id = ?, reviewed_at = ?, decision_id = ?
         WHERE id = ? AND state = ?`,
      )
      .bind(t.to, t.remark, t.actorId, t.now, decision, t.id, t.from),
    db
      .prepare(
        `UPDATE users SET company_auth_state = ?1, updated_at = ?2
         WHERE id = (SELECT user_id FROM company_auths WHERE id = ?3 AND state = ?1 AND decision_id = ?4)`,
      )
      .bind(t.to, t.now, t.id, decision),
    db
      .prepare(
        `INSERT INTO company_auth_events (company_auth_id, from_state, to_state, actor_id, remark, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS
           (SELECT 1 FROM company_auths WHERE id = ?1 AND state = ?3 AND decision_id = ?7)`,
      )
      .bind(t.id, t.from, t.to, t.actorId, t.remark, t.now, decision),
    ...(audit
      ? [
          auditInsertStatement(db, audit.actor, audit.entry, {
            sql: 'EXISTS (SELECT 1 FROM company_auths WHERE id = ? AND state = ? AND decision_id = ?)',
            binds: [t.id, t.to, decision],
          }),
        ]
      : []),
  ]);
  return upd?.meta.changes === 1;
}
