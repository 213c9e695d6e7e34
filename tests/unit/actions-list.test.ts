import { describe, expect, it } from 'vitest';
import { CACHEABLE_ACTIONS } from '../../src/lib/actions';
import { registry } from '../../src/server/actions/registry';

describe('client action facts', () => {
  it('lists exactly the registry actions marked cacheable', () => {
    const fromRegistry = Object.entries(registry)
      .filter(([, a]) => a.cacheable)
      .map(([n]) => n)
      .sort();
    expect([...CACHEABLE_ACTIONS].sort()).toEqual(fromRegistry);
  });

  it('marks no mutation-looking action cacheable', () => {
    for (const name of CACHEABLE_ACTIONS) {
      expect(name).not.toMatch(/\.(Add|Edit|Delete|Remove|Buy|Change|Set|Save|Receive|Give|Read|Login|Logout)/i);
    }
  });
});
