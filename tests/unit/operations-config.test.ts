// docs/operations.md lists every binding, variable and secret the code reads, and nothing else: the names in its
// configuration reference equal the Bindings of src/server/env.ts plus every env.NAME read in the source.
import { describe, expect, it } from 'vitest';
import operations from '../../docs/operations.md?raw';

const sources = import.meta.glob(['../../src/**/*.{ts,tsx}', '!../../src/server/seed/content/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** Names the code reads: `env.NAME`, `bindings.NAME`, `const { NAME, ... } = env` and the Bindings interface. */
function namesReadByCode(): Set<string> {
  const names = new Set<string>();
  for (const text of Object.values(sources)) {
    for (const m of text.matchAll(/\b(?:env|bindings|workerEnv)\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1] as string);
    for (const m of text.matchAll(/const \{([^}]+)\} = (?:ctx\.)?env\b/g)) {
      for (const n of (m[1] as string).split(',').map((s) => s.trim())) if (/^[A-Z][A-Z0-9_]+$/.test(n)) names.add(n);
    }
  }
  const envTs = sources['../../src/server/env.ts'] ?? '';
  const bindings = envTs.slice(
    envTs.indexOf('export interface Bindings'),
    envTs.indexOf('}', envTs.indexOf('export interface Bindings')),
  );
  for (const m of bindings.matchAll(/^\s+([A-Z][A-Z0-9_]+)\??:/gm)) names.add(m[1] as string);
  return names;
}

function namesDocumented(): Set<string> {
  const section = operations.slice(operations.indexOf('## Configuration reference'));
  const table = section.slice(0, section.indexOf('\n## ', 5));
  return new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));
}

describe('docs/operations.md configuration reference', () => {
  it('lists exactly the bindings, variables and secrets the code reads', () => {
    const code = namesReadByCode();
    expect(code.size).toBeGreaterThan(20);
    expect([...namesDocumented()].sort()).toEqual([...code].sort());
  });
});
