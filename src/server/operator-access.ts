// Who may call an action, read from the action registry itself (its `access`), for the console's navigation and its
// screens: a screen shows what its operator's role may call and nothing else, and no role list is written twice
// (docs/decisions/210). The dispatcher enforces the same access on every call (src/edge/routes/api.ts).
import 'server-only';
import type { ActionName } from '../lib/api-core';
import { type OperatorRole, roleAllows } from '../lib/operator-roles';
import { isOperatorAccess } from './actions/define';
import { registry } from './actions/registry';

/** True when an operator of `role` may call `action` (admin may call every operator action; none of the customers'). */
export function canCall(role: OperatorRole, action: ActionName): boolean {
  const access = registry[action].access;
  return isOperatorAccess(access) ? roleAllows(role, access.operator) : access === 'public';
}
