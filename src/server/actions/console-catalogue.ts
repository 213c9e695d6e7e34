// Admin.Catalogue* / Meal / Activity / Region actions: the console's catalogue (admin writes, finance reads). Changes
// apply to orders placed afterwards; each write is audited in the same batch.
import { z } from 'zod';
import { ACTIVITY_LIMITS, MEAL_LIMITS } from '../../lib/catalogue-rules';
import { auditActor } from '../domain/console-audit';
import {
  catalogueForAdmin,
  MEAL_PAGE_SIZE,
  saveActivity,
  saveMeal,
  saveRegion,
  setCatalogueState,
} from '../domain/console-catalogue';
import {
  editIdSchema,
  labelledInt,
  onOffStateSchema,
  optionalReasonSchema,
  productTypeSchema,
  reasonSchema,
  windowFields,
} from '../../lib/schemas';
import { ADMIN_ONLY, FINANCE } from '../../lib/operator-roles';
import { defineAction } from './define';

const mealInput = z.object({
  id: editIdSchema.optional(),
  productType: productTypeSchema,
  billingMethod: z.union([z.literal(1), z.literal(2)], { error: '请选择计费方式' }),
  name: z
    .string({ error: '请填写套餐名称' })
    .trim()
    .min(2, `套餐名称为2-${MEAL_LIMITS.nameMax}个字`)
    .max(MEAL_LIMITS.nameMax, `套餐名称为2-${MEAL_LIMITS.nameMax}个字`),
  ipDurationMinutes: labelledInt('IP时长（分钟）', 0, 1440),
  size: labelledInt('数量', 1, MEAL_LIMITS.sizeMax),
  periodDays: labelledInt('有效期（天）', 1, MEAL_LIMITS.periodDaysMax),
  priceFen: labelledInt('价格（分）', 1, MEAL_LIMITS.priceFenMax),
  isOverseas: z.boolean().default(false),
  sort: labelledInt('排序', 0, 100_000).default(0),
  reason: optionalReasonSchema,
});

const activityInput = z.object({
  id: editIdSchema.optional(),
  name: z
    .string({ error: '请填写活动名称' })
    .trim()
    .min(2, `活动名称为2-${ACTIVITY_LIMITS.nameMax}个字`)
    .max(ACTIVITY_LIMITS.nameMax, `活动名称为2-${ACTIVITY_LIMITS.nameMax}个字`),
  productType: productTypeSchema,
  billingMethod: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '请选择计费方式' }).default(0),
  mealId: z.number().int().min(0).default(0),
  discountPercent: labelledInt('折扣比例（%）', 0, ACTIVITY_LIMITS.discountMax).default(0),
  bonusPercent: labelledInt('赠送比例（%）', 0, ACTIVITY_LIMITS.bonusMax).default(0),
  ...windowFields,
});

const regionInput = z.object({
  id: editIdSchema.optional(),
  name: z.string({ error: '请填写地区名称' }).trim().min(2, '地区名称为2-20个字').max(20, '地区名称为2-20个字'),
  province: z.string().trim().max(20, '省份最多20个字').default(''),
  productTypes: z.array(z.number().int(), { error: '请选择适用产品' }).max(2),
  isOverseas: z.boolean().default(false),
  sort: labelledInt('排序', 0, 100_000).default(0),
  reason: optionalReasonSchema,
});

const catalogueListInput = z.object({
  productType: productTypeSchema,
  /** 0: every billing method. */
  billingMethod: z
    .union([z.literal(0), z.literal(1), z.literal(2)], { error: '计费方式须为0（全部）、1（按量）或2（包天）' })
    .default(0),
  /** null: every IP duration. */
  ipDurationMinutes: labelledInt('IP时长（分钟）', 0, 1440).nullable().default(null),
  /** 0: on sale and withdrawn. */
  state: z
    .union([z.literal(0), z.literal(1), z.literal(2)], { error: '状态须为0（全部）、1（在售）或2（已下架）' })
    .default(0),
  page: z.number({ error: '页码无效' }).int('页码无效').min(1, '页码无效').max(10_000, '页码无效').default(1),
  mealId: editIdSchema.optional(),
});

export const consoleCatalogueActions = {
  'Admin.CatalogueList': defineAction({
    summary: `【运营后台】某产品类型的套餐（含已下架，附当前活动后的单价；可按计费方式、IP时长、状态筛选，在售在前，按页返回，每页${MEAL_PAGE_SIZE}条，total 为符合条件的总数，counts 为各计费方式、时长、状态的套餐数），mealId 所指的套餐（编辑用，不限页），该类型在售套餐的选项（活动适用套餐），全部活动与销售地区`,
    access: FINANCE,
    cacheable: false,
    input: catalogueListInput,
    handler: async (ctx, input) => catalogueForAdmin(ctx.db, input, ctx.now),
  }),

  'Admin.MealSave': defineAction({
    summary:
      '【运营后台·管理员】新建或修改套餐（类型、计费方式、IP时长取自该类型的可选时长、数量、有效期、价格分）；只影响之后的新订单',
    access: ADMIN_ONLY,
    cacheable: false,
    input: mealInput,
    handler: async (ctx, input) => saveMeal(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.ActivitySave': defineAction({
    summary: '【运营后台·管理员】新建或修改活动（折扣或赠送比例、适用范围、起止时间）；只影响之后的新订单',
    access: ADMIN_ONLY,
    cacheable: false,
    input: activityInput,
    handler: async (ctx, input) => saveActivity(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.RegionSave': defineAction({
    summary: '【运营后台·管理员】新建或修改固定IP/优质IP的销售地区',
    access: ADMIN_ONLY,
    cacheable: false,
    input: regionInput,
    handler: async (ctx, input) => saveRegion(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),

  'Admin.CatalogueSetState': defineAction({
    summary: '【运营后台·管理员】上架/下架套餐、启用/停用活动或地区（需原因）',
    access: ADMIN_ONLY,
    cacheable: false,
    input: z.object({
      kind: z.enum(['meal', 'activity', 'region'], { error: '请选择项目类型' }),
      id: editIdSchema,
      state: onOffStateSchema,
      reason: reasonSchema,
    }),
    handler: async (ctx, input) => setCatalogueState(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), input),
  }),
};
