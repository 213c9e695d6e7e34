// Public shell content: friend links (Link.queryLinks), the home notice (Notice.getShowHomeNotice), marketing images
// (Activity.GetActivityMarketingImg) and the online-chat switch (Config.CurrentMessageShow).
import { z } from 'zod';
import {
  findCurrentHomeNotice,
  listFriendLinks,
  listLiveMarketingImages,
  listRegions,
  type MarketingImageRecord,
  readSetting,
} from '../db/site-content';
import { safeHref } from '../domain/html-sanitizer';
import { safeMarketingImage } from '../domain/marketing-image';
import { defineAction } from './define';

/** Where the online-chat script is loaded from when no CHAT_SCRIPT_URL is configured. */
export const DEFAULT_CHAT_SCRIPT = '/chat-widget.js';

// Only images whose picture and link pass the safe-URL rule leave the server, whatever an operator stored.
const imageDto = (r: MarketingImageRecord | undefined) =>
  r
    ? safeMarketingImage({ img: r.img, isClick: r.isClick, clickUrl: r.clickUrl, inOrOut: r.inOrOut, alt: r.alt })
    : null;

export const siteContentActions = {
  'Region.GetCoverage': defineAction({
    summary: '节点覆盖：20个热门城市、按省份分组的全部城市（运营商、节点数、可用率、动态/静态可用）与汇总',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      const all = await listRegions(ctx.db);
      const toDto = (r: (typeof all)[number]) => ({
        province: r.province,
        city: r.city,
        carriers: r.carriers,
        nodeCount: r.nodeCount,
        availability: r.availabilityBp / 100,
        dynamicOk: r.dynamicOk,
        staticOk: r.staticOk,
      });
      const provinces = new Map<string, ReturnType<typeof toDto>[]>();
      for (const r of all) provinces.set(r.province, [...(provinces.get(r.province) ?? []), toDto(r)]);
      const nodes = all.reduce((n, r) => n + r.nodeCount, 0);
      const avgBp = all.length
        ? Math.round(all.reduce((n, r) => n + r.availabilityBp * r.nodeCount, 0) / Math.max(1, nodes))
        : 0;
      return {
        hot: all
          .filter((r) => r.hotRank > 0)
          .slice(0, 20)
          .map(toDto),
        provinces: [...provinces].map(([province, cities]) => ({ province, cities })),
        totals: { cities: all.length, provinces: provinces.size, nodes, availability: avgBp / 100 },
      };
    },
  }),

  'Link.queryLinks': defineAction({
    summary: '友情链接（linkName、linkUrl、linkTarget、noFollow）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      // Only http(s) targets survive, whatever an operator stored.
      const list = (await listFriendLinks(ctx.db)).filter((l) => safeHref(l.linkUrl)?.external === true);
      return { list };
    },
  }),

  'Notice.getShowHomeNotice': defineAction({
    summary: '首页公告（当前生效的一条；content 为已净化的 HTML）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      const n = await findCurrentHomeNotice(ctx.db, ctx.now);
      return {
        notice: n ? { id: n.id, title: n.title, content: n.contentHtml, publishedAt: n.startsAt } : null,
      };
    },
  }),

  'Activity.GetActivityMarketingImg': defineAction({
    summary: '活动营销图（imges.centerImg 顶部横幅、imges.bottomBtn2；inOrOut 1 站内路由，2 站外链接）',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      const rows = await listLiveMarketingImages(ctx.db, ctx.now, ctx.user ? 'user' : 'guest');
      return {
        imges: {
          centerImg: imageDto(rows.find((r) => r.slot === 'centerImg')),
          bottomBtn2: imageDto(rows.find((r) => r.slot === 'bottomBtn2')),
        },
      };
    },
  }),

  'Config.CurrentMessageShow': defineAction({
    summary: '是否加载在线客服（res；仅PC端，移动端恒为 false）及客服脚本地址',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    async handler(ctx) {
      const enabled = (await readSetting(ctx.db, 'online_chat')) === '1';
      const configured = ctx.config.chatScriptUrl ?? '';
      const scriptUrl = configured && safeHref(configured) ? configured : DEFAULT_CHAT_SCRIPT;
      return { res: enabled && ctx.sourceType === 1, scriptUrl };
    },
  }),
};
