// docs/architecture.md names only code that exists, and every decision record carries a status that the index repeats.
// Rules checked on docs/architecture.md (outside fenced code blocks unless said otherwise):
//  1. Paths: every word of an inline `code span` that starts with src/, scripts/, tests/, docs/ or migrations/ is a file
//     of the repository, or a folder holding one (a `:12-30` line suffix is ignored; words holding <, *, { or $ are
//     patterns and are skipped).
//  2. Actions: a code span that is exactly `Group.Action` (two capitalised names) is an entry of the action registry.
//  3. Names: `name` (or `name()`) directly followed by " in `path`" — the path is a file and contains that name as a
//     word.
//  4. Examples: a fenced code block whose first line is `// path` is an excerpt of that file: each other non-empty line,
//     trimmed, is a line of the file (trimmed); a line `// …` marks left-out lines.
//  5. The layer table between the markers is what `node scripts/architecture-layers.mjs` renders from the rule table of
//     scripts/check-imports.mjs.
// On docs/decisions/: each NNN-title.md has, as the first non-empty line under its `# title`, `Status: current`,
// `Status: history` or `Status: superseded by NNN` (an existing record); docs/decisions/README.md lists every record
// with that status (`node scripts/decisions-index.mjs` rewrites the index).
import { describe, expect, it } from 'vitest';
import architecture from '../../docs/architecture.md?raw';
import decisionsReadme from '../../docs/decisions/README.md?raw';
import checkImports from '../../scripts/check-imports.mjs?raw';
import thisFile from './architecture-doc.test.ts?raw';
import { BEGIN, END, renderLayers } from '../../scripts/architecture-layers.mjs';
import { registry } from '../../src/server/actions/registry';

const files = import.meta.glob(
  ['../../src/**/*', '../../scripts/**/*', '../../tests/**/*', '../../docs/**/*', '../../migrations/**/*'],
  { query: '?raw', import: 'default' },
) as Record<string, () => Promise<string>>;
/** Repository path (src/…) → loader of its text (glob keys are relative to this folder: `./x`, `../x`, `../../src/x`). */
const repo = new Map(
  Object.entries(files).map(([k, load]) => [decodeURI(new URL(k, 'file:///repo/tests/unit/').pathname.slice(6)), load]),
);
// A glob never lists the file doing the globbing.
repo.set('tests/unit/architecture-doc.test.ts', async () => thisFile);

const records = import.meta.glob('../../docs/decisions/[0-9][0-9][0-9]-*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const ROOT = /^(src|scripts|tests|docs|migrations)\//;

const exists = (path: string) => {
  if (repo.has(path)) return true;
  const dir = path.endsWith('/') ? path : `${path}/`;
  for (const p of repo.keys()) if (p.startsWith(dir)) return true;
  return false;
};

const hasWord = (text: string, name: string) =>
  new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}($|[^\\w$])`).test(text);

/** The prose (fenced blocks blanked) and the fenced blocks of a markdown text. */
function split(md: string): { prose: string; blocks: string[] } {
  const parts = md.split(/^```.*$/m);
  return {
    prose: parts.filter((_, i) => i % 2 === 0).join('\n'),
    blocks: parts.filter((_, i) => i % 2 === 1).map((b) => b.replace(/^\n/, '')),
  };
}

