// Admin.CustomerRateLimit / GrantPackage (support), Admin.Seller* (finance writes, support reads) and the commission
// ledger of a customer (finance, support): the customer and promotion screens' remaining tools.
import { z } from 'zod';
import { listGrantRequests } from '../db/grant-requests';
import { decideGrant, grantApprovalLimits, grantOrRequest, saveGrantApprovalLimits } from '../domain/grant-approvals';
import { auditActor } from '../domain/console-audit';
import {
  assignCustomersToSeller,
  customerTools,
  DEDICATED_CARRIERS,
  GRANT_LIMITS,
  RATE_LIMIT_MAX,
  saveSeller,
  sellerDetail,
  sellersForAdmin,
  setCustomerRateLimit,
} from '../domain/console-customer-tools';
import { reasonSchema, userIdSchema } from '../../lib/schemas';
import { ADMIN_ONLY, FINANCE, READERS, SUPPORT } from '../../lib/operator-roles';
import { defineAction } from './define';

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}须为${min}-${max}的整数` })
    .int(`${label}须为${min}-${max}的整数`)
    .min(min, `${label}须为${min}-${max}的整数`)
    .max(max, `${label}须为${min}-${max}的整数`);
const sellerIdSchema = z.number({ error: '请选择销售' }).int().positive('请选择销售');

export const consoleCustomerToolActions = {
  'Admin.CustomerRateLimit': defineAction({
    summary: `【运营后台·客服】设置客户的提取频率（每秒1-${RATE_LIMIT_MAX}次，需原因），下一次提取即生效`,
    access: SUPPORT,
    cacheable: false,
    input: z.object({
      userId: userIdSchema,
      rateLimit: int('提取频率（次/秒）', 1, RATE_LIMIT_MAX),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) =>
      setCustomerRateLimit(ctx.db, ctx.config.nodeSecretKey, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.GrantPackage': defineAction({
    summary:
      '【运营后台·客服】赠送客户套餐（需原因）：短效或长效（按量IP数或包天每日量、IP时长、有效天数），或固定IP/优质IP（地区、运营商、IP数、有效天数，立即分配；可分配的IP不足时不赠送）；出现在客户的套餐列表',
    access: SUPPORT,
    cacheable: false,
    input: z.discriminatedUnion(
      'productType',
      [
        z.object({
          userId: userIdSchema,
          productType: z.union([z.literal(10), z.literal(40)]),
          billingMethod: z.union([z.literal(1), z.literal(2)], { error: '请选择计费方式' }),
          ipDurationMinutes: int('IP时长（分钟）', 1, 1440),
          amount: int('数量', 1, GRANT_LIMITS.countMax),
          days: int('有效天数', 1, GRANT_LIMITS.daysMax),
          reason: reasonSchema,
        }),
        z.object({
          userId: userIdSchema,
          productType: z.union([z.literal(30), z.literal(50)]),
          regionId: z
            .number({ error: '请选择该产品在售的地区' })
            .int('请选择该产品在售的地区')
            .positive('请选择该产品在售的地区'),
          carrier: z.enum(['', ...DEDICATED_CARRIERS], { error: '运营商只能是电信、联通、移动或不限' }).default(''),
          ipCount: int('IP数', 1, GRANT_LIMITS.dedicatedMax),
          days: int('有效天数', 1, GRANT_LIMITS.daysMax),
          reason: reasonSchema,
        }),
      ],
      { error: '请选择要赠送的产品：短效动态IP、固定IP、长效静态IP或优质IP' },
    ),
    handler: async (ctx, input) => grantOrRequest(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.GrantRequests': defineAction({
    summary: '【运营后台·客服】待审批与最近处理的大额赠送申请（超过审批阈值的赠送需另一位运营审批）及当前阈值',
    access: SUPPORT,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await listGrantRequests(ctx.db), limits: await grantApprovalLimits(ctx.db) }),
  }),

  'Admin.GrantApprove': defineAction({
    summary: '【运营后台·客服】审批通过一条大额赠送申请（不能是申请人本人，需原因）：此时才写入套餐，记入操作日志',
    access: SUPPORT,
    cacheable: false,
    input: z.object({ requestId: z.number().int().positive(), reason: reasonSchema }),
    handler: async (ctx, input) =>
      decideGrant(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), { ...input, approve: true }),
  }),

  'Admin.GrantReject': defineAction({
    summary: '【运营后台·客服】驳回一条大额赠送申请（不能是申请人本人，需原因），记入操作日志',
    access: SUPPORT,
    cacheable: false,
    input: z.object({ requestId: z.number().int().positive(), reason: reasonSchema }),
    handler: async (ctx, input) =>
      decideGrant(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), { ...input, approve: false }),
  }),

  'Admin.GrantApprovalSave': defineAction({
    summary:
      '【运营后台·管理员】设置赠送需第二位运营审批的阈值：按量IP数、包天每日量、独享IP数（超过即需审批；需原因）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      count: int('按量IP数阈值', 0, GRANT_LIMITS.countMax),
      daily: int('包天每日量阈值', 0, GRANT_LIMITS.dailyMax),
      dedicated: int('独享IP数阈值', 0, GRANT_LIMITS.dedicatedMax),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => saveGrantApprovalLimits(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.CustomerTools': defineAction({
    summary:
      '【运营后台】客户的提取频率（未开通API为null）、可赠送独享IP的地区及各运营商空闲IP数、所属销售、作为推广者的佣金余额与佣金明细（被邀请人手机号脱敏，每页20条）',
    access: READERS,
    cacheable: false,
    input: z.object({ userId: userIdSchema, page: z.number().int().min(1).max(10_000).default(1) }),
    handler: async (ctx, input) => customerTools(ctx.db, input.userId, input.page, ctx.now),
  }),

  'Admin.SellerList': defineAction({
    summary: '【运营后台】销售列表（客户数、客户已支付金额）',
    access: READERS,
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ list: await sellersForAdmin(ctx.db) }),
  }),

  'Admin.SellerDetail': defineAction({
    summary: '【运营后台】销售及其名下客户（最新100个，手机号脱敏）',
    access: READERS,
    cacheable: false,
    input: z.object({ id: sellerIdSchema }),
    handler: async (ctx, input) => sellerDetail(ctx.db, input.id),
  }),

  'Admin.SellerSave': defineAction({
    summary: '【运营后台·财务】新建或修改销售（编码用于推广链接 ?did=编码&from=seller）',
    access: FINANCE,
    cacheable: false,
    input: z.object({
      id: sellerIdSchema.optional(),
      code: z
        .string({ error: '销售编码为3-16位字母或数字' })
        .trim()
        .regex(/^[A-Za-z0-9]{3,16}$/, '销售编码为3-16位字母或数字'),
      name: z.string({ error: '请填写姓名' }).trim().min(1, '请填写姓名').max(20, '姓名最多20个字'),
      phone: z
        .string({ error: '请填写11位手机号' })
        .trim()
        .regex(/^1\d{10}$/, '请填写11位手机号'),
      enabled: z.boolean().default(true),
      reason: z.string().trim().max(200, '原因最多200个字').optional(),
    }),
    handler: async (ctx, input) => saveSeller(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.SellerAssign': defineAction({
    summary: '【运营后台·财务】把客户（手机号或用户ID，每行一个）分配给销售，sellerId 为0时取消分配（需原因）',
    access: FINANCE,
    cacheable: false,
    input: z.object({
      sellerId: z.number({ error: '请选择销售' }).int().min(0, '请选择销售'),
      targets: z.string({ error: '请填写客户' }).max(4000, '一次最多200个客户'),
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => assignCustomersToSeller(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
