// Managing operator accounts (admin only): create, change role or status, reset credentials. The last active admin
// can never be disabled or demoted (a trigger in migrations/0015 refuses it; this module turns that into a message).
import { AppError } from '../../lib/errors';
import type { OperatorRole } from '../../lib/operator-roles';
import {
  deleteOperatorSessionsStatement,
  findOperatorById,
  findOperatorByUsername,
  insertOperatorStatement,
  resetOperatorCredentialsStatement,
  updateOperatorStatement,
} from '../db/operators';
import type { AuditActor } from '../db/console-audit';
import { hashPassword } from '../crypto';
import { auditedChange, auditedWrite } from './console-audit';
import { ACCOUNT_STATUS } from '../../lib/console-states';

const isLastAdminError = (err: unknown) => String(err).includes('last active admin');

/** Create an operator; they enrol their second factor at the first login. */
export async function createOperator(
  db: D1Database,
  actor: AuditActor,
  o: { username: string; displayName: string; role: OperatorRole; password: string },
): Promise<{ id: number }> {
  if (await findOperatorByUsername(db, o.username)) throw new AppError('operatorUsernameTaken');
  const passwordHash = await hashPassword(o.password);
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.OperatorCreate',
      target: `operator:${o.username}`,
      after: { username: o.username, displayName: o.displayName, role: o.role },
    },
    [insertOperatorStatement(db, { ...o, passwordHash, now: actor.now })],
    'operatorUsernameTaken',
  );
  const created = await findOperatorByUsername(db, o.username);
  return { id: created?.id ?? 0 };
}

/** Change an operator's role or status (disabling or demoting also ends their sessions). */
export async function updateOperator(
  db: D1Database,
  actor: AuditActor,
  u: { id: number; role: OperatorRole; status: 1 | 2; reason: string },
): Promise<{ id: number; role: OperatorRole; status: 1 | 2 }> {
  const op = await findOperatorById(db, u.id);
  if (!op) throw new AppError('operatorNotFound');
  const statements = [updateOperatorStatement(db, { ...u, now: actor.now })];
  if (u.status !== ACCOUNT_STATUS.active || u.role !== op.role)
    statements.unshift(deleteOperatorSessionsStatement(db, u.id));
  try {
    await auditedWrite(
      db,
      actor,
      {
        action: 'Admin.OperatorUpdate',
        target: `operator:${u.id}`,
        before: { role: op.role, status: op.status },
        after: { role: u.role, status: u.status },
        reason: u.reason,
      },
      statements,
    );
  } catch (err) {
    if (isLastAdminError(err)) throw new AppError('operatorLastAdmin');
    throw err;
  }
  return { id: u.id, role: u.role, status: u.status };
}

/** Set a new password and drop the second factor (re-enrolled at the next login); ends the operator's sessions. */
export async function resetOperatorCredentials(
  db: D1Database,
  actor: AuditActor,
  r: { id: number; password: string; reason: string },
): Promise<{ reset: true }> {
  const op = await findOperatorById(db, r.id);
  if (!op) throw new AppError('operatorNotFound');
  const passwordHash = await hashPassword(r.password);
  await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.OperatorReset',
      target: `operator:${r.id}`,
      after: '密码已重置，需重新绑定动态验证码',
      reason: r.reason,
    },
    [
      deleteOperatorSessionsStatement(db, r.id),
      resetOperatorCredentialsStatement(db, { id: r.id, passwordHash, now: actor.now }),
    ],
  );
  return { reset: true };
}
