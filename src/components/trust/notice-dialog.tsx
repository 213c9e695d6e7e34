'use client';
// The notice bell's dialog (its code loads the first time the bell is opened, to keep it off the home page's first load): the latest
// notices (Notice.getLatestNotice); opening one marks it read (Notice.ReadNotice) and the badge drops. Notice HTML is
// sanitised by the server when it is saved.
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { ActionOutput } from '../../lib/api-core';
import { formatDate } from '../../lib/format';
import { api } from '../../state/api';
import { unreadNoticeCountAtom } from '../../state/notices';
import { Dialog } from '../dialog';

type NoticeItem = ActionOutput<'Notice.getLatestNotice'>['list'][number];

/** Mounted while the bell's dialog may show; loads the list each time it opens. */
export function NoticeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const setCount = useSetAtom(unreadNoticeCountAtom);
  const [list, setList] = useState<NoticeItem[]>([]);
  const [expanded, setExpanded] = useState<number | null>(null);

  useEffect(() => {
    if (!open) return;
    void api.call('Notice.getLatestNotice', {}, { silent: true }).then((r) => {
      if (r) {
        setList(r.list);
        setCount(r.unreadCount);
      }
    });
  }, [open, setCount]);

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
    <Dialog open={open} title="公告通知" onClose={onClose} bare width="max-w-lg">
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
  );
}
