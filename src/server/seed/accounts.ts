// Demo accounts for local development: a verified user with a password, a new user and an operator.
import { hashPassword } from '../crypto';

export const DEMO_ACCOUNTS = [
  { phone: '13800138000', password: 'demo1234', identity: true, role: 'user' },
  { phone: '13900139000', password: 'demo1234', identity: false, role: 'user' },
  { phone: '13700137000', password: 'admin1234', identity: true, role: 'operator' },
] as const;

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** SQL that inserts the demo accounts (idempotent). */
export async function demoAccountsSql(now: number): Promise<string> {
  const rows: string[] = [];
  for (const a of DEMO_ACCOUNTS) {
    const hash = await hashPassword(a.password);
    rows.push(
      `INSERT INTO users (phone, password_hash, role, is_identity_auth, created_at, updated_at) VALUES (${q(a.phone)}, ${q(hash)}, ${q(a.role)}, ${a.identity ? 1 : 0}, ${now}, ${now}) ON CONFLICT(phone) DO NOTHING;`,
    );
  }
  return rows.join('\n');
}
