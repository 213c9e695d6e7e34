// Notice.* actions for logged-in users: the latest notices with read state, marking read, and the unread count badge.
// (Notice.getShowHomeNotice, the public home notice, lives in site-content.ts.)
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { countUnreadNotices, listUserNotices, markAllNoticesRead, markNoticeRead } from '../db/notices';
import { defineAction } from './define';

export const noticeActions = {
  'Notice.getLatestNotice': defineAction({
    summary: '最新公告列表（含已读状态，内容HTML已净化），默认10条',
    access: 'user',
    cacheable: false,
    input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
    async handler(ctx, input) {
      const list = await listUserNotices(ctx.db, ctx.user.id, ctx.now, input.limit);
      return {
        list: list.map((n) => ({
          id: n.id,
          title: n.title,
          content: n.contentHtml, // stored sanitised (docs/decisions/096)
          publishedAt: n.publishedAt,
          isRead: n.isRead,
        })),
        unreadCount: await countUnreadNotices(ctx.db, ctx.user.id, ctx.now),
      };
    },
  }),

  'Notice.ReadNotice': defineAction({
    summary: '标记公告已读（id）；all=true 时全部标记已读；返回最新未读数',
    access: 'user',
    cacheable: false,
    input: z.union([z.object({ id: z.number().int().positive() }), z.object({ all: z.literal(true) })]),
    async handler(ctx, input) {
      if ('all' in input) await markAllNoticesRead(ctx.db, ctx.user.id, ctx.now);
      else if (!(await markNoticeRead(ctx.db, ctx.user.id, input.id, ctx.now))) throw new AppError('noticeNotFound');
      return { unreadCount: await countUnreadNotices(ctx.db, ctx.user.id, ctx.now) };
    },
  }),

  'Notice.getUnReadCount': defineAction({
    summary: '未读公告数（unreadCount，用于页头角标）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      return { unreadCount: await countUnreadNotices(ctx.db, ctx.user.id, ctx.now) };
    },
  }),
};
