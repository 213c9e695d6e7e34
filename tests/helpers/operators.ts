// Test helpers for the operator console: create operator accounts and log them in through the real flow (password,
// TOTP enrolment, code), returning the operator cookie; the operator records and sessions, and the audit log, read and
// forced by name.
import { env } from 'cloudflare:test';
import type { AccountStatus } from '../../src/lib/console-states';
import type { OperatorRole } from '../../src/lib/operator-roles';
import { hashPassword } from '../../src/server/crypto';
import { type AuditRecord, type AuditRow as AuditDbRow, mapAuditRow } from '../../src/server/db/console-audit';
import { findOperatorById } from '../../src/server/db/operators';
import { totpCodeAt } from '../../src/server/domain/operators';
import { callApi, cookieJar } from './api';
import { type Cond, count, when, where } from './rows';

export const OPERATOR_PASSWORD = 'operator-pass-1234';
let seq = 0;

/** Insert an operator (no second factor yet); returns its id and username. */
export async function createOperatorRow(
  role: OperatorRole,
  username = `op_${role}_${++seq}_${Date.now() % 100000}`,
  password = OPERATOR_PASSWORD,
): Promise<{ id: number; username: string }> {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(username, `测试${role}`, role, await hashPassword(password), now, now)
    .first<{ id: number }>();
  if (!row) throw new Error('operator insert failed');
  return { id: row.id, username };
}

export interface OperatorLogin {
  id: number;
  username: string;
  secret: string;
  cookie: string;
}

/** Create an operator of a role and log in (enrolling TOTP); the cookie carries the active operator session. */
export async function operatorLogin(role: OperatorRole = 'admin', ip = '198.51.100.200'): Promise<OperatorLogin> {
  const { id, username } = await createOperatorRow(role);
  const login = await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip });
  if (login.body.E) throw new Error(login.body.E);
  let cookie = cookieJar(login.setCookies);
  const enrol = await callApi('Operator.TotpEnrol', {}, { cookie, ip });
  const secret = enrol.body.P?.secret;
  if (!secret) throw new Error(enrol.body.E);
  const verified = await callApi('Operator.TotpVerify', { code: totpCodeAt(secret, Date.now()) }, { cookie, ip });
  if (verified.body.E) throw new Error(verified.body.E);
  cookie = cookieJar(verified.setCookies, cookie);
  return { id, username, secret, cookie };
}

/** Just the cookie of a freshly logged-in operator of a role. */
export const operatorCookie = async (role: OperatorRole = 'admin'): Promise<string> =>
  (await operatorLogin(role)).cookie;

// --- the operator records and sessions, read and forced by name (the integration tests hold no SQL) ---

/** The stored sealed TOTP secret of an operator (null before enrolment). */
export async function sealedTotpSecret(operatorId: number): Promise<string | null> {
  return (await findOperatorById(env.DB, operatorId))?.totpSecretEnc ?? null;
}

/** Forget the last TOTP step an operator used (time has passed: the next code is newer than every one used). */
export async function forgetTotpStep(operatorId: number): Promise<void> {
  await env.DB.prepare('UPDATE operators SET totp_last_step = 0 WHERE id = ?').bind(operatorId).run();
}

/** Set an operator account's status (disabled by an admin, or active again). */
export async function setOperatorStatus(operatorId: number, status: AccountStatus): Promise<void> {
  await env.DB.prepare('UPDATE operators SET status = ? WHERE id = ?').bind(status, operatorId).run();
}

/** How many failed logins are counted against a username no operator holds. */
export async function unknownNameFailures(username: string): Promise<number> {
  const row = await env.DB.prepare('SELECT failures FROM operator_name_failures WHERE username = ?')
    .bind(username)
    .first<{ failures: number }>();
  return row?.failures ?? 0;
}

/** Every operator session was last seen at `at` (or only one operator's). */
export async function setOperatorSessionsLastSeen(at: number, operatorId?: number): Promise<void> {
  if (operatorId === undefined) await env.DB.prepare('UPDATE operator_sessions SET last_seen_at = ?').bind(at).run();
  else
    await env.DB.prepare('UPDATE operator_sessions SET last_seen_at = ? WHERE operator_id = ?')
      .bind(at, operatorId)
      .run();
}

/** The operator ids holding a session, one per session, ascending. */
export async function operatorSessionHolders(): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT operator_id FROM operator_sessions ORDER BY operator_id').all<{
    operator_id: number;
  }>();
  return results.map((r) => r.operator_id);
}

// --- the audit log ---

/** An audit row as read (the console's own mapping). */
export type AuditRow = AuditRecord;

/** Which audit rows to read: by operator (null: rows without one), action or its prefix, target, reason, a text in the after
 * summary; login events left out on request. */
export interface AuditFilter {
  operatorId?: number | null;
  action?: string;
  /** The start of the action's name, e.g. 'Admin.Egress'. */
  actionPrefix?: string;
  target?: string;
  reason?: string;
  /** A text the after summary contains. */
  afterContains?: string;
  /** Leave out the login, TOTP and password events (actions named Operator.*). */
  withoutOperatorEvents?: boolean;
}

const auditConds = (f: AuditFilter): Cond[] => [
  f.operatorId === null ? ['operator_id IS NULL', []] : when('operator_id = ?', f.operatorId),
  when('action = ?', f.action),
  when('instr(action, ?) = 1', f.actionPrefix),
  when('target = ?', f.target),
  when('reason = ?', f.reason),
  when('instr(after_summary, ?) > 0', f.afterContains),
  f.withoutOperatorEvents ? ["action NOT LIKE 'Operator.%'", []] : undefined,
];

/** The audit rows matching a filter, oldest first (the log is append-only: rows of earlier tests in a file stay). */
export async function auditRows(filter: AuditFilter = {}): Promise<AuditRow[]> {
  const w = where(auditConds(filter));
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log${w.sql} ORDER BY id`)
    .bind(...w.binds)
    .all<AuditDbRow>();
  return results.map(mapAuditRow);
}

/** How many audit rows match a filter. */
export const auditCount = (filter: AuditFilter) => count('audit_log', auditConds(filter));

/** Try to overwrite an existing audit row with INSERT OR REPLACE (the log must refuse: it is append-only). */
export async function replaceAuditRow(id: number): Promise<void> {
  await env.DB.prepare(
    `INSERT OR REPLACE INTO audit_log (id, operator_id, operator_name, role, action, client_ip, created_at)
     VALUES (?, NULL, 'x', 'none', 'Forged', '1.1.1.1', 0)`,
  )
    .bind(id)
    .run();
}

/** Try to rewrite an operator's audit rows (the append-only trigger must refuse). */
export const rewriteAuditRows = (operatorId: number) =>
  env.DB.prepare('UPDATE audit_log SET reason = ? WHERE operator_id = ?').bind('x', operatorId).run();

/** Try to delete an operator's audit rows (the append-only trigger must refuse). */
export const deleteAuditRows = (operatorId: number) =>
  env.DB.prepare('DELETE FROM audit_log WHERE operator_id = ?').bind(operatorId).run();
