// /personalCenter/couponManager: the user's coupons by state, and coupons they may still receive.
import { Breadcrumb } from '../../components/breadcrumb';
import { ReceiveCouponButton } from '../../components/commerce/receive-coupon-button';
import { couponFace } from '../../lib/commerce';
import { COUPON_STACKING_NOTE, couponRuleText, couponScopeText, couponThresholdText } from '../../lib/coupon-rules';
import { formatDate } from '../../lib/format';
import { pageTitle } from '../../lib/site';
import { load } from '../../server/page-data';

const TABS = [
  [1, '未使用'],
  [2, '已使用'],
  [3, '已过期'],
] as const;

export default async function CouponManagerPage({ query }: { query: string }) {
  const raw = Number(new URLSearchParams(query).get('state'));
  const state = raw === 2 || raw === 3 ? raw : 1;
  const [mine, receivable] = await Promise.all([
    load('Coupon.GetList', { state }, { list: [] }),
    load('Coupon.GetReceivable', {}, { list: [] }),
  ]);
  const list = mine.list;
  const offers = receivable.list.filter((c) => c.received < c.perUserLimit);
  return (
    <div className="space-y-5">
      <title>{pageTitle('优惠券')}</title>
      <Breadcrumb items={[{ label: '个人中心', href: '/personalCenter' }, { label: '财务' }, { label: '优惠券' }]} />
      <h1 className="text-xl font-semibold text-ink">优惠券</h1>
      {offers.length > 0 && (
        <section className="card p-5" aria-label="可领取的优惠券">
          <h2 className="text-base font-semibold text-ink">领券中心</h2>
          <ul className="mt-4 grid gap-3 md:grid-cols-2">
            {offers.map((c) => (
              <li
                key={c.id}
                className="flex items-center justify-between rounded-xl border border-amber-200 bg-amber-50/60 p-4"
              >
                <div>
                  <div className="text-xl font-bold text-rose-600">{couponFace(c.kind, c.value)}</div>
                  <div className="text-sm font-medium text-ink">{c.name}</div>
                  <div className="mt-1 text-xs text-slate-500">
                    {couponRuleText(c)} · 领取后{c.validDays}天有效
                  </div>
                </div>
                <ReceiveCouponButton couponId={c.id} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="card p-5">
        <div className="flex gap-6 border-b border-slate-100" role="tablist">
          {TABS.map(([v, label]) => (
            <a
              key={v}
              role="tab"
              aria-selected={state === v}
              href={`/personalCenter/couponManager?state=${v}`}
              className={`border-b-2 px-1 pb-3 text-sm font-medium ${state === v ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500'}`}
            >
              {label}
            </a>
          ))}
        </div>
        <p className="mt-3 text-xs text-slate-500" data-testid="coupon-stacking-note">
          {COUPON_STACKING_NOTE}
        </p>
        {list.length === 0 ? (
          <p className="py-12 text-center text-slate-500" data-testid="coupons-empty">
            暂无优惠券
          </p>
        ) : (
          <ul className="mt-4 grid gap-3 md:grid-cols-2" data-testid="coupon-list">
            {list.map((c) => (
              <li
                key={c.id}
                className={`flex overflow-hidden rounded-xl border ${state === 1 ? 'border-rose-200' : 'border-slate-200 opacity-70'}`}
              >
                <div
                  className={`flex w-28 shrink-0 flex-col items-center justify-center ${state === 1 ? 'bg-rose-500 text-white' : 'bg-slate-300 text-white'}`}
                >
                  <span className="text-2xl font-bold">{couponFace(c.kind, c.value)}</span>
                  <span className="px-1 text-center text-xs">{couponThresholdText(c.thresholdFen)}</span>
                </div>
                <div className="flex-1 p-4 text-sm">
                  <div className="font-medium text-ink">{c.name}</div>
                  <div className="mt-1 text-xs text-slate-500">{couponScopeText(c.productTypes)}</div>
                  <div className="mt-1 text-xs text-slate-500">有效期至 {formatDate(c.expiresAt)}</div>
                  {c.locked && <div className="mt-1 text-xs text-amber-600">待支付订单占用中，订单关闭后退回</div>}
                  {state === 1 && (
                    <a className="mt-2 inline-block text-xs text-brand-600 hover:underline" href="/buy?type=10">
                      去使用
                    </a>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
