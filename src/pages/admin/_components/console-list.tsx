// The console's list-screen kit (server components, no hooks): the GET search form, the table drawn from column
// definitions (a table from md up, cards on phones: src/components/data-table.tsx), the card around a full-width
// table, the "all …" select options and the query-string readers every list screen parses its filters with.
import type { ReactNode } from 'react';
import {
  Cell,
  type CellKind,
  DataBody,
  DataHead,
  DataRow,
  DataTable,
  EmptyRow,
  Th,
} from '../../../components/data-table';

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** A filter form that submits as a GET query (works without JavaScript), with its submit button last. */
export function SearchForm({
  children,
  submit = '查找',
  className = 'grid gap-2 sm:flex sm:flex-wrap',
  button = 'btn-primary',
}: {
  children: ReactNode;
  submit?: string;
  className?: string;
  button?: string;
}) {
  return (
    <form method="get" className={className} role="search">
      {children}
      <button type="submit" className={button}>
        {submit}
      </button>
    </form>
  );
}

/** A text filter: its query name, current value, accessible name and hint. */
export function TextFilter({
  name,
  value,
  label,
  hint = label,
  className,
}: {
  name: string;
  value: string;
  label: string;
  hint?: string;
  className: string;
}) {
  return <input name={name} defaultValue={value} className={className} placeholder={hint} aria-label={label} />;
}

/** A date filter with its visible caption (on a phone, stacked date fields are otherwise indistinguishable). */
export function DateFilter({
  name,
  value,
  caption,
  label = caption,
}: {
  name: string;
  value: string;
  caption: string;
  label?: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-500">
      <span className="shrink-0">{caption}</span>
      <input type="date" name={name} defaultValue={value} className="input sm:w-40" aria-label={label} />
    </label>
  );
}

/** `<option value="">{all}</option>` and one option per entry of a code → text map. */
export function AllOptions({
  all,
  allValue = '',
  options,
}: {
  all: string;
  allValue?: string;
  options: Record<string | number, string>;
}) {
  return (
    <>
      <option value={allValue}>{all}</option>
      {Object.entries(options).map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </>
  );
}

/** One column: its header, how a row fills its cell, and how the cell shows on phones (default: a labelled field). */
export interface Column<T> {
  head: string;
  cell: (row: T) => ReactNode;
  kind?: CellKind;
  className?: string;
}

/** A list as a table: header from the columns, one row per item, a message when there is none. */
export function ListTable<T>({
  rows,
  rowKey,
  columns,
  empty,
  pad = 'px-4',
  rowClassName = 'border-t border-slate-100',
  rowTestId,
  ...rest
}: {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: Column<T>[];
  empty: string;
  /** The horizontal padding of every cell. */
  pad?: 'px-3' | 'px-4';
  rowClassName?: string;
  rowTestId?: string;
  'data-testid'?: string;
}) {
  return (
    <DataTable data-testid={rest['data-testid']}>
      <DataHead className="bg-slate-50 text-xs text-slate-500">
        <tr>
          {columns.map((c) => (
            <Th key={c.head} className={`${pad} py-2`}>
              {c.head}
            </Th>
          ))}
        </tr>
      </DataHead>
      <DataBody>
        {rows.length === 0 && (
          <EmptyRow cols={columns.length} className="py-8 text-slate-400">
            {empty}
          </EmptyRow>
        )}
        {rows.map((row) => (
          <DataRow key={rowKey(row)} className={rowClassName} data-testid={rowTestId}>
            {columns.map((c) => (
              <Cell key={c.head} kind={c.kind ?? 'field'} label={c.head} className={cx(pad, 'py-2', c.className)}>
                {c.cell(row)}
              </Cell>
            ))}
          </DataRow>
        ))}
      </DataBody>
    </DataTable>
  );
}

/** The card a full-width table sits in (no card chrome on phones, where each row is its own card). */
export function TableCard({ children }: { children: ReactNode }) {
  return (
    <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">{children}</div>
  );
}

/** A search text from the query: trimmed to `max` characters. */
export const queryText = (p: URLSearchParams, key: string, max = 64): string => (p.get(key) ?? '').slice(0, max);

/** A whole number from the query within [min, max], else null. */
export function queryInt(p: URLSearchParams, key: string, min: number, max: number): number | null {
  const raw = p.get(key);
  const n = Number(raw);
  return raw && Number.isInteger(n) && n >= min && n <= max ? n : null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A "YYYY-MM-DD" day from the query, else ''. */
export const queryDay = (p: URLSearchParams, key: string): string => {
  const v = p.get(key) ?? '';
  return DAY.test(v) ? v : '';
};

/** A link to the same screen with these query values (empty ones left out). */
export function listHref(path: string, values: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
