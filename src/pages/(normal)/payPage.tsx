// /payPage?orderNo=: the cashier and order detail page for one of the user's orders: what was bought (terms), each
// amount on its own line, times and payment numbers, each refund (amount, time, route, reason, the coupon's outcome:
// docs/decisions/205, 206); the payment box (微信支付 or 支付宝, polled until paid) and 取消订单 while pending.
import { unstable_redirect as redirect } from 'waku/router/server';
import { TransferDetails } from '../../components/commerce/bank-transfer';
import { CancelOrderButton } from '../../components/commerce/cancel-order-button';
import { AmountLines, validityText } from '../../components/commerce/quote-terms';
import { PayBox, PaySuccess } from '../../components/commerce/pay-box';
import type { ActionOutput } from '../../lib/api-core';
import { durationLabel, ORDER_KIND, PRODUCT_LABEL } from '../../lib/commerce';
import { formatDateTime, formatFen } from '../../lib/format';
import { couponOutcomeText, refundRail, refundRouteText, refundStatusText } from '../../lib/refund-rules';
import { pageTitle } from '../../lib/site';
import { currentMineInfo } from '../../server/api-server';
import { load } from '../../server/page-data';
import { ORDER_STATE, orderTookMoney } from '../../lib/order-states';

type OrderDetail = ActionOutput<'Order.GetDetail'>;

const n = (v: number) => v.toLocaleString('zh-CN');

