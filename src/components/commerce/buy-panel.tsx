'use client';
// The order form for one product type: choose billing method, IP duration, size, period (or line, period and region
// for fixed/premium IPs) and quantity; prices come live from PayOrder.Quote (with the best coupon pre-selected);
// buying opens the WeChat payment dialog.
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api-browser';
import { BILLING_LABEL, couponFace, defaultBillingMethod, durationLabel, periodLabel } from '../../lib/commerce';
import { formatFen } from '../../lib/format';
import { messages } from '../../lib/messages';
import { payingOrderAtom } from '../../state/commerce';
import { pushToast } from '../../state/toast';
import type { CatalogueView, QuoteView } from './types';

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

interface Receivable {
  id: number;
  name: string;
  kind: number;
  value: number;
  thresholdFen: number;
  perUserLimit: number;
  received: number;
}

export function BuyPanel({ data, user }: { data: CatalogueView; user: { verified: boolean } | null }) {
  const dedicated = data.type === 30 || data.type === 50;
  const meals = data.meals;
  const [billing, setBilling] = useState<number>(defaultBillingMethod(meals));
  const [overseas, setOverseas] = useState(false);
  const [minutes, setMinutes] = useState<number>(data.ipTimes[0]?.minutes ?? 0);
  const pool = meals.filter(
    (m) =>
      (dedicated ? m.isOverseas === overseas : m.billingMethod === billing) &&
      (dedicated || m.ipDurationMinutes === minutes),
  );
  const sizes = [...new Set(pool.map((m) => m.size))];
  const [sizeChoice, setSize] = useState<number>(sizes[0] ?? 0);
  const size = sizes.includes(sizeChoice) ? sizeChoice : (sizes[0] ?? 0);
  const periods = [...new Set(pool.filter((m) => m.size === size || dedicated).map((m) => m.periodDays))];
  const [periodChoice, setPeriod] = useState<number>(periods[0] ?? 0);
  const period = periods.includes(periodChoice) ? periodChoice : (periods[0] ?? 0);
  const meal =
    pool.find((m) => (dedicated || m.size === size) && m.periodDays === period) ??
    pool.find((m) => dedicated || m.size === size) ??
    pool[0];
  const regions = data.regions.filter((r) => r.isOverseas === overseas);
  const [regionChoice, setRegionId] = useState<number>(0);
  const regionId = regions.some((r) => r.id === regionChoice) ? regionChoice : 0;
  const [units, setUnits] = useState(1);
  const [couponId, setCouponId] = useState<number | 'none' | 'auto'>('auto');
  const [quote, setQuote] = useState<QuoteView | null>(null);
  const [busy, setBusy] = useState(false);
  const [receivable, setReceivable] = useState<Receivable[]>([]);
  const [couponsVersion, setCouponsVersion] = useState(0);
  const openPay = useSetAtom(payingOrderAtom);

  const chosenCoupon = typeof couponId === 'number' ? couponId : undefined;
  // One string holds everything a quote depends on, so the effect re-runs exactly when it changes.
  const quoteKey = meal
    ? JSON.stringify({
        request: {
          kind: 'buy',
          mealId: meal.id,
          units,
          ...(dedicated ? { regionId: regionId || regions[0]?.id } : {}),
        },
        couponId: chosenCoupon,
        v: couponsVersion,
      })
    : '';

  useEffect(() => {
    if (!quoteKey) return;
    const { request, couponId: chosen } = JSON.parse(quoteKey) as { request: unknown; couponId?: number };
    let live = true;
    const t = setTimeout(async () => {
      const r = await api.call<QuoteView>('PayOrder.Quote', { request, couponId: chosen }, { silent: true });
      if (!live) return;
      if (r && typeof r === 'object' && 'payFen' in r) {
        setQuote(r);
        setCouponId((c) => (c === 'auto' && r.bestCouponId ? r.bestCouponId : c));
      } else setCouponId('auto');
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [quoteKey]);

  const receivableKey = user ? `v${couponsVersion}` : '';
  useEffect(() => {
    if (!receivableKey) return;
    void api.call<{ list: Receivable[] }>('Coupon.GetReceivable', {}, { silent: true }).then((r) => {
      if (r && typeof r === 'object' && 'list' in r) setReceivable(r.list.filter((c) => c.received < c.perUserLimit));
    });
  }, [receivableKey]);

  async function receive(id: number) {
    const r = await api.call('Coupon.Receive', { couponId: id });
    if (r !== false) {
      pushToast('success', '领取成功，已自动为您选择最优优惠券');
      setCouponId('auto');
      setCouponsVersion((v) => v + 1);
    }
  }

  async function buy() {
    if (!meal) return;
    if (!user) {
      window.location.assign(`/login?redirect=${encodeURIComponent(`/buy?type=${data.type}`)}`);
      return;
    }
    if (!user.verified) {
      pushToast('error', messages.realNameRequired);
      window.location.assign('/personalCenter/realNameAuth');
      return;
    }
    if (dedicated && !regionId) {
      pushToast('error', messages.regionRequired);
      return;
    }
    setBusy(true);
    const r = await api.call<{
      orderNo: string;
      title: string;
      payFen: number;
      expiresAt: number;
      codeUrl: string | null;
    }>('PayOrder.BuyProxy', {
      mealId: meal.id,
      units,
      ...(dedicated ? { regionId } : {}),
      ...(chosenCoupon ? { couponId: chosenCoupon } : {}),
    });
    setBusy(false);
    if (r && typeof r === 'object' && 'orderNo' in r) {
      openPay(r);
      setCouponId('auto');
      setCouponsVersion((v) => v + 1);
    }
  }

  if (!meal) return <p className="card p-8 text-center text-slate-500">暂无在售套餐</p>;
  const unitLabel = dedicated ? '个IP' : meal.billingMethod === 1 ? '份' : '份';
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_340px]" data-testid="buy-panel">
      <div className="card px-5 md:px-6">
        {!dedicated && (
          <Row label="计费方式">
            {[1, 2]
              .filter((b) => meals.some((m) => m.billingMethod === b))
              .map((b) => (
                <button key={b} type="button" className={chip(billing === b)} onClick={() => setBilling(b)}>
                  {BILLING_LABEL[b]}
                </button>
              ))}
          </Row>
        )}
        {data.type === 50 && (
          <Row label="线路">
            <button type="button" className={chip(!overseas)} onClick={() => setOverseas(false)}>
              企业精选
            </button>
            <button type="button" className={chip(overseas)} onClick={() => setOverseas(true)}>
              海外精选 <span className="ml-1 rounded bg-rose-500 px-1 text-xs text-white">超低折扣</span>
            </button>
          </Row>
        )}
        {!dedicated && (
          <Row label="IP时长">
            {data.ipTimes.map((t) => (
              <button
                key={t.minutes}
                type="button"
                className={chip(minutes === t.minutes)}
                onClick={() => setMinutes(t.minutes)}
              >
                {t.label}
              </button>
            ))}
          </Row>
        )}
        {!dedicated && (
          <Row label={billing === 1 ? '套餐IP数' : '每日IP数'}>
            {sizes.map((s) => (
              <button key={s} type="button" className={chip(size === s)} onClick={() => setSize(s)}>
                {billing === 1 ? `${s.toLocaleString('zh-CN')}个` : `${s.toLocaleString('zh-CN')}个/天`}
              </button>
            ))}
          </Row>
        )}
        {(dedicated || billing === 2) && (
          <Row label="购买时长">
            {periods.map((p) => (
              <button key={p} type="button" className={chip(period === p)} onClick={() => setPeriod(p)}>
                {periodLabel(p)}
              </button>
            ))}
          </Row>
        )}
        {dedicated && (
          <Row label="地区">
            <select
              className="input max-w-xs"
              value={regionId}
              onChange={(e) => setRegionId(Number(e.target.value))}
              aria-label="选择地区"
            >
              <option value={0}>请选择地区</option>
              {regions.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.province && r.province !== r.name && r.province !== '海外' ? `${r.province} · ${r.name}` : r.name}
                </option>
              ))}
            </select>
          </Row>
        )}
        <Row label="购买数量">
          <div className="flex items-center">
            <button
              type="button"
              className="btn-ghost border border-slate-200 px-3"
              onClick={() => setUnits(Math.max(1, units - 1))}
              aria-label="减少"
            >
              −
            </button>
            <input
              className="input mx-2 w-20 text-center"
              inputMode="numeric"
              value={units}
              aria-label="购买数量"
              onChange={(e) => setUnits(Math.min(1000, Math.max(1, Number(e.target.value.replace(/\D/g, '')) || 1)))}
            />
            <button
              type="button"
              className="btn-ghost border border-slate-200 px-3"
              onClick={() => setUnits(Math.min(1000, units + 1))}
              aria-label="增加"
            >
              +
            </button>
            <span className="ml-2 text-sm text-slate-500">{unitLabel}</span>
          </div>
        </Row>
        <div className="py-4 text-sm text-slate-500">
          {meal.name}
          {meal.activityName && <span className="ml-2 text-rose-600">· {meal.activityName}</span>}
          {!dedicated && <span className="ml-2">· 单个IP有效期 {durationLabel(meal.ipDurationMinutes)}</span>}
        </div>
      </div>

      <aside className="card h-fit p-5 lg:sticky lg:top-24" aria-label="订单金额">
        <h2 className="text-base font-semibold text-ink">订单金额</h2>
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-slate-500">原价</dt>
            <dd>{formatFen(quote?.listFen ?? meal.priceFen * units)}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-500">活动优惠{meal.tag ? `（${meal.tag}）` : ''}</dt>
            <dd className="text-rose-600">-{formatFen(quote?.discountFen ?? 0)}</dd>
          </div>
          {user && (
            <div className="flex items-center justify-between gap-2">
              <dt className="shrink-0 text-slate-500">优惠券</dt>
              <dd>
                <select
                  className="max-w-44 rounded border border-slate-200 px-2 py-1 text-sm"
                  value={typeof couponId === 'number' ? couponId : 'none'}
                  onChange={(e) => setCouponId(e.target.value === 'none' ? 'none' : Number(e.target.value))}
                  aria-label="选择优惠券"
                  data-testid="coupon-select"
                >
                  <option value="none">{quote?.applicableCoupons.length ? '不使用优惠券' : '暂无可用优惠券'}</option>
                  {quote?.applicableCoupons.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} -{formatFen(c.reductionFen)}
                    </option>
                  ))}
                </select>
              </dd>
            </div>
          )}
          {quote && quote.couponFen > 0 && (
            <div className="flex justify-between">
              <dt className="text-slate-500">优惠券抵扣</dt>
              <dd className="text-rose-600">-{formatFen(quote.couponFen)}</dd>
            </div>
          )}
        </dl>
        <div className="mt-4 flex items-baseline justify-between border-t border-slate-100 pt-4">
          <span className="text-sm text-slate-600">应付</span>
          <span className="text-2xl font-bold text-rose-600" data-testid="quote-pay">
            {formatFen(quote?.payFen ?? meal.payFen * units)}
          </span>
        </div>
        <button
          type="button"
          className="btn-primary mt-4 w-full py-3 text-base"
          disabled={busy}
          onClick={buy}
          data-testid="buy-now"
        >
          {!user ? '登录后购买' : busy ? '正在下单…' : '立即购买'}
        </button>
        {user && !user.verified && <p className="mt-2 text-xs text-amber-600">根据国家规定，购买前需完成实名认证</p>}
        {receivable.length > 0 && (
          <div className="mt-4 rounded-lg bg-amber-50 p-3">
            <div className="text-xs font-medium text-amber-800">可领取的优惠券</div>
            <ul className="mt-2 space-y-2">
              {receivable.map((c) => (
                <li key={c.id} className="flex items-center justify-between text-sm">
                  <span>
                    <b className="text-rose-600">{couponFace(c.kind, c.value)}</b> {c.name}
                    <span className="ml-1 text-xs text-slate-500">满{formatFen(c.thresholdFen)}可用</span>
                  </span>
                  <button
                    type="button"
                    className="text-xs font-medium text-brand-600 hover:underline"
                    onClick={() => receive(c.id)}
                  >
                    领取
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </aside>
    </div>
  );
}
