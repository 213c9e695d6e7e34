// Queries for real-name authentication: face-verification attempts, verified identities, the development simulator.
import { claimAliasForBoundIdentity } from './welfare';
import { VERIFICATION_STATE } from '../../lib/trust-states';

export interface VerificationRecord {
  id: number;
  userId: number;
  outerOrderNo: string;
  certifyId: string;
  provider: string;
  nameEnc: string;
  idNoEnc: string;
  idHash: string;
  idMasked: string;
  nameMasked: string;
  state: number;
  subCode: string;
  createdAt: number;
  decidedAt: number | null;
}

interface VerificationRow {
  id: number;
  user_id: number;
  outer_order_no: string;
  certify_id: string;
  provider: string;
  name_enc: string;
  id_no_enc: string;
  id_hash: string;
  id_masked: string;
  name_masked: string;
  state: number;
  sub_code: string;
  created_at: number;
  decided_at: number | null;
}

const mapVerification = (r: VerificationRow): VerificationRecord => ({
  id: r.id,
  userId: r.user_id,
  outerOrderNo: r.outer_order_no,
  certifyId: r.certify_id,
  provider: r.provider,
  nameEnc: r.name_enc,
  idNoEnc: r.id_no_enc,
  idHash: r.id_hash,
  idMasked: r.id_masked,
  nameMasked: r.name_masked,
  state: r.state,
  subCode: r.sub_code,
  createdAt: r.created_at,
  decidedAt: r.decided_at,
});

/**
 * Reserve a verification attempt before the vendor is called, only while the user started fewer than `max` since
 * `since` (the limit is inside the INSERT, so concurrent requests cannot both pass). The certifyId is a placeholder
 * until setVerificationCertifyId. Returns the attempt id, or null when the limit is reached.
 */
export async function reserveVerification(
  db: D1Database,
  v: Omit<VerificationRecord, 'id' | 'certifyId' | 'state' | 'subCode' | 'decidedAt'>,
  limit: { since: number; max: number },
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO identity_verifications (user_id, outer_order_no, certify_id, provider, name_enc, id_no_enc, id_hash,
         id_masked, name_masked, created_at)
       SELECT ?1, ?2, 'pending:' || ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
       WHERE (SELECT count(*) FROM identity_verifications WHERE user_id = ?1 AND created_at > ?10) < ?11
       RETURNING id`,
    )
    .bind(
      v.userId,
      v.outerOrderNo,
      v.provider,
      v.nameEnc,
      v.idNoEnc,
      v.idHash,
      v.idMasked,
      v.nameMasked,
      v.createdAt,
      limit.since,
      limit.max,
    )
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Store the vendor's certifyId on a reserved attempt. */
export async function setVerificationCertifyId(db: D1Database, id: number, certifyId: string): Promise<void> {
  await db.prepare('UPDATE identity_verifications SET certify_id = ? WHERE id = ?').bind(certifyId, id).run();
}

/** A verification by its certifyId, only if it belongs to the user. */
export async function findUserVerification(
  db: D1Database,
  userId: number,
  certifyId: string,
): Promise<VerificationRecord | null> {
  const row = await db
    .prepare('SELECT * FROM identity_verifications WHERE certify_id = ? AND user_id = ?')
    .bind(certifyId, userId)
    .first<VerificationRow>();
  return row ? mapVerification(row) : null;
}

/** The user id holding an identity hash, if any. */
export async function findIdentityOwner(db: D1Database, idHash: string): Promise<number | null> {
  const row = await db
    .prepare('SELECT user_id FROM user_identities WHERE id_hash = ?')
    .bind(idHash)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

export interface IdentityRecord {
  userId: number;
  idHash: string;
  nameMasked: string;
  idMasked: string;
  verifiedAt: number;
}

/** The verified identity of a user, or null. */
export async function findUserIdentity(db: D1Database, userId: number): Promise<IdentityRecord | null> {
  const row = await db
    .prepare('SELECT user_id, id_hash, name_masked, id_masked, verified_at FROM user_identities WHERE user_id = ?')
    .bind(userId)
    .first<{ user_id: number; id_hash: string; name_masked: string; id_masked: string; verified_at: number }>();
  return row
    ? {
        userId: row.user_id,
        idHash: row.id_hash,
        nameMasked: row.name_masked,
        idMasked: row.id_masked,
        verifiedAt: row.verified_at,
      }
    : null;
}

/**
 * Bind a passed verification to its user in one transaction: the identity row (UNIQUE id_hash refuses a second
 * account), the user's flag, the attempt's state and, when the account already claimed the welfare trial under
 * another key, the identity's welfare key (docs/decisions/061). Returns 'bound', 'taken' (identity on another account) or
 * 'already' (this user already holds an identity).
 */
export async function bindIdentity(
  db: D1Database,
  v: VerificationRecord,
  now: number,
): Promise<'bound' | 'taken' | 'already'> {
  const [ins] = await db.batch([
    db
      .prepare(
        `INSERT INTO user_identities (user_id, id_hash, name_enc, id_no_enc, name_masked, id_masked, verification_id, verified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(v.userId, v.idHash, v.nameEnc, v.idNoEnc, v.nameMasked, v.idMasked, v.id, now),
    db
      .prepare(
        `UPDATE users SET is_identity_auth = 1, updated_at = ?
         WHERE id = ? AND EXISTS (SELECT 1 FROM user_identities WHERE user_id = ? AND verification_id = ?)`,
      )
      .bind(now, v.userId, v.userId, v.id),
    db
      .prepare(
        `UPDATE identity_verifications SET state = CASE WHEN EXISTS
           (SELECT 1 FROM user_identities WHERE user_id = ?1 AND verification_id = ?2) THEN ${VERIFICATION_STATE.passed}
           ELSE ${VERIFICATION_STATE.taken} END,
           decided_at = ?3 WHERE id = ?2 AND state = ${VERIFICATION_STATE.pending}`,
      )
      .bind(v.userId, v.id, now),
    claimAliasForBoundIdentity(db, { userId: v.userId, idHash: v.idHash, verificationId: v.id, now }),
  ]);
  if (ins?.meta.changes === 1) return 'bound';
  const owner = await findIdentityOwner(db, v.idHash);
  return owner === v.userId ? 'already' : 'taken';
}

