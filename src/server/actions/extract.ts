// Extract.* / Proxymeal.GetLongRegularRegion: what the get-proxy tool needs (packages, key, regions in the pool).
import { z } from 'zod';
import { shanghaiDay } from '../../lib/time';
import { livePackages } from '../db/packages';
import { poolRegions } from '../db/pool';
import { countLiveWhiteList } from '../db/white-list';
import { ensureCredentials } from '../domain/credentials';
import { availableQuota } from '../domain/extract';
import { CARRIERS } from '../domain/regions';
import { defineAction } from './define';

const extractTypeSchema = z.union([z.literal(10), z.literal(40)], { error: '提取类型须为10或40' });

/** Pool rows grouped by province, largest first. */
export function groupRegions(rows: { province: string; city: string; count: number }[]) {
  const byProvince = new Map<string, { province: string; count: number; cities: { city: string; count: number }[] }>();
  for (const r of rows) {
    const p = byProvince.get(r.province) ?? { province: r.province, count: 0, cities: [] };
    p.count += r.count;
    p.cities.push({ city: r.city, count: r.count });
    byProvince.set(r.province, p);
  }
  return [...byProvince.values()].sort((a, b) => b.count - a.count || a.province.localeCompare(b.province, 'zh'));
}

export const extractActions = {
  'Extract.GetTabCount': defineAction({
    summary: '获取代理页各标签（10 短效、40 长效）下可用套餐数',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const live = await livePackages(ctx.db, ctx.user.id, ctx.now);
      const count = (type: number) => live.filter((p) => p.productType === type).length;
      return { 10: count(10), 40: count(40) };
    },
  }),

  'Extract.GetMealAndRegion': defineAction({
    summary:
      '获取代理工具：提取密钥（仅在首次创建时返回，此后为 null）、该类型的可用套餐（含余量）、IP池地区、运营商与协议',
    access: 'user',
    cacheable: false,
    input: z.object({ type: extractTypeSchema.default(10) }),
    async handler(ctx, input) {
      const [credentials, live, regions, whiteListLive] = await Promise.all([
        ensureCredentials(ctx.db, ctx.config.nodeSecretKey, ctx.user.id, ctx.now),
        livePackages(ctx.db, ctx.user.id, ctx.now),
        poolRegions(ctx.db, input.type, ctx.now),
        countLiveWhiteList(ctx.db, ctx.user.id, ctx.now),
      ]);
      const day = shanghaiDay(ctx.now);
      return {
        apiKey: credentials.apiKey,
        whiteListCount: whiteListLive,
        meals: live
          .filter((p) => p.productType === input.type)
          .map((p) => {
            const q = availableQuota({ ...p, billingMethod: p.billingMethod as 1 | 2 }, day, ctx.now);
            return {
              id: p.id,
              name: p.name,
              billingMethod: p.billingMethod,
              durationMinutes: p.durationMinutes,
              available: Number.isFinite(q) ? q : -1,
              expiresAt: p.expiresAt,
              remark: p.remark,
            };
          }),
        regions: groupRegions(regions),
        carriers: CARRIERS,
        protocols: ['http', 'https', 'socks5'],
      };
    },
  }),

  'Extract.GetLongRegularRegion': defineAction({
    summary: '长效静态IP池的地区分布（省、市及可用IP数）',
    access: 'user',
    cacheable: true,
    input: z.object({}),
    handler: async (ctx) => ({ regions: groupRegions(await poolRegions(ctx.db, 40, ctx.now)) }),
  }),

  'Proxymeal.GetLongRegularRegion': defineAction({
    summary: '公开：长效静态IP可选地区（省、市及可用IP数），购买页使用',
    access: 'public',
    cacheable: true,
    input: z.object({}),
    handler: async (ctx) => ({ regions: groupRegions(await poolRegions(ctx.db, 40, ctx.now)) }),
  }),
};
