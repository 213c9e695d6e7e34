// The default layout's floating sidebar: customer service, business WeChat and back to top (desktop only).
import { SITE } from '../lib/site';

export function SideToolbar() {
  const item =
    'flex h-14 w-14 flex-col items-center justify-center gap-0.5 text-[11px] text-slate-600 hover:bg-brand-50 hover:text-brand-700';
  return (
    <aside
      aria-label="快捷服务"
      className="fixed right-4 bottom-24 z-30 hidden flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg md:flex"
    >
      <a href={`tel:${SITE.hotline}`} className={item} title={`客服热线 ${SITE.hotline}`}>
        <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
          <path
            d="M6.6 3.5h3l1.3 4-2 1.4a11 11 0 0 0 6.2 6.2l1.4-2 4 1.3v3a2 2 0 0 1-2.2 2A16.5 16.5 0 0 1 4.6 5.7a2 2 0 0 1 2-2.2Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
        </svg>
        客服
      </a>
      <a href="/firmsServer" className={`${item} border-t border-slate-100`}>
        <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
          <path d="M4 20V8l8-4 8 4v12M9 20v-6h6v6" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
        企业
      </a>
      <a href="#top" className={`${item} border-t border-slate-100`}>
        <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
          <path d="M6 14l6-6 6 6M12 8v12" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
        顶部
      </a>
    </aside>
  );
}
