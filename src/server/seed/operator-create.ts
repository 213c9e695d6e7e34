// SQL text for bringing a deployment to life without hand-written SQL, written through the seed's typed builder
// (./sql.ts): the first (or any) operator account, created by scripts/admin-create.mjs through `wrangler d1 execute`
// (local or --remote). The account enrols its TOTP second factor at the first login. The creation is recorded in the
// audit log as done from the command line.

import { operatorPasswordProblem } from '../../lib/operator-password';
import type { OperatorRole } from '../../lib/operator-roles';
import { hashPassword } from '../crypto';
import { insert, notExists } from './sql';

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
  const absent = notExists('operators', { username: o.username });
  return [
    insert(
      'audit_log',
      [
        {
          operator_id: null,
          operator_name: 'cli',
          role: 'none',
          action: 'Admin.OperatorCreate',
          target: `operator:${o.username}`,
          after_summary: JSON.stringify({ username: o.username, displayName: o.displayName, role: o.role }),
          reason: 'npm run admin:create',
          client_ip: 'cli',
          created_at: o.now,
        },
      ],
      { select: { where: absent } },
    ),
    insert(
      'operators',
      [
        {
          username: o.username,
          display_name: o.displayName,
          role: o.role,
          password_hash: hash,
          created_at: o.now,
          updated_at: o.now,
        },
      ],
      { select: { where: absent } },
    ),
  ].join('\n');
}
