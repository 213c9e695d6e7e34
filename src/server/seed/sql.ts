// The one way the demo seed writes SQL (docs/decisions/238): statements built from typed rows, values rendered by
// their type, table and column names checked against ./tables.ts when the seed compiles. The only SQL text a seed
// module writes itself goes through `rawSql`, whose interpolations are rendered as values too.
import type { SeedTables } from './tables';

export type Table = keyof SeedTables;
export type Column<T extends Table> = keyof SeedTables[T] & string;

const SQL = Symbol('sql');
/** SQL text placed as it is: made only by this module's helpers, never from data. */
export interface SqlText {
  readonly [SQL]: string;
}
const sqlText = (text: string): SqlText => ({ [SQL]: text });
const isSqlText = (v: unknown): v is SqlText => typeof v === 'object' && v !== null && SQL in v;

/** A value the builder renders. */
export type Value = string | number | boolean | null;
/** What a column may be given: a value of its type, or SQL text (a sub-select, a column of the selected row). */
export type Cell<V> = V | SqlText;
/** One row of `T`: a misspelt column, a missing required one or a value of the wrong type does not compile. */
export type Row<T extends Table> = { [C in keyof SeedTables[T]]: Cell<Exclude<SeedTables[T][C], undefined>> };
/** Columns to set in an update or a conflict's DO UPDATE. */
export type Assignments<T extends Table> = { [C in keyof SeedTables[T]]?: Cell<Exclude<SeedTables[T][C], undefined>> };
/** Columns equal to a value (`= v`), NULL (`IS NULL`) or one of a list (`IN (…)`). */
export type Match<T extends Table> = {
  [C in keyof SeedTables[T]]?:
    | Cell<Exclude<SeedTables[T][C], undefined>>
    | readonly Exclude<SeedTables[T][C], null | undefined>[];
};
/** Conditions joined by AND. */
export type Where<T extends Table> = Match<T> | SqlText | readonly (Match<T> | SqlText)[];

/** The SQL literal of a value: a quoted string, a safe integer or finite number, 1/0, NULL; anything else throws. */
export function sqlValue(value: Value): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return `'${value.replaceAll("'", "''")}'`;
    case 'boolean':
      return value ? '1' : '0';
    case 'number':
      if (Number.isInteger(value) ? Number.isSafeInteger(value) : Number.isFinite(value)) return String(value);
      throw new TypeError(`Not a number SQLite stores exactly: ${value}`);
    default:
      throw new TypeError(`Not a SQL value: ${typeof value}`);
  }
}

const cell = (v: unknown): string => (isSqlText(v) ? v[SQL] : sqlValue(v as Value));

function name(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(identifier)) throw new TypeError(`Not a table or column name: ${identifier}`);
  return identifier;
}

/**
 * SQL text written in the seed's source, for the few expressions a row cannot say (a correlated condition, a join, an
 * arithmetic over the selected row). Interpolated values are rendered as values, SQL text is placed as it is.
 */
export function rawSql(parts: TemplateStringsArray, ...values: (Value | SqlText)[]): SqlText {
  return sqlText(parts.reduce((out, part, i) => out + part + (i < values.length ? cell(values[i]) : ''), ''));
}

/** `table.column`: a column of the row being selected (INSERT … SELECT) or of the row being updated. */
export function col<T extends Table>(table: T, column: Column<T>): SqlText {
  return sqlText(`${name(table)}.${name(column)}`);
}

/** Conditions on columns of `table` written with its name (`table.c = v`), for statements that read two tables. */
export function matches<T extends Table>(table: T, match: Match<T>): SqlText {
  return sqlText(conditions(match as Match<Table>, name(table)));
}

/** `(SELECT column FROM table WHERE …)`: one value of another row, such as the id of a user found by phone. */
export function lookup<T extends Table>(table: T, column: Column<T>, where: Where<T>): SqlText {
  return sqlText(`(SELECT ${name(column)} FROM ${name(table)} WHERE ${conditions(where)})`);
}

/** `(SELECT count(*) FROM table WHERE …)`. */
export function countOf<T extends Table>(table: T, where: Where<T>): SqlText {
  return sqlText(`(SELECT count(*) FROM ${name(table)} WHERE ${conditions(where)})`);
}

/** `(SELECT sum(column) FROM table WHERE …)`. */
export function sumOf<T extends Table>(table: T, column: Column<T>, where: Where<T>): SqlText {
  return sqlText(`(SELECT sum(${name(column)}) FROM ${name(table)} WHERE ${conditions(where)})`);
}

/** `NOT EXISTS (SELECT 1 FROM table [WHERE …])`: the guard that keeps an insert without a unique key idempotent. */
export function notExists<T extends Table>(table: T, where?: Where<T>): SqlText {
  return sqlText(`NOT ${exists(table, where)[SQL]}`);
}

/** `EXISTS (SELECT 1 FROM table [WHERE …])`. */
export function exists<T extends Table>(table: T, where?: Where<T>): SqlText {
  return sqlText(`EXISTS (SELECT 1 FROM ${name(table)}${where === undefined ? '' : ` WHERE ${conditions(where)}`})`);
}

