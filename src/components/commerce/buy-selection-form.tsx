'use client';
// The buy page's selection form: billing method, line, IP duration, size, period, region and quantity, all read from
// and written to the selection hook (useBuySelection, which keeps them in the URL). No prices here: the order summary
// shows what PayOrder.Quote answers.
import { BILLING_LABEL, periodLabel } from '../../lib/commerce';
import { formatCount } from '../../lib/format';
import { messages } from '../../lib/messages';
import type { CatalogueView } from './types';
import type { useBuySelection } from './use-buy-selection';

const chip = (active: boolean) =>
  `rounded-lg border px-3 py-2 text-sm transition-colors ${active ? 'border-brand-600 bg-brand-50 font-medium text-brand-700' : 'border-slate-200 bg-white text-slate-700 hover:border-brand-300'}`;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2 border-b border-slate-100 py-4 md:flex-row md:items-start">
      <div className="w-24 shrink-0 pt-2 text-sm text-slate-500">{label}</div>
      <div className="flex flex-1 flex-wrap gap-2">{children}</div>
    </div>
  );
}

function Chip({ active, onClick, children }: { active: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button type="button" className={chip(active)} aria-pressed={active} onClick={onClick}>
      {children}
    </button>
  );
}

/** The region select's element id: 立即购买 focuses it when no region is chosen. */
export const REGION_SELECT_ID = 'buy-region';

export function BuySelectionForm({ data, s }: { data: CatalogueView; s: ReturnType<typeof useBuySelection> }) {
  const { dedicated, units } = s;
  const unitLabel = dedicated ? '个IP' : '份';
  return (
    <div className="card h-fit px-5 md:px-6">
      {!dedicated && (
        <Row label="计费方式">
          {[1, 2]
            .filter((b) => data.meals.some((m) => m.billingMethod === b))
            .map((b) => (
              <Chip key={b} active={s.billing === b} onClick={() => s.setBilling(b)}>
                {BILLING_LABEL[b]}
              </Chip>
            ))}
        </Row>
      )}
      {data.type === 50 && (
        <Row label="线路">
          <Chip active={!s.overseas} onClick={() => s.setOverseas(false)}>
            企业精选
          </Chip>
          <Chip active={s.overseas} onClick={() => s.setOverseas(true)}>
            海外精选 <span className="ml-1 rounded bg-rose-500 px-1 text-xs text-white">超低折扣</span>
          </Chip>
        </Row>
      )}
      {!dedicated && (
        <Row label="IP时长">
          {data.ipTimes.map((t) => (
            <Chip key={t.minutes} active={s.minutes === t.minutes} onClick={() => s.setMinutes(t.minutes)}>
              {t.label}
            </Chip>
          ))}
        </Row>
      )}
      {!dedicated && (
        <Row label={s.billing === 1 ? '套餐IP数' : '每日IP数'}>
          {s.sizes.map((v) => (
            <Chip key={v} active={s.size === v} onClick={() => s.setSize(v)}>
              {s.billing === 1 ? `${formatCount(v)}个` : `${formatCount(v)}个/天`}
            </Chip>
          ))}
        </Row>
      )}
      {(dedicated || s.billing === 2) && (
        <Row label="购买时长">
          {s.periods.map((p) => (
            <Chip key={p} active={s.period === p} onClick={() => s.setPeriod(p)}>
              {periodLabel(p)}
            </Chip>
          ))}
        </Row>
      )}
      {dedicated && (
        <Row label="地区">
          <select
            id={REGION_SELECT_ID}
            className={`input max-w-xs ${s.regionMissing ? 'border-rose-500 ring-1 ring-rose-500' : ''}`}
            value={s.regionId}
            onChange={(e) => s.setRegionId(Number(e.target.value))}
            aria-label="选择地区"
            aria-invalid={s.regionMissing}
            aria-describedby={s.regionMissing ? `${REGION_SELECT_ID}-error` : undefined}
          >
            <option value={0}>请选择地区</option>
            {s.regions.map((r) => (
              <option key={r.id} value={r.id}>
                {r.province && r.province !== r.name && r.province !== '海外' ? `${r.province} · ${r.name}` : r.name}
              </option>
            ))}
          </select>
          {s.regionMissing && (
            <p
              id={`${REGION_SELECT_ID}-error`}
              className="mt-1.5 w-full text-sm text-rose-600"
              data-testid="region-error"
            >
              {messages.regionRequired}
            </p>
          )}
        </Row>
      )}
      <Row label="购买数量">
        <div className="flex items-center">
          <button
            type="button"
            className="btn-ghost border border-slate-200 px-3"
            onClick={() => s.setUnits(Math.max(1, units - 1))}
            aria-label="减少"
          >
            −
          </button>
          <input
            className="input mx-2 w-20 text-center"
            inputMode="numeric"
            value={units}
            aria-label="购买数量"
            onChange={(e) => s.setUnits(Math.min(1000, Math.max(1, Number(e.target.value.replace(/\D/g, '')) || 1)))}
          />
          <button
            type="button"
            className="btn-ghost border border-slate-200 px-3"
            onClick={() => s.setUnits(Math.min(1000, units + 1))}
            aria-label="增加"
          >
            +
          </button>
          <span className="ml-2 text-sm text-slate-500">{unitLabel}</span>
        </div>
      </Row>
      <p className="py-4 text-xs leading-5 text-slate-500">
        价格、赠量与有效期以右侧（手机为下方）订单明细为准，均由系统按当前活动实时计算；支付成功后套餐立即到账。
      </p>
    </div>
  );
}
