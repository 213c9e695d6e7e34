// Red-packet actions: the current launch (redInfo), receiving a packet, new packets, the record list and turning a
// packet into a proxy package.
import { z } from 'zod';
import { pageSchema, pageSizeSchema } from '../../lib/schemas';
import { findCurrentLaunch, hasReceived, listRecords, takeNewRecords } from '../db/red-packets';
import { receiveRedPacket, redeemRedPacket } from '../domain/red-packets';
import { defineAction } from './define';

export const redPacketActions = {
  'RedLaunch.GetRedLaunch': defineAction({
    summary: '当前红包活动（redInfo：data.id、标题、奖励、剩余数量；登录后含 received）；登录和退出后都会重新加载',
    access: 'public',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const l = await findCurrentLaunch(ctx.db, ctx.now);
      if (!l) return { data: null };
      return {
        data: {
          id: l.id,
          title: l.title,
          description: l.description,
          productType: l.productType,
          ipCount: l.ipCount,
          ipDurationMinutes: l.ipDurationMinutes,
          validDays: l.validDays,
          remaining: Math.max(0, l.budget - l.received),
          endsAt: l.endsAt,
          received: ctx.user ? await hasReceived(ctx.db, l.id, ctx.user.id) : false,
        },
      };
    },
  }),

  'RedLaunch.Receive': defineAction({
    summary: '领取红包（id 为活动 data.id）：需实名认证；每人每个活动一次，不超过活动预算，并发安全',
    access: 'verified',
    cacheable: false,
    input: z.object({ id: z.number().int().positive() }),
    async handler(ctx, input) {
      return receiveRedPacket(ctx.db, { launchId: input.id, userId: ctx.user.id, now: ctx.now });
    },
  }),

  'RedPackage.GetNewRedPackage': defineAction({
    summary: '新到账的红包（每个只返回一次，用于弹窗提示）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      return { list: await takeNewRecords(ctx.db, ctx.user.id, ctx.now) };
    },
  }),

  'RedRecord.GetList': defineAction({
    summary: '我的红包记录（分页）：state 1 未使用，2 已使用（已转为套餐）',
    access: 'user',
    cacheable: false,
    input: z.object({ page: pageSchema, pageSize: pageSizeSchema }),
    async handler(ctx, input) {
      return listRecords(ctx.db, ctx.user.id, input.page, input.pageSize);
    },
  }),

  'Proxy.GetredPackage': defineAction({
    summary: '使用红包：把未使用且未过期的红包（recordId）转为代理套餐，仅一次',
    access: 'user',
    cacheable: false,
    input: z.object({ recordId: z.number().int().positive() }),
    async handler(ctx, input) {
      return redeemRedPacket(ctx.db, { userId: ctx.user.id, recordId: input.recordId, now: ctx.now });
    },
  }),
};
