// Who is acting in an operator action: the signed-in operator as the session resolves it. Its own module so the audit
// helpers (console-audit.ts) and the login rules (operators.ts) can both name it without importing each other.
import type { OperatorRole } from '../../lib/operator-roles';

/** Who is acting in an operator action. */
export interface OperatorPrincipal {
  id: number;
  username: string;
  displayName: string;
  role: OperatorRole;
  sessionId: number;
}
