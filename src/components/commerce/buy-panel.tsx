'use client';
// The order form for one product type: choose billing method, IP duration, size, period (or line, period and region
// for fixed/premium IPs) and quantity (useBuySelection, kept in the URL); prices and terms come live from
// PayOrder.Quote with the best coupon pre-selected (useBuyQuote); buying opens the WeChat payment dialog. A visitor or
// an unverified customer is sent to login / real-name with the chosen package as the way back. Phones get a sticky
// order bar with the price and 立即购买.
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { InitialSelection } from '../../lib/buy-selection';
import { couponFace } from '../../lib/commerce';
import { COUPON_STACKING_NOTE, couponChoices, couponRuleText } from '../../lib/coupon-rules';
import { formatFen } from '../../lib/format';
import { messages } from '../../lib/messages';
import { api } from '../../state/api';
import { payingOrderAtom } from '../../state/commerce';
import { pushToast } from '../../state/toast';
import { BuySelectionForm, REGION_SELECT_ID } from './buy-selection-form';
import { CouponReason, ReceivableSaving } from './coupon-advice';
import { AmountLines, activityLabel, QuoteTermsList } from './quote-terms';
import type { CatalogueView, QuoteRequest } from './types';
import { useBuyQuote } from './use-buy-quote';
import { selectionHref, useBuySelection } from './use-buy-selection';

/** Why a customer is sent to real-name verification before paying (shown before and with the detour). */
export const REAL_NAME_NOTICE =
  '根据相关规定，购买代理IP需先完成实名认证（约1分钟），认证后将回到您选择的套餐继续购买。';

