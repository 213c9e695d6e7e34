// Action facts the clients need without importing the server registry: which actions may be cached.
// tests/unit/actions-list.test.ts keeps this in step with the registry's own `cacheable` flags.

export const CACHEABLE_ACTIONS: ReadonlySet<string> = new Set<string>([]);

/** True when clients may keep this action's result in the 5-minute cache. */
export const isCacheableAction = (name: string): boolean => CACHEABLE_ACTIONS.has(name);
