// Small server-rendered pieces shared by the delivery pages: page heading, tabs as links, link pagination, empty row.
import type { ReactNode } from 'react';
import { Breadcrumb } from '../breadcrumb';
import { EmptyRow as DataEmptyRow } from '../data-table';

export function PageHead({ trail, title, actions }: { trail: string[]; title: string; actions?: ReactNode }) {
  return (
    <div className="space-y-3">
      <title>{`${title} - 云枢代理`}</title>
      <Breadcrumb items={trail.map((label, i) => (i === 0 ? { label, href: '/personalCenter' } : { label }))} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-ink">{title}</h1>
        {actions}
      </div>
    </div>
  );
}

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

export function LinkPager({
  page,
  pageSize,
  total,
  href,
}: {
  page: number;
  pageSize: number;
  total: number;
  href: (p: number) => string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return <p className="px-1 pt-3 text-xs text-slate-400">共 {total} 条</p>;
  return (
    <div className="flex items-center justify-between px-1 pt-3 text-sm text-slate-500">
      <span>
        共 {total} 条 · 第 {page}/{pages} 页
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <a className="btn-ghost border border-slate-200 px-3 py-1" href={href(page - 1)}>
            上一页
          </a>
        ) : null}
        {page < pages ? (
          <a className="btn-ghost border border-slate-200 px-3 py-1" href={href(page + 1)}>
            下一页
          </a>
        ) : null}
      </span>
    </div>
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
