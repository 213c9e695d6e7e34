'use client';
// The customer screen's grant form (docs/decisions/161): the product decides the fields. 短效/长效: billing method, IP
// duration of that product, amount, days. 固定IP/优质IP: a region offered for the type (with its free IPs per carrier
// now), carrier, IP count, days; the IPs are allocated at once or nothing is granted. Reason always.
import { useId, useState } from 'react';
import { durationOption, IP_DURATIONS } from '../../../../../lib/catalogue-rules';
import { PRODUCT_LABEL } from '../../../../../lib/commerce';
import { type FormField, RecordForm } from '../../../_components/record-form';

export interface GrantRegion {
  id: number;
  name: string;
  productTypes: number[];
  free: { 电信: number; 联通: number; 移动: number };
}

const TYPES = [10, 30, 40, 50] as const;
const CARRIERS = ['电信', '联通', '移动'] as const;

/** The fields the chosen product asks for (the server validates each again, and allocates or refuses the whole grant). */
function fieldsFor(type: (typeof TYPES)[number], regions: GrantRegion[]): FormField[] {
  const tail: FormField[] = [
    { kind: 'int', name: 'days', label: '有效天数（1-365）', defaultValue: 7 },
    { kind: 'text', name: 'reason', label: '赠送原因（写入操作日志）', maxLength: 200, className: 'sm:col-span-2' },
  ];
  if (type === 30 || type === 50) {
    const offered = regions.filter((r) => r.productTypes.includes(type));
    return [
      {
        kind: 'select',
        name: 'regionId',
        label: '地区（括号内为当前空闲IP：电信/联通/移动）',
        options: offered.length
          ? offered.map((r) => ({ value: r.id, label: `${r.name}（${r.free.电信}/${r.free.联通}/${r.free.移动}）` }))
          : [{ value: Number.NaN, label: '该产品没有在售地区' }],
      },
      {
        kind: 'select',
        name: 'carrier',
        label: '运营商',
        options: [{ value: '', label: '不限' }, ...CARRIERS.map((c) => ({ value: c, label: c }))],
      },
      { kind: 'int', name: 'ipCount', label: 'IP数（1-100，立即分配）', defaultValue: 1 },
      ...tail,
    ];
  }
  return [
    {
      kind: 'select',
      name: 'billingMethod',
      label: '计费方式',
      options: [
        { value: 1, label: '按量（IP总数）' },
        { value: 2, label: '包天（每日IP数）' },
      ],
    },
    {
      kind: 'select',
      name: 'ipDurationMinutes',
      label: 'IP时长',
      options: (IP_DURATIONS[type] ?? []).map((d) => ({ value: d, label: durationOption(d) })),
    },
    { kind: 'int', name: 'amount', label: '数量', defaultValue: 1000 },
    ...tail,
  ];
}

export function GrantPackageForm({ userId, regions }: { userId: number; regions: GrantRegion[] }) {
  const uid = useId();
  const [type, setType] = useState<(typeof TYPES)[number]>(10);
  const dedicated = type === 30 || type === 50;
  return (
    <RecordForm
      // A new product is a new form: its fields and their defaults start over.
      key={type}
      action="Admin.GrantPackage"
      fields={fieldsFor(type, regions)}
      fixed={{ userId, productType: type }}
      submitLabel="赠送"
      narrow
      reset
      testId="grant-form"
      after={() => setType(10)}
      done={(res) =>
        res.pending
          ? `赠送量超过审批阈值，已提交审批（申请#${res.requestId}），需另一位运营在“赠送审批”中通过`
          : res.ips?.length
            ? `已赠送并分配 ${res.ips.length} 个IP：${res.ips.join('、')}`
            : '套餐已赠送，客户的套餐列表中可见'
      }
    >
      <div>
        <label htmlFor={`${uid}-productType`} className="mb-1 block text-xs text-slate-600">
          产品
        </label>
        <select
          id={`${uid}-productType`}
          className="input"
          value={type}
          onChange={(e) => setType(TYPES.find((t) => String(t) === e.target.value) ?? 10)}
        >
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {PRODUCT_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      {dedicated && (
        <p className="text-xs text-slate-500 sm:col-span-2">
          独享IP从所选地区（和运营商）中立即分配，须为健康、空闲且在套餐到期后才到期的IP；数量不足时不会赠送。
        </p>
      )}
    </RecordForm>
  );
}