/** Mark a pending attempt failed. */
export async function failVerification(db: D1Database, id: number, subCode: string, now: number): Promise<void> {
  await db
    .prepare(`UPDATE identity_verifications SET state = ${VERIFICATION_STATE.failed}, sub_code = ?, decided_at = ?
       WHERE id = ? AND state = ${VERIFICATION_STATE.pending}`)
    .bind(subCode.slice(0, 32), now, id)
    .run();
}

export interface SimulatorSession {
  certifyId: string;
  outerOrderNo: string;
  nameMasked: string;
  returnUrl: string;
  verdict: 'T' | 'F' | null;
}

/** Development simulator: remember a started session. */
export async function insertSimulatorSession(
  db: D1Database,
  s: { certifyId: string; outerOrderNo: string; nameMasked: string; returnUrl: string; now: number },
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO face_simulator_sessions (certify_id, outer_order_no, name_masked, return_url, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    .bind(s.certifyId, s.outerOrderNo, s.nameMasked, s.returnUrl, s.now)
    .run();
}

/** Development simulator: a session by certifyId. */
export async function findSimulatorSession(db: D1Database, certifyId: string): Promise<SimulatorSession | null> {
  const row = await db
    .prepare(
      'SELECT certify_id, outer_order_no, name_masked, return_url, verdict FROM face_simulator_sessions WHERE certify_id = ?',
    )
    .bind(certifyId)
    .first<{
      certify_id: string;
      outer_order_no: string;
      name_masked: string;
      return_url: string;
      verdict: 'T' | 'F' | null;
    }>();
  return row
    ? {
        certifyId: row.certify_id,
        outerOrderNo: row.outer_order_no,
        nameMasked: row.name_masked,
        returnUrl: row.return_url,
        verdict: row.verdict,
      }
    : null;
}

/** Development simulator: record the verdict once. */
export async function setSimulatorVerdict(db: D1Database, certifyId: string, verdict: 'T' | 'F'): Promise<boolean> {
  const res = await db
    .prepare('UPDATE face_simulator_sessions SET verdict = ? WHERE certify_id = ? AND verdict IS NULL')
    .bind(verdict, certifyId)
    .run();
  return res.meta.changes === 1;
}

/** A personal verification as the console lists it: masked name and ID number only. */
export interface VerificationListRow {
  id: number;
  userId: number;
  provider: string;
  nameMasked: string;
  idMasked: string;
  state: number;
  subCode: string;
  createdAt: number;
  decidedAt: number | null;
}

/** The newest personal verifications (optionally of one state), newest first; `beforeId` pages back. */
export async function listVerifications(
  db: D1Database,
  q: { state: number | null; beforeId: number | null; limit: number },
): Promise<VerificationListRow[]> {
  const { results } = await db
    .prepare(
      `SELECT id, user_id AS userId, provider, name_masked AS nameMasked, id_masked AS idMasked, state,
              sub_code AS subCode, created_at AS createdAt, decided_at AS decidedAt
         FROM identity_verifications
        WHERE (?1 IS NULL OR state = ?1) AND (?2 IS NULL OR id < ?2)
        ORDER BY id DESC LIMIT ?3 + 0`,
    )
    .bind(q.state, q.beforeId, q.limit)
    .all<VerificationListRow>();
  return results;
}