/** `… IS NOT NULL`: a lookup found its row. */
export function isNotNull(value: SqlText): SqlText {
  return sqlText(`${value[SQL]} IS NOT NULL`);
}

function conditions(where: Where<Table>, table?: string): string {
  const column = (c: string) => (table ? `${table}.${name(c)}` : name(c));
  const parts = (Array.isArray(where) ? where : [where]) as (Record<string, unknown> | SqlText)[];
  const out = parts.flatMap((part) =>
    isSqlText(part)
      ? [part[SQL]]
      : Object.entries(part).map(([c, v]) => {
          if (v === null) return `${column(c)} IS NULL`;
          if (!Array.isArray(v)) return `${column(c)} = ${cell(v)}`;
          if (v.length === 0) throw new TypeError(`Empty list for ${c}`);
          return `${column(c)} IN (${v.map(cell).join(', ')})`;
        }),
  );
  if (out.length === 0) throw new TypeError('No condition');
  return out.join(' AND ');
}

const assignments = (set: Record<string, unknown>) =>
  Object.entries(set)
    .map(([column, v]) => `${name(column)} = ${cell(v)}`)
    .join(', ');

/** What an insert does when the row is there already. */
export type OnConflict<T extends Table> =
  /** INSERT OR IGNORE. */
  | 'ignore'
  | { columns: readonly Column<T>[]; doNothing: true }
  | {
      columns: readonly Column<T>[];
      /** Columns set from the inserted row (`c = excluded.c`); 'rest' is every inserted column but `columns`. */
      update: readonly Column<T>[] | 'rest';
      /** Further columns set to a value or expression. */
      set?: Assignments<T>;
      /** Update only where this holds. */
      where?: SqlText;
    };

export interface InsertOptions<T extends Table, S extends Table> {
  onConflict?: OnConflict<T>;
  /**
   * INSERT … SELECT: the row is inserted once per row of `from` (a table, or tables joined as SQL text) where `where`
   * holds; its cells may read that row (`col`). Without `from`, the row is inserted only if `where` holds.
   */
  select?: { from?: S | SqlText; where?: Where<S>; orderBy?: SqlText; limit?: number };
}

/** One INSERT statement per row. */
export function insert<T extends Table, S extends Table = T>(
  table: T,
  rows: readonly Row<T>[],
  options: InsertOptions<T, S> = {},
): string[] {
  const { onConflict, select } = options;
  return rows.map((row) => {
    const entries = Object.entries(row as Record<string, unknown>);
    if (entries.length === 0) throw new TypeError(`No column for ${table}`);
    const columns = entries.map(([c]) => name(c));
    const values = entries.map(([, v]) => cell(v)).join(', ');
    let sql = `INSERT${onConflict === 'ignore' ? ' OR IGNORE' : ''} INTO ${name(table)} (${columns.join(', ')}) `;
    if (select) {
      const from =
        select.from === undefined ? '' : ` FROM ${isSqlText(select.from) ? select.from[SQL] : name(select.from)}`;
      // SQLite reads `ON CONFLICT` after `SELECT … FROM t` as a join constraint unless a WHERE comes between.
      const needsWhere = onConflict !== undefined && onConflict !== 'ignore';
      const where = select.where
        ? ` WHERE ${conditions(select.where as Where<Table>)}`
        : needsWhere
          ? ' WHERE true'
          : '';
      const order = select.orderBy ? ` ORDER BY ${select.orderBy[SQL]}` : '';
      const limit = select.limit === undefined ? '' : ` LIMIT ${sqlValue(select.limit)}`;
      sql += `SELECT ${values}${from}${where}${order}${limit}`;
    } else {
      sql += `VALUES (${values})`;
    }
    if (onConflict !== undefined && onConflict !== 'ignore') {
      sql += ` ON CONFLICT(${onConflict.columns.map(name).join(', ')}) `;
      if ('doNothing' in onConflict) {
        sql += 'DO NOTHING';
      } else {
        const keys: readonly string[] = onConflict.columns;
        const updated = onConflict.update === 'rest' ? columns.filter((c) => !keys.includes(c)) : onConflict.update;
        const set = [
          ...updated.map((c) => `${name(c)} = excluded.${name(c)}`),
          ...(onConflict.set ? [assignments(onConflict.set)] : []),
        ];
        sql += `DO UPDATE SET ${set.join(', ')}${onConflict.where ? ` WHERE ${onConflict.where[SQL]}` : ''}`;
      }
    }
    return `${sql};`;
  });
}

/** `UPDATE table SET … [WHERE …]`; without `where`, every row. */
export function update<T extends Table>(table: T, set: Assignments<T>, where?: Where<T>): string {
  const text = assignments(set);
  if (text === '') throw new TypeError(`Nothing to set in ${table}`);
  return `UPDATE ${name(table)} SET ${text}${where === undefined ? '' : ` WHERE ${conditions(where as Where<Table>)}`};`;
}

/** `DELETE FROM table WHERE …` (a condition is required). */
export function remove<T extends Table>(table: T, where: Where<T>): string {
  return `DELETE FROM ${name(table)} WHERE ${conditions(where as Where<Table>)};`;
}
