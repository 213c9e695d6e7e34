// Server-rendered parts of the personal centre's list pages: tabs as links, the empty row, the query and page number.
import { EmptyRow as DataEmptyRow } from './data-table';

export function LinkTabs({ tabs, current }: { tabs: { label: string; href: string; key: string }[]; current: string }) {
  return (
    <nav className="flex gap-1 overflow-x-auto border-b border-slate-200" aria-label="切换">
      {tabs.map((t) => (
        <a
          key={t.key}
          href={t.href}
          aria-current={t.key === current ? 'page' : undefined}
          className={`-mb-px border-b-2 px-4 py-2.5 text-sm whitespace-nowrap ${t.key === current ? 'border-brand-600 font-medium text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
        >
          {t.label}
        </a>
      ))}
    </nav>
  );
}

export const EmptyRow = ({ cols, text = '暂无数据' }: { cols: number; text?: string }) => (
  <DataEmptyRow cols={cols} className="py-10 text-sm text-slate-400">
    {text}
  </DataEmptyRow>
);

/** Parse a page query string ("a=1&b=2"). */
export const queryOf = (query: string | undefined) => new URLSearchParams(query ?? '');

/** A positive integer page number from the query. */
export const pageOf = (q: URLSearchParams) => {
  const n = Number(q.get('page'));
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
};
