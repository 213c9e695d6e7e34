'use client';
// The header's notice bell: the unread badge (Notice.getUnReadCount); a click opens the latest notices
// (notice-dialog.tsx, whose code loads on the first click).
import { useAtom } from 'jotai';
import { lazy, Suspense, useEffect, useState } from 'react';
import { api } from '../../state/api';
import { unreadNoticeCountAtom } from '../../state/notices';

const NoticeDialog = lazy(() => import('./notice-dialog').then((m) => ({ default: m.NoticeDialog })));

export function NoticeBell() {
  const [count, setCount] = useAtom(unreadNoticeCountAtom);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);

  useEffect(() => {
    void api.call('Notice.getUnReadCount', {}, { silent: true }).then((r) => {
      if (r) setCount(r.unreadCount);
    });
  }, [setCount]);

  const show = () => {
    setOpen(true);
    setUsed(true);
  };

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
      {used && (
        <Suspense fallback={null}>
          <NoticeDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
