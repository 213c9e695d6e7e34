// The seed's table types (src/server/seed/tables.ts) say what the migrations create: every column of every table it
// lists, with its type, nullability and whether an insert may leave it out.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import source from '../../../src/server/seed/tables.ts?raw';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** `table → [“column?: type”]` as tables.ts declares them. */
function declared(text: string): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const table = /^ {2}([a-z0-9_]+): \{$/.exec(line);
    if (table?.[1]) {
      current = [];
      tables.set(table[1], current);
    }
    const column = /^ {4}([a-z0-9_]+\??): (.+);$/.exec(line);
    if (column && current) current.push(`${column[1]}: ${column[2]}`);
  }
  return tables;
}

/** The same declarations derived from the database the migrations built (a 0/1 column may say `Flag`). */
function expected(columns: ColumnInfo[], flags: Set<string>): string[] {
  const rowid = columns.filter((c) => c.pk > 0).length === 1;
  return columns.map((c) => {
    const optional =
      (c.notnull === 0 && c.pk === 0) || c.dflt_value !== null || (rowid && c.pk === 1 && c.type === 'INTEGER');
    const base = c.type === 'TEXT' ? 'string' : c.type === 'INTEGER' ? (flags.has(c.name) ? 'Flag' : 'number') : c.type;
    return `${c.name}${optional ? '?' : ''}: ${base}${c.notnull === 0 && c.pk === 0 ? ' | null' : ''}`;
  });
}

describe('the seed table types', () => {
  it('match the columns the migrations create', async () => {
    const tables = declared(source);
    expect(tables.size).toBeGreaterThan(40);
    for (const [table, columns] of tables) {
      const { results } = await env.DB.prepare('SELECT * FROM pragma_table_info(?1)').bind(table).all<ColumnInfo>();
      const flags = new Set(columns.filter((c) => /: Flag/.test(c)).map((c) => c.replace(/\??: .*/, '')));
      expect({ table, columns }).toEqual({ table, columns: expected(results, flags) });
    }
  });

  it('derives optional, nullable and flag columns the way tables.ts declares them', () => {
    const column = (name: string, type: string, notnull: number, dflt: string | null, pk: number): ColumnInfo => ({
      name,
      type,
      notnull,
      dflt_value: dflt,
      pk,
    });
    const info = [
      column('id', 'INTEGER', 0, null, 1),
      column('code', 'TEXT', 1, null, 0),
      column('remark', 'TEXT', 0, null, 0),
      column('enabled', 'INTEGER', 1, '1', 0),
    ];
    expect(expected(info, new Set(['enabled']))).toEqual([
      'id?: number',
      'code: string',
      'remark?: string | null',
      'enabled?: Flag',
    ]);
    expect(declared('  sellers: {\n    nickname?: string;\n  };\n').get('sellers')).toEqual(['nickname?: string']);
  });
});
