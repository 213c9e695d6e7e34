// The city count and availability the site quotes come from the region catalogue's totals (docs/decisions/052).
import { describe, expect, it } from 'vitest';
import { coverageFigures } from '../../../src/lib/coverage-figures';

describe('coverageFigures', () => {
  it('quotes the catalogue: exact city count and the node-weighted availability with two decimals', () => {
    expect(coverageFigures({ cities: 345, provinces: 31, nodes: 120_000, availability: 99.68 })).toEqual({
      cities: '345',
      availability: '99.68%',
    });
    expect(coverageFigures({ cities: 12, provinces: 2, nodes: 10, availability: 97.5 }).availability).toBe('97.50%');
  });

  it('falls back to the lower bound "300+" and no availability when the catalogue is empty or unreadable', () => {
    const fallback = { cities: '300+', availability: null };
    expect(coverageFigures(null)).toEqual(fallback);
    expect(coverageFigures(undefined)).toEqual(fallback);
    expect(coverageFigures({ cities: 0, provinces: 0, nodes: 0, availability: 0 })).toEqual(fallback);
  });
});
