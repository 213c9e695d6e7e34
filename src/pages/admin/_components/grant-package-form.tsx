'use client';
// The customer screen's grant form (docs/decisions/161): the product decides the fields. 短效/长效: billing method, IP
// duration of that product, amount, days. 固定IP/优质IP: a region offered for the type (with its free IPs per carrier
// now), carrier, IP count, days; the IPs are allocated at once or nothing is granted. Reason always.
import { type FormEvent, useId, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { durationOption, IP_DURATIONS } from '../../../lib/catalogue-rules';
import { PRODUCT_LABEL } from '../../../lib/commerce';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';
import { field } from './admin-write';

export interface GrantRegion {
  id: number;
  name: string;
  productTypes: number[];
  free: { 电信: number; 联通: number; 移动: number };
}

const TYPES = [10, 30, 40, 50] as const;
const CARRIERS = ['电信', '联通', '移动'] as const;
const int = (f: FormData, name: string) => {
  const v = field(f, name).trim();
  return v === '' ? Number.NaN : Number(v);
};

export function GrantPackageForm({ userId, regions }: { userId: number; regions: GrantRegion[] }) {
  const router = useRouter();
  const uid = useId();
  const [type, setType] = useState<(typeof TYPES)[number]>(10);
  const [busy, setBusy] = useState(false);
  const dedicated = type === 30 || type === 50;
  const offered = regions.filter((r) => r.productTypes.includes(type));

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    const f = new FormData(form);
    const common = { userId, days: int(f, 'days'), reason: field(f, 'reason') };
    setBusy(true);
    // The server validates every field again (and allocates the dedicated IPs or refuses the whole grant).
    const res =
      type === 30 || type === 50
        ? await adminApi.call('Admin.GrantPackage', {
            ...common,
            productType: type,
            regionId: int(f, 'regionId'),
            carrier: CARRIERS.find((c) => c === field(f, 'carrier')) ?? '',
            ipCount: int(f, 'ipCount'),
          })
        : await adminApi.call('Admin.GrantPackage', {
            ...common,
            productType: type,
            billingMethod: field(f, 'billingMethod') === '2' ? 2 : 1,
            ipDurationMinutes: int(f, 'ipDurationMinutes'),
            amount: int(f, 'amount'),
          });
    setBusy(false);
    if (res === false) return;
    form.reset();
    setType(10);
    pushToast(
      'success',
      res.pending
        ? `赠送量超过审批阈值，已提交审批（申请#${res.requestId}），需另一位运营在“赠送审批”中通过`
        : res.ips?.length
          ? `已赠送并分配 ${res.ips.length} 个IP：${res.ips.join('、')}`
          : '套餐已赠送，客户的套餐列表中可见',
    );
    await router.reload();
  }

  const label = (name: string, text: string) => (
    <label htmlFor={`${uid}-${name}`} className="mb-1 block text-xs text-slate-600">
      {text}
    </label>
  );
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" data-testid="grant-form">
      <div>
        {label('productType', '产品')}
        <select
          id={`${uid}-productType`}
          name="productType"
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
      {dedicated ? (
        <>
          <div>
            {label('regionId', '地区（括号内为当前空闲IP：电信/联通/移动）')}
            <select id={`${uid}-regionId`} name="regionId" className="input" key={`region-${type}`}>
              {offered.length === 0 && <option value="">该产品没有在售地区</option>}
              {offered.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}（{r.free.电信}/{r.free.联通}/{r.free.移动}）
                </option>
              ))}
            </select>
          </div>
          <div>
            {label('carrier', '运营商')}
            <select id={`${uid}-carrier`} name="carrier" className="input" defaultValue="">
              <option value="">不限</option>
              {CARRIERS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div>
            {label('ipCount', 'IP数（1-100，立即分配）')}
            <input id={`${uid}-ipCount`} name="ipCount" className="input" inputMode="numeric" defaultValue={1} />
          </div>
        </>
      ) : (
        <>
          <div>
            {label('billingMethod', '计费方式')}
            <select id={`${uid}-billingMethod`} name="billingMethod" className="input" defaultValue="1">
              <option value="1">按量（IP总数）</option>
              <option value="2">包天（每日IP数）</option>
            </select>
          </div>
          <div>
            {label('ipDurationMinutes', 'IP时长')}
            <select id={`${uid}-ipDurationMinutes`} name="ipDurationMinutes" className="input" key={`dur-${type}`}>
              {(IP_DURATIONS[type] ?? []).map((d) => (
                <option key={d} value={d}>
                  {durationOption(d)}
                </option>
              ))}
            </select>
          </div>
          <div>
            {label('amount', '数量')}
            <input id={`${uid}-amount`} name="amount" className="input" inputMode="numeric" defaultValue={1000} />
          </div>
        </>
      )}
      <div>
        {label('days', '有效天数（1-365）')}
        <input id={`${uid}-days`} name="days" className="input" inputMode="numeric" defaultValue={7} />
      </div>
      <div className="sm:col-span-2">
        {label('reason', '赠送原因（写入操作日志）')}
        <input id={`${uid}-reason`} name="reason" className="input" maxLength={200} />
      </div>
      {dedicated && (
        <p className="text-xs text-slate-500 sm:col-span-2">
          独享IP从所选地区（和运营商）中立即分配，须为健康、空闲且在套餐到期后才到期的IP；数量不足时不会赠送。
        </p>
      )}
      <div className="flex items-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? '处理中…' : '赠送'}
        </button>
      </div>
    </form>
  );
}
