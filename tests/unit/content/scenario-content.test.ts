// The business-scenario pages show each recommended setup as a real call to the extraction API (docs/extraction-api.md):
// only documented parameters, values the API accepts, and the product type that the page recommends buying.
import { describe, expect, it } from 'vitest';
import { SCENARIO_CONTENT } from '../../../src/pages/(default)/businessScen/_components/scenario-content';
import { SCENARIOS } from '../../../src/lib/site';
import { parseExtractQuery } from '../../../src/server/domain/extract-params';

const DOCUMENTED = new Set([
  'key',
  'num',
  'type',
  'package',
  'protocol',
  'format',
  'sep',
  'sep_text',
  'region',
  'exclude',
  'carrier',
  'dedup',
  'min_ttl',
  'fields',
]);

describe('scenario setups', () => {
  it('exist for all eight scenarios', () => {
    expect(SCENARIOS.map((s) => Boolean(SCENARIO_CONTENT[s.type]))).toEqual(SCENARIOS.map(() => true));
  });

  for (const s of SCENARIOS) {
    const setup = SCENARIO_CONTENT[s.type]?.setup;
    it(`${s.type}: the sample is a valid extraction for the recommended product, or usage steps`, () => {
      expect(setup).toBeDefined();
      if (!setup) return;
      const productType = new URL(setup.href, 'https://x').searchParams.get('type');
      if ('params' in setup) {
        const q = new URLSearchParams(`key=${'a'.repeat(32)}&${setup.params}`);
        expect([...q.keys()].filter((k) => !DOCUMENTED.has(k))).toEqual([]);
        expect(q.get('key')).toBe('a'.repeat(32));
        const parsed = parseExtractQuery(q);
        // Only short-lived (10) and long-lived static (40) packages are extracted; the sample asks for that type.
        expect(String(parsed.type)).toBe(productType);
      } else {
        // Fixed IPs are allocated, not extracted: the page explains the steps instead of a GET /extract line.
        expect(['30', '50']).toContain(productType);
        expect(setup.steps.length).toBeGreaterThan(1);
      }
    });
  }
});
