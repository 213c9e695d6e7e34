// docs/operations.md lists every binding, variable and secret the Worker reads, and nothing else: the names in its
// configuration reference equal the resource bindings, the configuration schema of src/server/env.ts and the build
// variables the client reads. Outside src/server/env.ts no code reads a configuration name from the bindings.
import { describe, expect, it } from 'vitest';
import operations from '../../docs/operations.md?raw';
import { CONFIG_NAMES } from '../../src/server/env';

const sources = import.meta.glob(['../../src/**/*.{ts,tsx}', '!../../src/server/seed/content/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const RESOURCES = ['DB', 'KV', 'FILES', 'ASSETS'];

/** Build variables the browser bundle reads (import.meta.env.WAKU_PUBLIC_*). */
function buildVariables(): string[] {
  const names = new Set<string>();
  for (const text of Object.values(sources)) {
    for (const m of text.matchAll(/\benv\.(WAKU_PUBLIC_[A-Z0-9_]+)\b/g)) names.add(m[1] as string);
  }
  return [...names];
}

function namesDocumented(): Set<string> {
  const section = operations.slice(operations.indexOf('## Configuration reference'));
  const table = section.slice(0, section.indexOf('\n## ', 5));
  return new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));
}

describe('docs/operations.md configuration reference', () => {
  it('lists exactly the bindings, the configuration schema and the build variables', () => {
    const code = new Set([...RESOURCES, ...CONFIG_NAMES, ...buildVariables()]);
    expect(code.size).toBeGreaterThan(20);
    expect([...namesDocumented()].sort()).toEqual([...code].sort());
  });

  it('is read only through readConfig (src/server/env.ts)', () => {
    const config = new Set<string>(CONFIG_NAMES);
    const readers: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      if (file.endsWith('/src/server/env.ts')) continue;
      for (const m of text.matchAll(/\b(?:env|bindings|workerEnv)\.([A-Z][A-Z0-9_]+)\b/g)) {
        if (config.has(m[1] as string)) readers.push(`${file}: ${m[1]}`);
      }
      for (const m of text.matchAll(/const \{([^}]+)\} = (?:ctx\.)?env\b/g)) {
        for (const n of (m[1] as string).split(',').map((s) => s.trim()))
          if (config.has(n)) readers.push(`${file}: ${n}`);
      }
    }
    expect(readers).toEqual([]);
  });
});
