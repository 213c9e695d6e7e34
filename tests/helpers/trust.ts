// Test helpers for the trust features: valid ID numbers, the face simulator, and verified accounts (operators: tests/helpers/operators.ts).
import { env, SELF } from 'cloudflare:test';
import { idCheckChar } from '../../src/lib/identity-number';
import { BASE, callApi, loginBySms } from './api';

let ipSeq = 1;
/** A fresh client IP so SMS per-IP limits never interfere between helpers. */
export const freshIp = () => `203.0.113.${(ipSeq++ % 250) + 1}`;

/** A valid resident ID number from 17 digits (born 1990-03-07 by default). */
export const validId = (serial = '123', region = '440304', birth = '19900307') => {
  const first17 = `${region}${birth}${serial}`;
  return first17 + idCheckChar(first17);
};

/** Log in a new phone by SMS from its own IP. */
export const newUser = (phone: string) => loginBySms(phone, freshIp());

/** Press 通过 (T) or 不通过 (F) on the development simulator page for a certifyId. */
export async function simulatorVerdict(certifyId: string, verdict: 'T' | 'F'): Promise<Response> {
  return SELF.fetch(`${BASE}/dev/faceverify/${certifyId}`, {
    method: 'POST',
    body: new URLSearchParams({ verdict }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
}

/** Verify a logged-in user through the simulator; returns the certifyId. */
export async function verifyPerson(cookie: string, idNumber: string, name = '张三'): Promise<string> {
  const init = await callApi('Auth.CertifyInit', { name, idNumber }, { cookie });
  if (!init.body.P) throw new Error(init.body.E);
  await simulatorVerdict(init.body.P.certifyId, 'T');
  const res = await callApi('Auth.CertifyResult', { certifyId: init.body.P.certifyId }, { cookie });
  if (res.body.E) throw new Error(res.body.E);
  return init.body.P.certifyId;
}

/** Mark a user verified directly in the database (for tests about what verification unlocks). */
export async function markVerified(phone: string, idHash = `hash-${phone}`): Promise<number> {
  const user = await env.DB.prepare('SELECT id FROM users WHERE phone = ?').bind(phone).first<{ id: number }>();
  if (!user) throw new Error(`no user ${phone}`);
  await env.DB.batch([
    env.DB.prepare('UPDATE users SET is_identity_auth = 1 WHERE id = ?').bind(user.id),
    env.DB.prepare(
      "INSERT INTO user_identities (user_id, id_hash, name_enc, id_no_enc, name_masked, id_masked, verification_id, verified_at) VALUES (?, ?, 'x', 'x', '*三', '4403**********1234', 0, 0)",
    ).bind(user.id, idHash),
  ]);
  return user.id;
}

/** A single number from a query. */
export async function scalar(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? -1;
}
