// The console's list-screen kit (server components, no hooks): the GET search form, the table drawn from column
// definitions (a table from md up; on phones a card per row, src/components/data-table.tsx, or with `dense` one
// two-line row per item that opens it), the card around a full-width table, the "all …" select options and the
// query-string readers every list screen parses its filters with.
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

/**
 * Where a column's cell goes in a dense phone row (`ListTable dense`): the first line's start (title) or end, the second
 * line's start (sub), end (subEnd) or whole width (subWide). A column with no place is not shown on a phone.
 */
export type DenseSlot = 'title' | 'end' | 'sub' | 'subEnd' | 'subWide';

/** One column: its header, how a row fills its cell, and how the cell shows on phones (default: a labelled field). */
export interface Column<T> {
  head: string;
  cell: (row: T) => ReactNode;
  kind?: CellKind;
  className?: string;
  /** Classes of the header cell (e.g. text-right for figures). */
  headClassName?: string;
  /** Dense lists: where the cell shows on a phone (none: desktop only). */
  dense?: DenseSlot;
  /** Dense lists: a cell only the phone row has (its second line's summary); it has no header. */
  phoneOnly?: boolean;
}

const DENSE_SLOT: Record<DenseSlot, string> = {
  title: 'max-md:col-start-1 max-md:row-start-1 max-md:flex max-md:min-w-0 max-md:gap-1.5',
  end: 'max-md:col-start-2 max-md:row-start-1 max-md:text-right',
  sub: 'max-md:col-start-1 max-md:row-start-2 max-md:min-w-0',
  subEnd: 'max-md:col-start-2 max-md:row-start-2 max-md:text-right',
  subWide: 'max-md:col-span-2 max-md:row-start-2',
};

// A dense row: a table row from md up; on a phone a grid of two lines (title and end, then the summary) and a chevron,
// the title's link (give it `denseLink`) covering the whole row.
const DENSE_ROW =
  'hover:bg-slate-50 aria-[current=true]:bg-brand-50/60 max-md:relative max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto_0.75rem] max-md:items-baseline max-md:gap-x-3 max-md:gap-y-0.5 max-md:px-4 max-md:py-2.5';

/** The class of a dense row's title link: on a phone it covers the whole row, so the row opens the item. */
export const denseLink = 'max-md:truncate max-md:after:absolute max-md:after:inset-0';

/** A list as a table: header from the columns, one row per item, a message when there is none. */
export function ListTable<T>({
  rows,
  rowKey,
  columns,
  empty,
  pad = 'px-4',
  rowClassName = 'border-t border-slate-100',
  rowTestId,
  dense = false,
  current,
  chevron = true,
  ...rest
}: {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: Column<T>[];
  empty: ReactNode;
  /** The horizontal padding of every cell. */
  pad?: 'px-3' | 'px-4';
  /** The classes of each row, or of one row. */
  rowClassName?: string | ((row: T) => string | undefined);
  rowTestId?: string;
  /**
   * One two-line row per item on a phone (the columns' `dense` slots, a chevron, the row opens the item) instead of a
   * card per item: for long lists that are read by scrolling.
   */
  dense?: boolean;
  /** The row open beside the list (marked). */
  current?: (row: T) => boolean;
  /** Dense lists: the chevron that says a row opens its item (off for rows that open nothing). */
  chevron?: boolean;
  'data-testid'?: string;
}) {
  const rowClass = (row: T) => (typeof rowClassName === 'function' ? rowClassName(row) : rowClassName);
  if (dense) {
    const desktop = columns.filter((c) => !c.phoneOnly);
    return (
      <DataTable data-testid={rest['data-testid']}>
        <thead className="bg-slate-50 text-xs text-slate-500 max-md:hidden">
          <tr>
            {desktop.map((c) => (
              <th key={c.head} className={cx(pad, 'py-2 font-normal', c.headClassName)}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block">
          {rows.length === 0 && (
            <EmptyRow cols={desktop.length} className={cx(pad, 'py-8 text-slate-400')}>
              {empty}
            </EmptyRow>
          )}
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className={cx(DENSE_ROW, rowClass(row))}
              aria-current={current?.(row) ? 'true' : undefined}
              data-testid={rowTestId}
            >
              {columns.map((c) => (
                <td
                  key={c.head}
                  className={cx(
                    pad,
                    'py-2.5 align-middle max-md:p-0',
                    c.phoneOnly ? 'md:hidden' : '',
                    c.dense ? DENSE_SLOT[c.dense] : 'max-md:hidden',
                    c.className,
                  )}
                >
                  {c.cell(row)}
                </td>
              ))}
              {chevron ? (
                <td
                  aria-hidden="true"
                  className="self-center text-slate-300 md:hidden max-md:col-start-3 max-md:row-span-2"
                >
                  ›
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </DataTable>
    );
  }
  return (
    <DataTable data-testid={rest['data-testid']}>
      <DataHead className="bg-slate-50 text-xs text-slate-500">
        <tr>
          {columns.map((c) => (
            <Th key={c.head} className={cx(pad, 'py-2', c.headClassName)}>
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
          <DataRow key={rowKey(row)} className={rowClass(row)} data-testid={rowTestId}>
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
