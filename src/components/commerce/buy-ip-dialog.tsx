'use client';
// The buy-IP dialog for a package the user holds: renew it, add IPs (count packages), extend it by days (time
// packages and dedicated IPs) or upgrade/merge it into a bigger specification; live price from PayOrder.Quote, then
// the WeChat payment dialog.
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { isApiError } from '../../lib/api-core';
import type { PackageAction } from '../../lib/commerce';
import { formatDateTime, formatFen } from '../../lib/format';
import { api } from '../../state/api';
import { payingOrderAtom } from '../../state/commerce';
import { Dialog } from '../dialog';
import type { QuoteRequest, QuoteView, UpgradablePackage } from './types';

const TITLES: Record<PackageAction, string> = {
  renew: '续费套餐',
  addTimes: '购买IP（补量）',
  changeDate: '延长时长',
  merge: '升级套餐',
};

export function BuyIpDialog({
  pkg,
  action,
  onClose,
}: {
  pkg: UpgradablePackage;
  action: PackageAction;
  onClose: () => void;
}) {
  const [amount, setAmount] = useState(action === 'addTimes' ? 1000 : action === 'changeDate' ? 7 : 1);
  // The engine's list: only meals this package can really be upgraded to, priced after its credit.
  const targets = pkg.upgradeTargets;
  const [mealId, setMealId] = useState<number>(targets[0]?.mealId ?? 0);
  const [couponId, setCouponId] = useState<number | undefined>(undefined);
  const [quote, setQuote] = useState<QuoteView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const openPay = useSetAtom(payingOrderAtom);

  const request: QuoteRequest =
    action === 'renew'
      ? { kind: 'renew', packageId: pkg.id, periods: amount }
      : action === 'addTimes'
        ? { kind: 'addTimes', packageId: pkg.id, count: amount }
        : action === 'changeDate'
          ? { kind: 'changeDate', packageId: pkg.id, days: amount }
          : { kind: 'merge', packageIds: [pkg.id], mealId, units: 1 };

  const quoteKey = JSON.stringify({ request, couponId });
  useEffect(() => {
    let live = true;
    const t = setTimeout(async () => {
      const input = JSON.parse(quoteKey) as { request: QuoteRequest; couponId?: number };
      const r = await api.call('PayOrder.Quote', input, { raw: true, silent: true });
      if (!live || !r) return;
      if (isApiError(r)) {
        setError(r.E);
        setQuote(null);
      } else {
        setError(null);
        setQuote(r);
      }
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [quoteKey]);

  async function submit() {
    setBusy(true);
    const coupon = couponId ? { couponId } : {};
    const r = await api.call(
      action === 'renew'
        ? 'PayOrder.RenewProxy'
        : action === 'addTimes'
          ? 'PayOrder.BuyAddTimes'
          : action === 'changeDate'
            ? 'PayOrder.BuyChangeDate'
            : 'ProxyUpgrade.mergeProxy',
      action === 'renew'
        ? { packageId: pkg.id, periods: amount, ...coupon }
        : action === 'addTimes'
          ? { packageId: pkg.id, count: amount, ...coupon }
          : action === 'changeDate'
            ? { packageId: pkg.id, days: amount, ...coupon }
            : { packageIds: [pkg.id], mealId, units: 1 },
    );
    setBusy(false);
    if (r) {
      onClose();
      openPay(r);
    }
  }

  return (
    <Dialog open title={TITLES[action]} onClose={onClose} onConfirm={submit} confirmText={busy ? '下单中…' : '去支付'}>
      <div className="space-y-4" data-testid="buy-ip-dialog">
        <div className="rounded-lg bg-slate-50 p-3 text-xs text-slate-600">
          <div className="font-medium text-ink">{pkg.name}</div>
          <div className="mt-1">到期时间 {formatDateTime(pkg.expiresAt)}</div>
        </div>
        {action === 'merge' ? (
          <label className="block">
            <span className="text-slate-500">升级为</span>
            <select className="input mt-1" value={mealId} onChange={(e) => setMealId(Number(e.target.value))}>
              {targets.map((m) => (
                <option key={m.mealId} value={m.mealId}>
                  {m.name}（抵扣后 {formatFen(m.payFen)}）
                </option>
              ))}
            </select>
            <span className="mt-1 block text-xs text-slate-500">
              原套餐剩余价值 {formatFen(pkg.creditFen)} 已从价格中抵扣，支付后原套餐失效
            </span>
          </label>
        ) : (
          <label className="block">
            <span className="text-slate-500">
              {action === 'renew' ? '续费周期数' : action === 'addTimes' ? '追加IP个数' : '延长天数'}
            </span>
            <input
              className="input mt-1"
              inputMode="numeric"
              value={amount}
              onChange={(e) => setAmount(Math.max(1, Number(e.target.value.replace(/\D/g, '')) || 1))}
            />
          </label>
        )}
        {quote && quote.applicableCoupons.length > 0 && action !== 'merge' && (
          <label className="block">
            <span className="text-slate-500">优惠券</span>
            <select
              className="input mt-1"
              value={couponId ?? 0}
              onChange={(e) => setCouponId(Number(e.target.value) || undefined)}
            >
              <option value={0}>不使用优惠券</option>
              {quote.applicableCoupons.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} -{formatFen(c.reductionFen)}
                </option>
              ))}
            </select>
          </label>
        )}
        {error && <p className="text-sm text-rose-600">{error}</p>}
        {quote && (
          <dl className="space-y-1 border-t border-slate-100 pt-3">
            <div className="flex justify-between">
              <dt className="text-slate-500">原价</dt>
              <dd>{formatFen(quote.listFen)}</dd>
            </div>
            {quote.discountFen + quote.creditFen + quote.couponFen > 0 && (
              <div className="flex justify-between">
                <dt className="text-slate-500">优惠与抵扣</dt>
                <dd className="text-rose-600">-{formatFen(quote.discountFen + quote.creditFen + quote.couponFen)}</dd>
              </div>
            )}
            <div className="flex justify-between text-base">
              <dt className="text-slate-600">应付</dt>
              <dd className="font-bold text-rose-600">{formatFen(quote.payFen)}</dd>
            </div>
          </dl>
        )}
      </div>
    </Dialog>
  );
}
