// Visitor submissions: enterprise consultations (Company.Consult) and ad-conversion tracking points
// (Buried.buriedPoint for Baidu bd_vid, Buried.buriedPoint360 for 360 qhclickid). Both validated and rate limited.
import { z } from 'zod';
import { consultSchema } from '../../lib/consult';
import { AppError } from '../../lib/errors';
import { insertConsultWithinLimits, insertTrackingPoint } from '../db/tracking';
import { type BaseContext, defineAction } from './define';

/** Consultations: 3 per IP per hour, 10 per IP per day, 3 per phone per day. */
export const CONSULT_LIMITS = { perIpHour: 3, perIpDay: 10, perPhoneDay: 3 };
/** Tracking points: 30 per IP per hour. */
export const TRACKING_PER_IP_HOUR = 30;

const clickId = (label: string) => z.string(`缺少${label}`).regex(/^[A-Za-z0-9_.-]{1,128}$/, `${label}格式不正确`);

const trackingBase = {
  event: z.enum(['visit', 'register', 'order', 'pay'], '事件类型无效').default('visit'),
  page: z
    .string()
    .max(200, '页面地址过长')
    .regex(/^\/[^\s]*$|^$/, '页面地址无效')
    .default(''),
  did: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,32}$/, '推广标识无效')
    .default(''),
  from: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,32}$/, '来源标识无效')
    .default(''),
  fingerPrint: z
    .string()
    .regex(/^[0-9a-f]{0,64}$/, '设备标识无效')
    .default(''),
};

type TrackingParams = { event: string; page: string; did: string; from: string; fingerPrint: string };

async function track(ctx: BaseContext, channel: 'baidu' | '360', id: string, p: TrackingParams) {
  const outcome = await insertTrackingPoint(
    ctx.db,
    {
      channel,
      clickId: id,
      event: p.event,
      page: p.page,
      did: p.did,
      trafficFrom: p.from,
      fingerPrint: p.fingerPrint,
      userId: ctx.user?.id ?? null,
      ip: ctx.ip,
      now: ctx.now,
    },
    TRACKING_PER_IP_HOUR,
  );
  if (outcome === 'limited') throw new AppError('trackingTooFrequent');
  return { stored: outcome === 'stored' };
}

export const visitorActions = {
  'Company.Consult': defineAction({
    summary: '企业服务咨询（/firmsServer 表单）；每IP每小时3次、每天10次，每手机号每天3次',
    access: 'public',
    cacheable: false,
    input: consultSchema,
    async handler(ctx, input) {
      const id = await insertConsultWithinLimits(
        ctx.db,
        { ...input, userId: ctx.user?.id ?? null, ip: ctx.ip, now: ctx.now },
        CONSULT_LIMITS,
      );
      if (id === null) throw new AppError('consultTooFrequent');
      return { id };
    },
  }),

  'Buried.buriedPoint': defineAction({
    summary: '百度推广转化埋点（bdVid + 事件；同一点击同一事件只记一次；每IP每小时30次）',
    access: 'public',
    cacheable: false,
    input: z.object({ bdVid: clickId('bdVid'), ...trackingBase }),
    handler: (ctx, input) => track(ctx, 'baidu', input.bdVid, input),
  }),

  'Buried.buriedPoint360': defineAction({
    summary: '360推广转化埋点（qhclickid + 事件；同一点击同一事件只记一次；每IP每小时30次）',
    access: 'public',
    cacheable: false,
    input: z.object({ qhclickid: clickId('qhclickid'), ...trackingBase }),
    handler: (ctx, input) => track(ctx, '360', input.qhclickid, input),
  }),
};
