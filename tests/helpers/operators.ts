// Test helpers for the operator console: create operator accounts and log them in through the real flow (password,
// TOTP enrolment, code), returning the operator cookie.
import { env } from 'cloudflare:test';
import type { OperatorRole } from '../../src/lib/operator-roles';
import { hashPassword } from '../../src/server/crypto';
import { totpCodeAt } from '../../src/server/domain/operators';
import { callApi, cookieJar } from './api';

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