export function BuyPanel({
  data,
  user,
  initial,
}: {
  data: CatalogueView;
  user: { verified: boolean } | null;
  initial?: InitialSelection;
}) {
  const s = useBuySelection(data, initial);
  const { meal, dedicated, units } = s;
  const request: QuoteRequest | null = meal
    ? {
        kind: 'buy',
        mealId: meal.id,
        units,
        ...(dedicated ? { regionId: s.regionId || s.regions[0]?.id } : {}),
      }
    : null;
  const q = useBuyQuote(request, user !== null);
  const quote = q.quote;
  const [busy, setBusy] = useState(false);
  const [paying, openPay] = useAtom(payingOrderAtom);
  // When the payment dialog closes (paid, cancelled or just closed), quote again: a cancelled order's coupon is back.
  const wasPaying = useRef(false);
  const refreshQuote = q.refresh;
  useEffect(() => {
    if (wasPaying.current && !paying) refreshQuote();
    wasPaying.current = paying !== null;
  }, [paying, refreshQuote]);

  async function buy() {
    if (!meal) return;
    const back = encodeURIComponent(selectionHref());
    if (!user) {
      window.location.assign(`/login?redirect=${back}`);
      return;
    }
    if (!user.verified) {
      pushToast('error', messages.realNameRequired);
      window.location.assign(`/personalCenter/realNameAuth?next=${back}`);
      return;
    }
    if (dedicated && !s.regionId) {
      // Said at the select itself (marked, with its message, and focused), not only in a toast.
      s.askRegion();
      pushToast('error', messages.regionRequired);
      const select = document.getElementById(REGION_SELECT_ID);
      select?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      select?.focus({ preventScroll: true });
      return;
    }
    setBusy(true);
    const r = await api.call('PayOrder.BuyProxy', {
      mealId: meal.id,
      units,
      ...(dedicated ? { regionId: s.regionId } : {}),
      ...(q.chosenCoupon ? { couponId: q.chosenCoupon } : {}),
    });
    setBusy(false);
    // The summary keeps the quote the order was placed at while the dialog is open (quoting again now would no longer
    // see the coupon the order just used, and show a higher amount than the dialog charges); it quotes again on close.
    if (r) openPay(r);
  }

  if (!meal) return <p className="card p-8 text-center text-slate-500">暂无在售套餐</p>;
  const payFen = quote?.payFen ?? meal.payFen * units;
  const choices = couponChoices(quote?.applicableCoupons ?? []);
  const buyLabel = !user ? '登录后购买' : busy ? '正在下单…' : user.verified ? '立即购买' : '实名认证后购买';
  /** The buy button: in the summary card and in the phone's order bar. */
  const buyButton = (place: string, testId: string) => (
    <button
      type="button"
      className={`btn-primary ${place} py-3 text-base`}
      disabled={busy}
      onClick={buy}
      data-testid={testId}
    >
      {buyLabel}
    </button>
  );
  const signupHref = () => `/login?type=sms&redirect=${encodeURIComponent(selectionHref())}`;
  return (
    <div className="grid gap-6 pb-24 lg:grid-cols-[1fr_360px] lg:pb-0" data-testid="buy-panel">
      <BuySelectionForm data={data} s={s} />

      <aside className="card h-fit p-5 lg:sticky lg:top-24" aria-label="订单明细" id="order-summary">
        <h2 className="text-base font-semibold text-ink">订单明细</h2>
        <div className="mt-4">
          {quote ? (
            <QuoteTermsList
              // Until a region is chosen the quote prices the first one; name the package without a region.
              terms={dedicated && !s.regionId ? quote.terms.map((t) => ({ ...t, name: meal.name })) : quote.terms}
            />
          ) : (
            <p className="text-sm text-slate-400">正在计算…</p>
          )}
        </div>
        <dl className="mt-4 space-y-2 border-t border-slate-100 pt-4 text-sm">
          <AmountLines
            listFen={quote?.listFen ?? meal.priceFen * units}
            discountFen={quote?.discountFen ?? 0}
            creditFen={quote?.creditFen ?? 0}
            couponFen={quote?.couponFen ?? 0}
            activityLabel={quote ? activityLabel(quote.terms) : null}
            couponName={quote?.coupon?.name ?? null}
          />
          {user && (
            <div className="flex items-center justify-between gap-2">
              <dt className="shrink-0 text-slate-500">选择优惠券</dt>
              <dd>
                <select
                  className="max-w-48 rounded border border-slate-200 px-2 py-1 text-sm"
                  value={
                    typeof q.couponId === 'number'
                      ? (choices.find((c) => c.ids.includes(q.couponId as number))?.id ?? q.couponId)
                      : 'none'
                  }
                  onChange={(e) => q.setCouponId(e.target.value === 'none' ? 'none' : Number(e.target.value))}
                  aria-label="选择优惠券"
                  data-testid="coupon-select"
                >
                  <option value="none">{quote?.applicableCoupons.length ? '不使用优惠券' : '暂无可用优惠券'}</option>
                  {choices.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} -{formatFen(c.reductionFen)}
                      {c.count > 1 ? ` ×${c.count}` : ''}
                    </option>
                  ))}
                </select>
              </dd>
            </div>
          )}
        </dl>
        {user && <CouponReason quote={quote} receivable={q.receivable} />}
        <div className="mt-4 flex items-baseline justify-between border-t border-slate-100 pt-4">
          <span className="text-sm text-slate-600">应付</span>
          <span className="text-2xl font-bold text-rose-600" data-testid="quote-pay">
            {formatFen(payFen)}
          </span>
        </div>
        {buyButton('mt-4 w-full', 'buy-now')}
        {!user && (
          <p className="mt-2 text-center text-xs text-slate-500">
            还没有账号？
            <a
              className="text-brand-600 underline underline-offset-2"
              href="/login?type=sms"
              onClick={(e) => {
                e.preventDefault();
                window.location.assign(signupHref());
              }}
            >
              免费注册
            </a>
            ，注册后回到本套餐
          </p>
        )}
        {user && !user.verified && (
          <p className="mt-2 rounded bg-amber-50 p-2 text-xs leading-5 text-amber-700" data-testid="real-name-notice">
            {REAL_NAME_NOTICE}
          </p>
        )}
        {q.receivable.length > 0 && (
          <div className="mt-4 rounded-lg bg-amber-50 p-3">
            <div className="text-xs font-medium text-amber-800">可领取的优惠券</div>
            <ul className="mt-2 space-y-2">
              {q.receivable.map((c) => (
                <li
                  key={c.id}
                  className="flex items-center justify-between gap-2 text-sm"
                  data-testid="receivable-coupon"
                >
                  <span>
                    <b className="text-rose-600">{couponFace(c.kind, c.value)}</b> {c.name}
                    <span className="block text-xs text-slate-500" data-testid="coupon-rule">
                      {couponRuleText(c)}
                    </span>
                    <ReceivableSaving quote={quote} couponId={c.id} />
                  </span>
                  <button
                    type="button"
                    className="shrink-0 text-xs font-medium text-brand-600 hover:underline disabled:opacity-50"
                    onClick={() => q.receive(c)}
                    disabled={q.receiving !== null}
                  >
                    {q.receiving === c.id ? '领取中…' : '领取'}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {user && <p className="mt-3 text-xs leading-5 text-slate-400">{COUPON_STACKING_NOTE}</p>}
      </aside>

      <div
        className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-3 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-4px_16px_rgba(15,23,42,0.08)] lg:hidden"
        data-testid="order-bar"
        data-order-bar=""
      >
        <span className="order-bar-slot hidden w-12 shrink-0" aria-hidden="true" />
        <a href="#order-summary" className="min-w-0 flex-1">
          <span className="block text-xs text-slate-500">
            应付{quote && quote.listFen > quote.payFen ? ` · 已省${formatFen(quote.listFen - quote.payFen)}` : ''}
          </span>
          <span className="text-xl font-bold text-rose-600" data-testid="order-bar-pay">
            {formatFen(payFen)}
          </span>
        </a>
        {buyButton('shrink-0 px-6', 'order-bar-buy')}
      </div>
    </div>
  );
}
