// No statement of src/server/db binds its LIMIT as a bare parameter (docs/decisions/191). SQLite reads a bare `LIMIT ?`
// parameter's value when it prepares the statement, and marks the statement stale whenever that parameter is bound
// again, so D1 prepared the statement anew on every call. `LIMIT ?N + 0` is the same limit, read only when it runs.
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob('../../src/server/db/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** Every `LIMIT ?`, `LIMIT ?N` or `LIMIT ?${…}` of `text` that is not followed by ` + 0`, with its line. */
function bareLimits(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/LIMIT \?(\d+|\$\{[^}]*\})?(?![\d$]| \+ 0)/g)) found.push(`${i + 1}: ${m[0]}`);
  });
  return found;
}

describe('LIMIT parameters of src/server/db', () => {
  it('are never bare, so every statement stays prepared across calls', () => {
    const files = Object.keys(sources);
    expect(files.length).toBeGreaterThan(30);
    const problems = Object.entries(sources).flatMap(([file, text]) => bareLimits(text).map((l) => `${file}:${l}`));
    expect(problems).toEqual([]);
  });

  it('finds a bare one in any of its spellings (the check itself can fail)', () => {
    expect(bareLimits('SELECT 1 LIMIT ?')).toEqual(['1: LIMIT ?']);
    expect(bareLimits('x\nSELECT 1 LIMIT ?4 OFFSET ?5')).toEqual(['2: LIMIT ?4']);
    const placeholder = ['$', '{n}'].join(''); // a template placeholder as it appears in the source
    expect(bareLimits(`SELECT 1 LIMIT ?${placeholder})`)).toEqual([`1: LIMIT ?${placeholder}`]);
    expect(bareLimits('SELECT 1 LIMIT ?4 + 0 OFFSET ?5')).toEqual([]);
    expect(bareLimits('SELECT 1 LIMIT 10')).toEqual([]);
  });
});
