'use client';
// The header's notice bell: the unread badge (Notice.getUnReadCount) and a dialog with the latest notices; opening a
// notice marks it read (Notice.ReadNotice) and the badge drops. Notice HTML is sanitised by the server.
import { useAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { ActionOutput } from '../../lib/api-core';
import { formatDate } from '../../lib/format';
import { api } from '../../state/api';
import { unreadNoticeCountAtom } from '../../state/notices';
import { Dialog } from '../dialog';

type NoticeItem = ActionOutput<'Notice.getLatestNotice'>['list'][number];

export function NoticeBell() {
  const [count, setCount] = useAtom(unreadNoticeCountAtom);
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<NoticeItem[]>([]);
  const [expanded, setExpanded] = useState<number | null>(null);

  useEffect(() => {
    void api.call('Notice.getUnReadCount', {}, { silent: true }).then((r) => {
      if (r) setCount(r.unreadCount);
    });
  }, [setCount]);

  async function show() {
    setOpen(true);
    const r = await api.call('Notice.getLatestNotice', {}, { silent: true });
    if (r) {
      setList(r.list);
      setCount(r.unreadCount);
    }
  }

  async function read(n: NoticeItem) {
    setExpanded(expanded === n.id ? null : n.id);
    if (n.isRead) return;
    const r = await api.call('Notice.ReadNotice', { id: n.id }, { silent: true });
    if (r) {
      setCount(r.unreadCount);
      setList((l) => l.map((x) => (x.id === n.id ? { ...x, isRead: true } : x)));
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={show}
        className="relative rounded-full p-2 hover:bg-slate-900/5"
        aria-label={count > 0 ? `公告，${count}条未读` : '公告'}
        data-testid="notice-bell"
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
          <path
            d="M10 2.5a5 5 0 0 0-5 5v3.2L3.5 13.5h13L15 10.7V7.5a5 5 0 0 0-5-5ZM8 15.5a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        </svg>
        {count > 0 && (
          <span
            className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-red-500 px-1 text-[10px] font-semibold text-white"
            data-testid="notice-badge"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      <Dialog open={open} title="公告通知" onClose={() => setOpen(false)} bare width="max-w-lg">
        {list.length === 0 ? (
          <p className="py-6 text-center text-slate-400">暂无公告</p>
        ) : (
          <ul className="-mx-2 max-h-[60vh] divide-y divide-slate-100 overflow-y-auto">
            {list.map((n) => (
              <li key={n.id} className="px-2 py-3">
                <button type="button" className="flex w-full items-start gap-2 text-left" onClick={() => read(n)}>
                  <span
                    className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${n.isRead ? 'bg-transparent' : 'bg-red-500'}`}
                    aria-hidden="true"
                  />
                  {!n.isRead && <span className="sr-only">未读</span>}
                  <span className="flex-1">
                    <span className={`block ${n.isRead ? 'text-slate-600' : 'font-medium text-ink'}`}>{n.title}</span>
                    <span className="text-xs text-slate-400">{formatDate(n.publishedAt)}</span>
                  </span>
                </button>
                {expanded === n.id && (
                  <div
                    className="prose-help mt-2 rounded-lg bg-slate-50 px-4 py-1 text-sm"
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allow-list sanitiser
                    dangerouslySetInnerHTML={{ __html: n.content }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  );
}
