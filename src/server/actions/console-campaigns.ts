// Admin.Coupon* / Admin.RedLaunch* actions: the console's campaigns (admin writes, finance reads), each write audited
// in the same batch; stock and budget are taken only by conditional statements.
import { z } from 'zod';
import { PRODUCT_TYPES } from '../../lib/commerce';
import { auditActor } from '../domain/console-audit';
import {
  campaignsForAdmin,
  issueCoupon,
  saveCoupon,
  saveLaunch,
  setCouponState,
  setLaunchEnabled,
} from '../domain/console-campaigns';
import { editIdSchema, labelledInt, onOffStateSchema, reasonSchema, windowFields } from '../../lib/schemas';
import { ADMIN_ONLY, FINANCE } from '../../lib/operator-roles';
import { defineAction } from './define';

const couponInput = z.object({
  id: editIdSchema.optional(),
  name: z.string({ error: '请填写优惠券名称' }).trim().min(2, '优惠券名称为2-30个字').max(30, '优惠券名称为2-30个字'),
  kind: z.union([z.literal(1), z.literal(2)], { error: '请选择优惠券类型' }),
  // 立减: fen (the console types 元); 折扣: the percentage off.
  value: z
    .number({ error: '请填写面额' })
    .int('面额须为整数（立减金额最多两位小数）')
    .min(1, '立减金额至少0.01元，折扣比例至少1%')
    .max(100_000_000, '立减金额最多1000000元'),
  thresholdFen: labelledInt('使用门槛（分）', 0, 100_000_000).default(0),
  productTypes: z
    .array(z.literal(PRODUCT_TYPES, { error: '请选择适用产品' }))
    .max(4)
    .default([]),
  validDays: labelledInt('领取后有效天数', 1, 365),
  perUserLimit: labelledInt('每人限领', 1, 100).default(1),
  totalStock: labelledInt('库存（0为不限）', 0, 10_000_000).default(0),
  claimable: z.boolean().default(false),
  ...windowFields,
});

const launchInput = z.object({
  id: editIdSchema.optional(),
  title: z.string({ error: '请填写红包标题' }).trim().min(2, '红包标题为2-30个字').max(30, '红包标题为2-30个字'),
  description: z.string().trim().max(100, '说明最多100个字').default(''),
  productType: z.union([z.literal(10), z.literal(40)], { error: '红包只能是短效动态IP或长效静态IP' }),
  ipDurationMinutes: labelledInt('IP时长（分钟）', 1, 1440),
  ipCount: labelledInt('每个红包的IP数量', 1, 1_000_000),
  validDays: labelledInt('领取后有效天数', 1, 365),
  budget: labelledInt('红包个数（预算）', 0, 10_000_000),
  ...windowFields,
});

export const consoleCampaignActions = {
  'Admin.CampaignList': defineAction({
    summary:
      '【运营后台】优惠券规则与使用情况（已发放、锁定、已使用、剩余库存），红包活动与使用情况（已领取、已使用、剩余预算）',
    access: FINANCE,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => campaignsForAdmin(ctx.db),
  }),

  'Admin.CouponSave': defineAction({
    summary: '【运营后台·管理员】新建或修改优惠券（立减分或折扣%、订单原价门槛、适用产品、有效期、库存、每人限领）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: couponInput,
    handler: async (ctx, input) => saveCoupon(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.CouponSetState': defineAction({
    summary: '【运营后台·管理员】启用或停用优惠券（需原因；已发放的券不受影响）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      id: editIdSchema,
      state: onOffStateSchema,
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => setCouponState(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.CouponIssue': defineAction({
    summary:
      '【运营后台·管理员】按手机号或用户ID（每行一个，最多200个）发放优惠券（需原因）；在库存与每人限领之内，响应 issued 与未发放的 skipped',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      couponId: z.number({ error: '请选择优惠券' }).int().positive('请选择优惠券'),
      targets: z.string({ error: '请填写要发放的客户' }).max(4000, '一次最多发放200个客户'),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => issueCoupon(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.RedLaunchSave': defineAction({
    summary:
      '【运营后台·管理员】新建或修改红包活动（产品、IP时长、每个红包的IP数、有效期、红包个数、起止时间）；预算不能少于已领取数',
    access: ADMIN_ONLY,
    cacheable: false,
    input: launchInput,
    handler: async (ctx, input) => saveLaunch(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.RedLaunchSetEnabled': defineAction({
    summary: '【运营后台·管理员】启用或停用红包活动（需原因）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({ id: editIdSchema, enabled: z.boolean({ error: '请选择状态' }), reason: reasonSchema }),
    handler: async (ctx, input) => setLaunchEnabled(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
