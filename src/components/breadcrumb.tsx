// The breadcrumb trail.
export function Breadcrumb({ items }: { items: { label: string; href?: string }[] }) {
  return (
    <nav aria-label="面包屑" className="text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, i) => (
          <li key={`${item.label}-${item.href ?? ''}`} className="flex items-center gap-1.5">
            {i > 0 && <span aria-hidden="true">/</span>}
            {item.href && i < items.length - 1 ? (
              <a href={item.href} className="hover:text-brand-600">
                {item.label}
              </a>
            ) : (
              <span className={i === items.length - 1 ? 'text-slate-800' : ''}>{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
