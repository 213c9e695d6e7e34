'use client';
// The home notice (Notice.getShowHomeNotice): a dismissible strip; the content is HTML sanitised on the server.
import { useEffect, useState } from 'react';

const KEY = 'homeNoticeClosed';

export function HomeNotice({ id, title, html }: { id: number; title: string; html: string }) {
  const [open, setOpen] = useState(true);
  const [expanded, setExpanded] = useState(false);
  useEffect(() => {
    try {
      if (window.localStorage.getItem(KEY) === String(id)) setOpen(false);
    } catch {
      // storage unavailable: keep showing
    }
  }, [id]);
  if (!open) return null;
  return (
    <section
      aria-label="网站公告"
      className="border-b border-amber-200 bg-amber-50 text-amber-900"
      data-testid="home-notice"
    >
      <div className="container-page flex items-start gap-3 py-3 text-sm">
        <span aria-hidden="true" className="mt-0.5 rounded bg-amber-500 px-1.5 text-xs font-semibold text-white">
          公告
        </span>
        <div className="min-w-0 flex-1">
          <button
            type="button"
            className="text-left font-semibold"
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
          >
            {title}
            <span className="ml-2 text-xs font-normal text-amber-800 underline">{expanded ? '收起' : '查看详情'}</span>
          </button>
          {expanded && (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allow-list sanitiser
            <div className="prose-help mt-1 text-[13px] text-amber-900" dangerouslySetInnerHTML={{ __html: html }} />
          )}
        </div>
        <button
          type="button"
          aria-label="关闭公告"
          className="px-1 text-amber-800 hover:text-amber-950"
          onClick={() => {
            setOpen(false);
            try {
              window.localStorage.setItem(KEY, String(id));
            } catch {
              // ignore
            }
          }}
        >
          ✕
        </button>
      </div>
    </section>
  );
}