/** What one order line delivered, in words. */
function delivered(i: OrderDetail['items'][number]): string[] {
  const out: string[] = [];
  if (i.addIpCount > 0) out.push(`${n(i.addIpCount)}个独享IP`);
  if (i.addCount > 0) out.push(`${i.renewsPackage ? '增加' : ''}IP ${n(i.addCount)}个`);
  if (i.addDailyLimit > 0) out.push(`每日 ${n(i.addDailyLimit)}个`);
  if (i.ipDurationMinutes > 0) out.push(`单个IP时长 ${durationLabel(i.ipDurationMinutes)}`);
  if (i.addDays > 0) {
    out.push(
      i.renewsPackage
        ? `有效期延长${i.addDays}天`
        : `有效期：${validityText({ productType: i.productType, billingMethod: i.billingMethod, days: i.addDays })}`,
    );
  }
  return out;
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 text-right break-all text-ink" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export default async function PayPage({ query }: { query: string }) {
  const orderNo = new URLSearchParams(query).get('orderNo') ?? '';
  if (!(await currentMineInfo())) redirect(`/login?redirect=${encodeURIComponent(`/payPage?orderNo=${orderNo}`)}`);
  const valid = /^D\d{14}[0-9A-Z]{16}$/.test(orderNo);
  // The state call first: it asks WeChat Pay about a pending order, so the detail below is current.
  if (valid) await load('PayOrder.GetOrderStateByOrderId', { orderNo }, false);
  const detail = valid ? await load('Order.GetDetail', { orderNo }, false) : false;
  const found = detail ? detail : null;
  const pending = found?.state === ORDER_STATE.pending;
  // An order awaiting a company transfer (docs/decisions/227) shows its instructions first; the rails stay offered.
  const transfer = pending && found?.transfer?.state === 'awaiting' ? found.transfer : null;
  // What the cashier pays, with either rail (the QR code is asked for when a rail is chosen).
  const payOrder = found
    ? { orderNo: found.orderNo, title: found.title, payFen: found.payFen, expiresAt: found.expiresAt, codeUrl: null }
    : null;
  return (
    <div className="bg-slate-50 py-10">
      <title>{pageTitle(pending ? '收银台' : '订单详情')}</title>
      <meta name="robots" content="noindex" />
      <div className="container-page max-w-4xl">
        <h1 className="mb-5 text-xl font-bold text-ink">{pending ? '收银台' : '订单详情'}</h1>
        {!found ? (
          <div className="card p-10 text-center text-slate-500" data-testid="pay-page-missing">
            订单不存在
            <a className="btn-outline mt-4 block w-fit mx-auto" href="/personalCenter/orderManager">
              返回订单列表
            </a>
          </div>
        ) : (
          <div className="grid gap-5 md:grid-cols-[1fr_320px]">
            <section className="card space-y-5 p-5 text-sm" aria-label="订单信息" data-testid="order-detail">
              <div>
                <h2 className="font-semibold text-ink">购买内容</h2>
                <ul className="mt-3 space-y-3">
                  {found.items.map((i, k) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never reorder and may share a name
                    <li key={`${i.name}-${k}`} className="rounded-lg bg-slate-50 p-3" data-testid="order-item">
                      <div className="flex justify-between gap-3">
                        <span className="font-medium text-ink">{i.name}</span>
                        <span className="shrink-0 text-slate-500">× {i.units}</span>
                      </div>
                      <div className="mt-1 text-xs text-slate-500">{PRODUCT_LABEL[i.productType]}</div>
                      <ul className="mt-2 space-y-0.5 text-xs text-slate-600">
                        {delivered(i).map((d) => (
                          <li key={d}>{d}</li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ul>
              </div>
              <dl className="space-y-2 border-t border-slate-100 pt-4">
                <AmountLines
                  listFen={found.listFen}
                  discountFen={found.discountFen}
                  creditFen={found.creditFen}
                  couponFen={found.couponFen}
                  couponName={found.couponName}
                />
                <div className="flex justify-between border-t border-slate-100 pt-2">
                  <dt className="text-slate-600">{orderTookMoney(found.state) ? '实付' : '应付'}</dt>
                  <dd className="text-lg font-bold text-rose-600" data-testid="order-pay">
                    {formatFen(found.payFen)}
                  </dd>
                </div>
                {found.refundedFen > 0 && (
                  <div className="flex justify-between">
                    <dt className="text-slate-600">已退款</dt>
                    <dd className="font-semibold text-emerald-700" data-testid="order-refunded">
                      {formatFen(found.refundedFen)}
                    </dd>
                  </div>
                )}
              </dl>
              {found.refunds.length > 0 && (
                <div className="border-t border-slate-100 pt-4">
                  <h2 className="font-semibold text-ink">退款记录</h2>
                  <ul className="mt-3 space-y-3">
                    {found.refunds.map((r) => (
                      <li key={r.outRefundNo} className="rounded-lg bg-emerald-50/60 p-3" data-testid="order-refund">
                        <dl className="space-y-1.5">
                          <Row label="退款金额">
                            <strong className="text-emerald-700">{formatFen(r.amountFen)}</strong>
                            <span className="text-slate-500">{r.endsOrder ? '（全部可退金额）' : '（部分退款）'}</span>
                          </Row>
                          <Row label="退款时间">{formatDateTime(r.createdAt)}（北京时间）</Row>
                          <Row label="退款去向" testId="refund-route">
                            {refundRouteText(refundRail(r.route, found.payRail))}
                          </Row>
                          <Row label="状态" testId="refund-status">
                            {refundStatusText(r.status, refundRail(r.route, found.payRail), 'customer')}
                          </Row>
                          {r.reason && <Row label="退款原因">{r.reason}</Row>}
                          <Row label="套餐">
                            {r.endsOrder || r.endsPackages ? '该订单购买的套餐已停用' : '套餐可继续使用'}
                          </Row>
                          {couponOutcomeText(r.couponOutcome, found.coupon) && (
                            <Row label="优惠券" testId="refund-coupon">
                              {couponOutcomeText(r.couponOutcome, found.coupon)}
                            </Row>
                          )}
                        </dl>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <dl className="space-y-2 border-t border-slate-100 pt-4">
                <Row label="状态" testId="pay-page-state">
                  {transfer ? '等待对公转账' : found.stateText}
                  {found.state === ORDER_STATE.paid && found.refundedFen > 0 ? '（已部分退款）' : ''}
                </Row>
                <Row label="订单类型">{found.kindText}</Row>
                <Row label="订单号">
                  <span className="font-mono text-xs">{found.orderNo}</span>
                </Row>
                <Row label="下单时间">{formatDateTime(found.createdAt)}</Row>
                {pending && <Row label="支付截止">{formatDateTime(found.expiresAt)}</Row>}
                {found.paidAt && <Row label="支付时间">{formatDateTime(found.paidAt)}</Row>}
                {found.closedAt && <Row label="关闭时间">{formatDateTime(found.closedAt)}</Row>}
                {found.payRail === 'balance' && <Row label="支付方式">余额支付</Row>}
                {found.outTradeNo && (
                  <Row label="商户支付单号" testId="out-trade-no">
                    <span className="font-mono text-xs">{found.outTradeNo}</span>
                  </Row>
                )}
                {found.transactionId && found.payRail !== 'balance' && (
                  <Row
                    label={
                      found.payRail === 'transfer'
                        ? '银行流水号'
                        : found.payRail === 'alipay'
                          ? '支付宝交易号'
                          : '微信支付交易号'
                    }
                    testId="transaction-id"
                  >
                    <span className="font-mono text-xs">{found.transactionId}</span>
                  </Row>
                )}
              </dl>
            </section>
            <section className="card h-fit p-5">
              {transfer && payOrder ? (
                <>
                  <TransferDetails transfer={transfer} />
                  <details className="mt-4 border-t border-slate-100 pt-3 print:hidden">
                    <summary className="cursor-pointer text-sm text-slate-500">改用微信支付或支付宝</summary>
                    <PayBox order={payOrder} refreshOnPaid />
                  </details>
                  <div className="mt-3 flex justify-center border-t border-slate-100 pt-3 print:hidden">
                    <CancelOrderButton orderNo={found.orderNo} className="text-sm text-slate-500 hover:text-rose-600" />
                  </div>
                </>
              ) : pending && payOrder ? (
                <>
                  <PayBox order={payOrder} refreshOnPaid balanceAllowed={found.kind !== ORDER_KIND.topUp} />
                  <div className="mt-3 flex justify-center border-t border-slate-100 pt-3">
                    <CancelOrderButton orderNo={found.orderNo} className="text-sm text-slate-500 hover:text-rose-600" />
                  </div>
                </>
              ) : found.state === ORDER_STATE.paid ? (
                <PaySuccess title={found.title} />
              ) : (
                <div className="py-10 text-center text-slate-600">
                  <p className="text-base font-medium">订单{found.stateText}</p>
                  <a className="btn-outline mt-4" href="/personalCenter/orderManager">
                    查看订单
                  </a>
                </div>
              )}
            </section>
          </div>
        )}
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
