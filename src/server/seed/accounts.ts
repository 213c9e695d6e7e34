// Demo customer accounts for local development: a verified user with a password, a new user and a second verified
// user. Operators are not customers: the console's demo operators are in ./console.ts (docs/decisions/165).
import { hashPassword } from '../crypto';
import { insert, update } from './sql';

export const DEMO_ACCOUNTS = [
  { phone: '13800138000', password: 'demo1234', identity: true },
  { phone: '13900139000', password: 'demo1234', identity: false },
  { phone: '13700137000', password: 'demo1234', identity: true },
] as const;

/** SQL that inserts the demo accounts (idempotent). */
export async function demoAccountsSql(now: number): Promise<string> {
  const rows: string[] = [];
  for (const a of DEMO_ACCOUNTS) {
    const hash = await hashPassword(a.password);
    rows.push(
      ...insert(
        'users',
        [{ phone: a.phone, password_hash: hash, is_identity_auth: a.identity, created_at: now, updated_at: now }],
        { onConflict: { columns: ['phone'], doNothing: true } },
      ),
    );
  }
  // users.role 'operator' (migrations/0001) is read by nothing since operators have their own accounts (0015);
  // databases seeded before keep the old value on 13700137000 unless it is cleared here.
  rows.push(update('users', { role: 'user' }, { role: 'operator' }));
  return rows.join('\n');
}
