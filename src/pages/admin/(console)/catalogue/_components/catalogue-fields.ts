// The catalogue screen's form fields (meal, activity, region), offering only what the catalogue's rules allow
// (src/lib/catalogue-rules.ts); the server checks every value again.
import type { ActionOutput } from '../../../../../lib/api-core';
import { BILLING_METHODS_FOR, durationOption, IP_DURATIONS } from '../../../../../lib/catalogue-rules';
import { BILLING_LABEL, PRODUCT_LABEL } from '../../../../../lib/commerce';
import type { FormField } from '../../../_components/record-form';
import { DAY_MS } from '../../../../../lib/time';

export type Catalogue = ActionOutput<'Admin.CatalogueList'>;

export function mealFields(type: number, m?: Catalogue['meals'][number]): FormField[] {
  const dedicated = type === 30 || type === 50;
  return [
    {
      name: 'billingMethod',
      label: '计费方式',
      kind: 'select',
      options: (BILLING_METHODS_FOR[type] ?? []).map((b) => ({ value: b, label: BILLING_LABEL[b] ?? String(b) })),
      ...(m ? { defaultValue: m.billingMethod } : {}),
    },
    { name: 'name', label: '套餐名称', kind: 'text', maxLength: 60, ...(m ? { defaultValue: m.name } : {}) },
    {
      name: 'ipDurationMinutes',
      label: 'IP时长',
      kind: 'select',
      options: (IP_DURATIONS[type] ?? []).map((d) => ({ value: d, label: durationOption(d) })),
      ...(m ? { defaultValue: m.ipDurationMinutes } : {}),
    },
    {
      name: 'size',
      label: dedicated ? '每份IP数' : '数量（按量为IP数，包天为每日IP数）',
      kind: 'int',
      defaultValue: m?.size ?? 1,
      ...(dedicated ? { hint: '固定IP与优质IP每份为1个IP' } : {}),
    },
    { name: 'periodDays', label: '有效期（天）', kind: 'int', ...(m ? { defaultValue: m.periodDays } : {}) },
    {
      name: 'priceFen',
      label: '每份价格（元）',
      kind: 'yuan',
      hint: '以分保存；活动折扣在下单时按此价计算',
      ...(m ? { defaultValue: m.priceFen } : {}),
    },
    { name: 'isOverseas', label: '海外线路（显示“超低折扣”）', kind: 'bool', defaultValue: m?.isOverseas ?? false },
    { name: 'sort', label: '排序（小的在前）', kind: 'int', defaultValue: m?.sort ?? 0 },
  ];
}

export function activityFields(
  type: number,
  meals: Catalogue['mealChoices'],
  a?: Catalogue['activities'][number],
): FormField[] {
  const now = Date.now();
  return [
    { name: 'name', label: '活动名称', kind: 'text', maxLength: 40, ...(a ? { defaultValue: a.name } : {}) },
    {
      name: 'billingMethod',
      label: '适用计费方式',
      kind: 'select',
      options: [
        { value: 0, label: '全部' },
        ...(BILLING_METHODS_FOR[type] ?? []).map((b) => ({ value: b, label: BILLING_LABEL[b] ?? String(b) })),
      ],
      defaultValue: a?.billingMethod ?? 0,
    },
    {
      name: 'mealId',
      label: '适用套餐',
      kind: 'select',
      options: [
        { value: 0, label: '该类型全部套餐' },
        ...meals.map((m) => ({ value: m.id, label: `#${m.id} ${m.name}` })),
      ],
      defaultValue: a?.mealId ?? 0,
    },
    { name: 'discountPercent', label: '折扣比例（%，0-90）', kind: 'int', defaultValue: a?.discountPercent ?? 0 },
    {
      name: 'bonusPercent',
      label: '赠送比例（%，0-200）',
      kind: 'int',
      defaultValue: a?.bonusPercent ?? 0,
      ...(type === 30 || type === 50 ? { hint: '固定IP与优质IP不赠送，须为0' } : {}),
    },
    { name: 'startsAt', label: '开始时间（北京时间）', kind: 'datetime', defaultValue: a?.startsAt ?? now },
    {
      name: 'endsAt',
      label: '结束时间（北京时间）',
      kind: 'datetime',
      defaultValue: a?.endsAt ?? now + 30 * DAY_MS,
    },
  ];
}

export function regionFields(r?: Catalogue['regions'][number]): FormField[] {
  return [
    { name: 'name', label: '地区（城市）名称', kind: 'text', maxLength: 20, ...(r ? { defaultValue: r.name } : {}) },
    { name: 'province', label: '省份（海外填“海外”）', kind: 'text', maxLength: 20, defaultValue: r?.province ?? '' },
    {
      name: 'productTypes',
      label: '适用产品',
      kind: 'checks',
      options: [
        { value: 30, label: PRODUCT_LABEL[30] ?? '固定IP' },
        { value: 50, label: PRODUCT_LABEL[50] ?? '优质IP' },
      ],
      defaultValue: r?.productTypes ?? [30, 50],
    },
    { name: 'isOverseas', label: '海外地区', kind: 'bool', defaultValue: r?.isOverseas ?? false },
    { name: 'sort', label: '排序', kind: 'int', defaultValue: r?.sort ?? 0 },
  ];
}
