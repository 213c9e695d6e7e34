// SQL for bringing a deployment to life without hand-written SQL: the first (or any) operator account, created by
// scripts/admin-create.mjs through `wrangler d1 execute` (local or --remote). The account enrols its TOTP second
// factor at the first login. The creation is recorded in the audit log as done from the command line.

import { operatorPasswordProblem } from '../../lib/operator-password';
import type { OperatorRole } from '../../lib/operator-roles';
import { hashPassword } from '../crypto';

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Idempotent SQL creating an operator unless the username exists (then nothing changes). */
export async function operatorCreateSql(o: {
  username: string;
  displayName: string;
  role: OperatorRole;
  password: string;
  now: number;
}): Promise<string> {
  const problem = operatorPasswordProblem(o.password, o.username);
  if (problem) throw new Error(`--password: ${problem}`);
  const hash = await hashPassword(o.password);
  return [
    `INSERT INTO audit_log (operator_id, operator_name, role, action, target, after_summary, reason, client_ip, created_at)
  SELECT NULL, 'cli', 'none', 'Admin.OperatorCreate', ${q(`operator:${o.username}`)}, ${q(JSON.stringify({ username: o.username, displayName: o.displayName, role: o.role }))}, 'npm run admin:create', 'cli', ${o.now}
  WHERE NOT EXISTS (SELECT 1 FROM operators WHERE username = ${q(o.username)});`,
    `INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
  SELECT ${q(o.username)}, ${q(o.displayName)}, ${q(o.role)}, ${q(hash)}, ${o.now}, ${o.now}
  WHERE NOT EXISTS (SELECT 1 FROM operators WHERE username = ${q(o.username)});`,
  ].join('\n');
}
