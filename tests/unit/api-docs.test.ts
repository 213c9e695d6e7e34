import { describe, expect, it } from 'vitest';
import apiDocs from '../../docs/api.md?raw';
import { renderApiDocs } from '../../src/server/actions/docs';
import { registry } from '../../src/server/actions/registry';

describe('docs/api.md', () => {
  it('is exactly what the registry renders (run npm run docs:api after changing actions)', () => {
    expect(apiDocs).toBe(renderApiDocs(registry));
  });

  it('documents every action, with access and cacheability', () => {
    for (const [name, action] of Object.entries(registry)) {
      expect(apiDocs).toContain(`### ${name}`);
      expect(action.summary.length).toBeGreaterThan(4);
    }
  });
});
