// Help-centre building blocks (server components): the category sidebar, title lists and the hot list.
import { formatDate } from '../../lib/format';
import type { CategoryDto, TitleDto } from '../../server/public-data';

export function TitleList({ items, showSummary = false }: { items: TitleDto[]; showSummary?: boolean }) {
  if (items.length === 0) return <p className="py-10 text-center text-sm text-slate-500">暂无文章</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {items.map((a) => (
        <li key={a.id} className="py-4">
          <a href={a.Url} className="group block">
            <span className="flex items-start justify-between gap-4">
              <span className="font-medium text-ink group-hover:text-brand-700">{a.Title}</span>
              <time className="shrink-0 text-xs text-slate-500" dateTime={new Date(a.publishedAt).toISOString()}>
                {formatDate(a.publishedAt)}
              </time>
            </span>
            {showSummary && a.summary && (
              <span className="mt-1 line-clamp-2 block text-sm text-slate-600">{a.summary}</span>
            )}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function HelpSidebar({
  categories,
  hot,
  activeCategoryId,
}: {
  categories: CategoryDto[];
  hot: TitleDto[];
  activeCategoryId?: number | null;
}) {
  const groups: { title: string; top: 0 | 2 }[] = [
    { title: '使用教程', top: 0 },
    { title: '产品与功能', top: 2 },
  ];
  return (
    <aside className="space-y-6" aria-label="帮助分类">
      {groups.map((g) => (
        <nav key={g.top} className="card p-4" aria-label={g.title}>
          <h2 className="mb-2 px-2 text-sm font-semibold text-slate-500">{g.title}</h2>
          <ul className="space-y-0.5">
            {categories
              .filter((c) => c.topCategory === g.top && c.articleCount > 0)
              .map((c) => (
                <li key={c.id}>
                  <a
                    href={c.path}
                    aria-current={c.id === activeCategoryId ? 'page' : undefined}
                    className={`flex items-center justify-between rounded-lg px-2 py-2 text-sm ${
                      c.id === activeCategoryId
                        ? 'bg-brand-50 font-medium text-brand-700'
                        : 'text-slate-700 hover:bg-slate-50'
                    }`}
                  >
                    {c.type}
                    <span className="text-xs text-slate-500">{c.articleCount}</span>
                  </a>
                </li>
              ))}
          </ul>
        </nav>
      ))}
      {hot.length > 0 && (
        <section className="card p-4">
          <h2 className="mb-2 px-2 text-sm font-semibold text-slate-500">热门文章</h2>
          <ol className="space-y-1">
            {hot.map((a, i) => (
              <li key={a.id}>
                <a href={a.Url} className="flex gap-2 rounded-lg px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50">
                  <span className={`w-4 shrink-0 font-semibold ${i < 3 ? 'text-brand-600' : 'text-slate-500'}`}>
                    {i + 1}
                  </span>
                  <span className="line-clamp-1">{a.Title}</span>
                </a>
              </li>
            ))}
          </ol>
        </section>
      )}
    </aside>
  );
}

/** The help-centre page frame: a light header band with the search box, then sidebar + content. */
export function HelpFrame({ children, sidebar }: { children: React.ReactNode; sidebar: React.ReactNode }) {
  return (
    <div className="container-page grid gap-6 py-6 md:grid-cols-[260px_1fr] md:py-8">
      <div className="order-2 md:order-1">{sidebar}</div>
      <div className="order-1 min-w-0 md:order-2">{children}</div>
    </div>
  );
}
