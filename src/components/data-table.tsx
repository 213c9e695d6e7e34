// A data table that stays a table from md up and shows each body row as a compact card on phones (below md): a title
// line, label/value pairs (the label comes from the cell's `label`, shown with CSS only) and the actions as buttons at
// the bottom. One markup for both widths, so test ids, roles (table/row/cell) and accessible names never change.
// Desktop looks come from the callers' class names; everything added here is max-md: only. No hooks: usable from
// server components and from client tables alike.
import type { ComponentProps, ReactNode } from 'react';

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** `<table>`: a block on phones, so nothing needs a minimum width there (give min widths as `md:min-w-[…]`). */
export function DataTable({ className, ...props }: ComponentProps<'table'>) {
  return <table className={cx('w-full text-left text-sm max-md:block', className)} {...props} />;
}

/** `<thead>`: on phones the header cells are visually hidden (still read out) unless a `Th` opts in with `mobile`. */
export function DataHead({ className, ...props }: ComponentProps<'thead'>) {
  return (
    <thead
      className={cx('max-md:block max-md:[&>tr]:flex max-md:[&>tr]:items-center max-md:[&>tr]:border-0', className)}
      {...props}
    />
  );
}

/** A header cell; `mobile` keeps it visible on phones (e.g. a select-all checkbox). */
export function Th({ className, mobile = false, ...props }: ComponentProps<'th'> & { mobile?: boolean }) {
  return (
    <th
      className={cx(
        className,
        mobile ? 'max-md:flex max-md:w-auto max-md:items-center max-md:gap-2 max-md:pb-2' : 'max-md:sr-only',
      )}
      {...props}
    />
  );
}

export function DataBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cx('max-md:block max-md:space-y-3', className)} {...props} />;
}

/** A body row: a card on phones (the title cell and a select cell share its first line). */
export function DataRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      className={cx(
        className,
        'max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:gap-x-3 max-md:rounded-lg max-md:border max-md:border-slate-200 max-md:bg-white max-md:px-3 max-md:py-2.5',
      )}
      {...props}
    />
  );
}

/**
 * How a cell shows on phones. title: the card's first line; field: "label … value" (needs `label`); select: a
 * checkbox at the end of the first line; full: the whole width, no label; actions: buttons in a row at the bottom
 * (hidden when empty; give the buttons `rowAction()`).
 */
export type CellKind = 'title' | 'field' | 'select' | 'full' | 'actions';

const KIND: Record<CellKind, string> = {
  title: 'max-md:col-start-1 max-md:row-start-1 max-md:block max-md:min-w-0 max-md:py-1 max-md:break-words',
  select: 'max-md:col-start-2 max-md:row-start-1 max-md:flex max-md:items-start max-md:py-1.5 max-md:[&_input]:size-5',
  field:
    'max-md:col-span-2 max-md:grid max-md:grid-cols-[auto_minmax(0,1fr)] max-md:items-baseline max-md:gap-x-4 max-md:py-1 max-md:text-right max-md:break-words max-md:whitespace-normal max-md:before:col-start-1 max-md:before:text-left max-md:before:text-xs max-md:before:font-normal max-md:before:text-slate-400 max-md:before:content-[attr(data-label)] max-md:[&>*]:col-start-2 max-md:[&>*]:justify-self-end',
  full: 'max-md:col-span-2 max-md:block max-md:py-1',
  actions:
    'max-md:col-span-2 max-md:mt-2 max-md:flex max-md:flex-wrap max-md:gap-2 max-md:border-t max-md:border-slate-100 max-md:pt-2.5 max-md:empty:hidden',
};

export function Cell({
  kind = 'field',
  label,
  className,
  ...props
}: ComponentProps<'td'> & { kind?: CellKind; label?: string }) {
  return (
    <td
      data-label={kind === 'field' ? label : undefined}
      className={cx(className, 'max-md:px-0', KIND[kind])}
      {...props}
    />
  );
}

/** The row for an empty table: a centred message that stays inside the screen on phones. */
export function EmptyRow({ cols, className, children }: { cols: number; className?: string; children: ReactNode }) {
  return (
    <tr className="max-md:block">
      <td colSpan={cols} className={cx('text-center', className, 'max-md:block')}>
        {children}
      </td>
    </tr>
  );
}

/** A row action: a text link in the table, a full button in the phone card. */
export function rowAction(tone: 'brand' | 'danger' = 'brand'): string {
  return cx(
    tone === 'danger' ? 'text-rose-600 max-md:border-rose-200' : 'text-brand-600 max-md:border-brand-200',
    'hover:underline max-md:inline-flex max-md:min-h-9 max-md:min-w-20 max-md:flex-1 max-md:items-center max-md:justify-center max-md:rounded-lg max-md:border max-md:px-3 max-md:text-sm max-md:hover:no-underline',
  );
}

/**
 * A headed table of the customer pages (the console's list table is `ListTable` in console-list.tsx): one header row of
 * plain column titles (`lead`: an optional first header cell, e.g. a select-all box), the body rows, and `empty` in one
 * centred row while there are none.
 */
export function HeadedTable({
  columns,
  lead,
  empty,
  emptyClassName,
  children,
  ...props
}: ComponentProps<'table'> & { columns: string[]; lead?: ReactNode; empty: ReactNode; emptyClassName?: string }) {
  return (
    <DataTable {...props}>
      <DataHead className="text-xs text-slate-500">
        <tr className="border-b border-slate-100">
          {lead}
          {columns.map((c, i) => (
            <Th key={c} className={cx(!lead && i === 0 && 'py-2', 'font-normal')}>
              {c}
            </Th>
          ))}
        </tr>
      </DataHead>
      <DataBody>
        {empty && (
          <EmptyRow cols={columns.length + (lead ? 1 : 0)} className={cx(emptyClassName, 'text-slate-400')}>
            {empty}
          </EmptyRow>
        )}
        {children}
      </DataBody>
    </DataTable>
  );
}
