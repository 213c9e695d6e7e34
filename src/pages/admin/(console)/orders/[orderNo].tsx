// /admin/orders/{orderNo}: one order — amounts, payment attempts, refunds — with 退款 (finance) and 向…查询 (the
// rails of its open attempts: 向微信支付查询 / 向支付宝查询; hidden when no provider has one, e.g. a transfer); an
// attempt flagged 需退款 has its own 退款 (finance; that attempt only, docs/decisions/180).
import { formatDateTime, formatFen } from '../../../../lib/format';
import { canCall } from '../../../../server/operator-access';
import { ORDER_STATE } from '../../../../lib/order-states';
import { load } from '../../../../server/page-data';
import { ORDER_STATE_LABEL, PAYMENT_PROVIDER_TEXT, PAYMENT_STATE_TEXT } from '../../_components/labels';
import { AskProviderButton } from './_components/order-tools';
import { PageTitle, Section } from '../../_components/parts';
import { PaymentRefundPanel } from './_components/payment-refund-panel';
import { RefundPanel } from './_components/refund-panel';

/** What a refund did with the order's coupon, in the refunds list (the rule: docs/decisions/206). */
const COUPON_OUTCOME_SHORT: Record<string, string> = {
  returned: '优惠券已退回',
  expired: '优惠券已过期未退回',
  kept: '优惠券仍按已使用计',
};

export default async function AdminOrderPage({ orderNo }: { orderNo: string }) {
  const [d, me] = await Promise.all([load('Admin.OrderDetail', { orderNo }, false), load('Operator.Me', {}, false)]);
  if (!d) return <p className="card p-6 text-sm text-slate-500">订单不存在或当前角色无权查看。</p>;
  const o = d.order;
  // Each button shows when the operator's role may call the action behind it (src/server/operator-access.ts).
  const may = (action: Parameters<typeof canCall>[1]) => !!me && canCall(me.role, action);
  const { refundedFen } = d;
  return (
    <div className="space-y-4">
      <PageTitle title="订单详情">
        <div className="flex flex-wrap gap-2">
          {o.state === ORDER_STATE.pending && d.askRails.length > 0 && may('Admin.OrderAskProvider') && (
            <AskProviderButton orderNo={o.orderNo} rails={d.askRails} />
          )}
          {o.state === ORDER_STATE.paid && may('Order.RefundByOrderNo') && <RefundPanel orderNo={o.orderNo} />}
        </div>
      </PageTitle>
      <Section title="订单">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-testid="order-summary">
          <dt className="text-slate-500">订单号</dt>
          <dd className="font-mono text-xs break-all">{o.orderNo}</dd>
          <dt className="text-slate-500">状态</dt>
          <dd data-testid="order-state">{ORDER_STATE_LABEL[o.state] ?? o.state}</dd>
          <dt className="text-slate-500">客户</dt>
          <dd>
            <a href={`/admin/customers/${o.userId}`} className="text-brand-700 hover:underline">
              {o.phone}（#{o.userId}）
            </a>
          </dd>
          <dt className="text-slate-500">商品</dt>
          <dd>{o.title}</dd>
          <dt className="text-slate-500">金额</dt>
          <dd>
            原价 {formatFen(o.listFen)} − 折扣 {formatFen(o.discountFen)} − 抵扣 {formatFen(o.creditFen)} − 优惠券{' '}
            {formatFen(o.couponFen)} = 实付 <strong>{formatFen(o.payFen)}</strong>
          </dd>
          <dt className="text-slate-500">时间</dt>
          <dd>
            下单 {formatDateTime(o.createdAt)}
            {o.paidAt ? `；支付 ${formatDateTime(o.paidAt)}` : ''}
            {o.refundedAt ? `；退款 ${formatDateTime(o.refundedAt)}` : ''}
          </dd>
          {refundedFen > 0 && (
            <>
              <dt className="text-slate-500">已退</dt>
              <dd data-testid="order-refunded">
                {formatFen(refundedFen)}（可退 {formatFen(o.state === ORDER_STATE.paid ? o.payFen - refundedFen : 0)}）
              </dd>
            </>
          )}
        </dl>
      </Section>
      <Section title="支付记录">
        <ul className="divide-y divide-slate-100 text-sm">
          {d.payments.length === 0 && <li className="text-slate-400">无</li>}
          {d.payments.map((p) => (
            <li
              key={p.outTradeNo}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-1.5"
              data-testid="order-payment"
            >
              <span className="font-mono text-xs break-all">{p.outTradeNo}</span>
              <span className="text-slate-500">
                {PAYMENT_PROVIDER_TEXT[p.provider] ?? p.provider} · {formatFen(p.amountFen)} ·{' '}
                {PAYMENT_STATE_TEXT[p.state] ?? p.state}
                {p.refundNeeded ? <strong className="text-rose-600"> · 需退款</strong> : null}
                {p.outRefundNo ? <span className="text-emerald-700"> · 已单独退款</span> : null} ·{' '}
                {formatDateTime(p.createdAt)}
                {/* The order's own paying attempt is refunded with the order (退款 above), never on its own. */}
                {may('Admin.RefundPayment') && p.refundNeeded && p.outTradeNo !== o.paidOutTradeNo ? (
                  <span className="ml-2 inline-block">
                    <PaymentRefundPanel outTradeNo={p.outTradeNo} />
                  </span>
                ) : null}
              </span>
              {p.note ? <span className="w-full text-xs break-all text-slate-500">{p.note}</span> : null}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="退款记录">
        <ul className="divide-y divide-slate-100 text-sm" data-testid="order-refunds">
          {d.refunds.length === 0 && <li className="text-slate-400">无</li>}
          {d.refunds.map((r) => (
            <li key={r.outRefundNo} className="py-1.5">
              <span className="font-mono text-xs">{r.outRefundNo}</span> ·{' '}
              {r.kind === 'payment' ? (
                <>
                  单笔支付 <span className="font-mono text-xs break-all">{r.outTradeNo}</span>
                </>
              ) : (
                '订单'
              )}{' '}
              · {formatFen(r.amountFen)}
              {r.kind === 'order'
                ? r.endsOrder
                  ? '（退完，订单结束）'
                  : r.endsPackages
                    ? '（部分，已停用套餐）'
                    : '（部分）'
                : ''}{' '}
              · <span data-testid="order-refund-status">{r.statusText}</span> · {r.reason}
              {r.couponOutcome && r.couponOutcome !== 'none' ? ` · ${COUPON_OUTCOME_SHORT[r.couponOutcome]}` : ''}
              {r.note ? <span className="break-all text-slate-400"> · {r.note}</span> : null} ·{' '}
              {formatDateTime(r.createdAt)}
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