/** Every problem of rules 1-4 in `md`. */
async function problemsOf(md: string): Promise<string[]> {
  const problems: string[] = [];
  const { prose, blocks } = split(md);
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
  for (const span of spans) {
    for (const word of span.split(/\s+/)) {
      const path = word.replace(/[),;.]+$/, '').replace(/:\d[\d-]*$/, '');
      if (!ROOT.test(path) || /[<*{$]/.test(path)) continue;
      if (!exists(path)) problems.push(`path \`${path}\` does not exist`);
    }
    if (/^[A-Z]\w*\.[A-Z]\w*$/.test(span) && !(span in registry)) problems.push(`action \`${span}\` is not registered`);
  }
  for (const m of prose.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?` in `([^`\n]+)`/g)) {
    const [, name, path] = m as unknown as [string, string, string];
    const load = repo.get(path);
    if (!load) problems.push(`\`${name}\` in \`${path}\`: no such file`);
    else if (!hasWord(await load(), name)) problems.push(`\`${name}\` in \`${path}\`: the file has no ${name}`);
  }
  for (const block of blocks) {
    const [first = '', ...lines] = block.split('\n');
    const path = first.match(/^\/\/ (\S+)$/)?.[1];
    if (!path || !ROOT.test(path)) continue;
    const load = repo.get(path);
    if (!load) {
      problems.push(`example from \`${path}\`: no such file`);
      continue;
    }
    const have = new Set((await load()).split('\n').map((l) => l.trim()));
    for (const line of lines.map((l) => l.trim())) {
      if (line && line !== '// …' && !have.has(line))
        problems.push(`example from \`${path}\`: not in the file: ${line}`);
    }
  }
  return problems;
}

describe('docs/architecture.md', () => {
  it('names only paths, actions and names that exist, and quotes its examples from the files', async () => {
    expect(repo.size).toBeGreaterThan(300);
    expect(await problemsOf(architecture)).toEqual([]);
  });

  it('shows the layer table that scripts/check-imports.mjs enforces', () => {
    const section = architecture.slice(architecture.indexOf(BEGIN), architecture.indexOf(END) + END.length);
    expect(
      section,
      "docs/architecture.md's layer table differs from scripts/check-imports.mjs: run `node scripts/architecture-layers.mjs`",
    ).toBe(renderLayers(checkImports));
    expect(renderLayers(checkImports)).toContain('| lib | `src/lib/` | lib |');
  });

  it('catches each kind of mistake (the check itself can fail)', async () => {
    const bad = [
      'See `src/server/jobs/coupons.ts` and `node scripts/nope.mjs`, call `Coupon.Count`,',
      'use `CouponTable` in `src/pages/admin/(console)/orders/index.tsx`.',
      '```ts',
      '// src/server/actions/coupon.ts',
      "'Coupon.GetReceivable': defineAction({",
      "  summary: '当前用户可用优惠券数量',",
      '```',
    ].join('\n');
    expect(await problemsOf(bad)).toEqual([
      'path `src/server/jobs/coupons.ts` does not exist',
      'path `scripts/nope.mjs` does not exist',
      'action `Coupon.Count` is not registered',
      '`CouponTable` in `src/pages/admin/(console)/orders/index.tsx`: the file has no CouponTable',
      "example from `src/server/actions/coupon.ts`: not in the file: summary: '当前用户可用优惠券数量',",
    ]);
    expect(await problemsOf('`ListTable` in `src/pages/admin/(console)/orders/index.tsx`, `src/server/db/`')).toEqual(
      [],
    );
  });
});

const STATUS = /^Status: (current|history|superseded by (\d{3}))$/;

/** Number → status line value of each record, with the problems found. */
function recordStatuses(): { statuses: Map<string, string>; problems: string[] } {
  const statuses = new Map<string, string>();
  const problems: string[] = [];
  const numbers = new Set(Object.keys(records).map((k) => k.match(/(\d{3})-[^/]*$/)?.[1]));
  for (const [key, text] of Object.entries(records)) {
    const num = key.match(/(\d{3})-[^/]*$/)?.[1] as string;
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const m = lines[1]?.match(STATUS);
    if (!lines[0]?.startsWith('# ') || !m) {
      problems.push(`${num}: the first line under the title is not a Status line (${lines[1] ?? ''})`);
      continue;
    }
    if (m[2] && !numbers.has(m[2])) problems.push(`${num}: superseded by ${m[2]}, which is not a record`);
    statuses.set(num, m[1] as string);
  }
  return { statuses, problems };
}

describe('docs/decisions', () => {
  it('every record says under its title whether it is current, history or superseded by a later record', () => {
    const { statuses, problems } = recordStatuses();
    expect(statuses.size + problems.length).toBeGreaterThan(60);
    expect(problems).toEqual([]);
  });

  it('the index in docs/decisions/README.md lists every record with its status (run node scripts/decisions-index.mjs)', () => {
    const { statuses } = recordStatuses();
    const listed = new Map(
      [
        ...decisionsReadme.matchAll(/^\| \[(\d{3})\]\([^)]+\) \| .* \| (current|history|superseded by \d{3}) \|$/gm),
      ].map((m) => [m[1] as string, m[2] as string]),
    );
    expect(
      Object.fromEntries(listed),
      'docs/decisions/README.md is out of date: run `node scripts/decisions-index.mjs`',
    ).toEqual(Object.fromEntries(statuses));
  });
});
