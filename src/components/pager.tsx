// The one pager: "共 N 条 · 第 p/P 页" with previous and next, as links (server pages, work without JavaScript) or as
// buttons (client lists loaded in place).
export function Pager({
  page,
  pageSize,
  total,
  href,
  onPage,
  capped = false,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The total is a floor: there are more than `total` items (shown as "共 N+ 条"). */
  capped?: boolean;
  /** The link to page p (server-rendered lists). */
  href?: (p: number) => string;
  /** Load page p in place (client lists). */
  onPage?: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const count = `${total}${capped ? '+' : ''}`;
  if (pages <= 1) return <p className="px-1 pt-3 text-xs text-slate-400">共 {count} 条</p>;
  const step = (p: number, label: string) =>
    href ? (
      <a className="btn-ghost border border-slate-200 px-3 py-1" href={href(p)}>
        {label}
      </a>
    ) : (
      <button type="button" className="btn-ghost border border-slate-200 px-3 py-1" onClick={() => onPage?.(p)}>
        {label}
      </button>
    );
  return (
    <nav className="flex items-center justify-between gap-3 px-1 pt-3 text-sm text-slate-500" aria-label="分页">
      <span>
        共 {count} 条 · 第 {page}/{pages} 页
      </span>
      <span className="flex gap-2">
        {page > 1 ? step(page - 1, '上一页') : null}
        {page < pages ? step(page + 1, '下一页') : null}
      </span>
    </nav>
  );
}
