// Who may call each operator action, as the action registry declares it (docs/decisions/101), for the domain rules
// that follow the same access: the audit log shows each role the entries of its own actions (docs/decisions/203).
// The registry records itself here when it is built (src/server/actions/registry.ts); the domain cannot import the
// registry (the registry imports the domain).
import type { OperatorRole } from '../../lib/operator-roles';

const ACCESS = new Map<string, readonly OperatorRole[]>();

/** Record the roles of every operator action of the registry (actions open to customers are left out). */
export function recordOperatorActions(registry: Record<string, { access: unknown }>): void {
  for (const [name, def] of Object.entries(registry)) {
    const a = def.access;
    if (typeof a === 'object' && a !== null && 'operator' in a) {
      ACCESS.set(name, (a as { operator: readonly OperatorRole[] }).operator);
    }
  }
}

/** The roles (besides admin) the registry opens an operator action to; undefined for any other name. */
export const operatorActionRoles = (name: string): readonly OperatorRole[] | undefined => ACCESS.get(name);
