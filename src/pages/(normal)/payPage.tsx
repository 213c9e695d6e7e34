// /payPage?orderNo=: the cashier page for one of the user's orders (WeChat QR code, polled until paid).
import { unstable_redirect as redirect } from 'waku/router/server';
import { PaySuccess, WechatPayBox } from '../../components/commerce/wechat-pay-box';
import { formatDateTime, formatFen } from '../../lib/format';
import { SITE } from '../../lib/site';
import { currentMineInfo, serverApi } from '../../server/api-server';

interface OrderState {
  orderNo: string;
  state: number;
  stateText: string;
  expired: boolean;
  title: string;
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  payFen: number;
  createdAt: number;
  expiresAt: number;
  paidAt: number | null;
}

export default async function PayPage({ query }: { query: string }) {
  const orderNo = new URLSearchParams(query).get('orderNo') ?? '';
  if (!(await currentMineInfo())) redirect(`/login?redirect=${encodeURIComponent(`/payPage?orderNo=${orderNo}`)}`);
  const order = /^D\d{14}[0-9A-Z]{16}$/.test(orderNo)
    ? await (await serverApi()).call<OrderState>('PayOrder.GetOrderStateByOrderId', { orderNo }, { silent: true })
    : false;
  const found = order && 'orderNo' in order ? order : null;
  return (
    <div className="bg-slate-50 py-10">
      <title>{`收银台 - ${SITE.name}`}</title>
      <meta name="robots" content="noindex" />
      <div className="container-page max-w-3xl">
        <h1 className="mb-5 text-xl font-bold text-ink">收银台</h1>
        {!found ? (
          <div className="card p-10 text-center text-slate-500" data-testid="pay-page-missing">
            订单不存在
            <a className="btn-outline mt-4 block w-fit mx-auto" href="/personalCenter/orderManager">
              返回订单列表
            </a>
          </div>
        ) : (
          <div className="grid gap-5 md:grid-cols-[1fr_300px]">
            <section className="card p-5 text-sm" aria-label="订单信息">
              <dl className="space-y-3">
                <div className="flex justify-between gap-4">
                  <dt className="shrink-0 text-slate-500">商品</dt>
                  <dd className="text-right text-ink">{found.title}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-slate-500">订单号</dt>
                  <dd className="font-mono text-xs">{found.orderNo}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-slate-500">下单时间</dt>
                  <dd>{formatDateTime(found.createdAt)}</dd>
                </div>
                <div className="flex justify-between">
                  <dt className="text-slate-500">原价</dt>
                  <dd>{formatFen(found.listFen)}</dd>
                </div>
                {found.discountFen + found.creditFen + found.couponFen > 0 && (
                  <div className="flex justify-between">
                    <dt className="text-slate-500">优惠与抵扣</dt>
                    <dd className="text-rose-600">
                      -{formatFen(found.discountFen + found.creditFen + found.couponFen)}
                    </dd>
                  </div>
                )}
                <div className="flex justify-between border-t border-slate-100 pt-3">
                  <dt className="text-slate-500">状态</dt>
                  <dd data-testid="pay-page-state">{found.stateText}</dd>
                </div>
              </dl>
            </section>
            <section className="card p-5">
              {found.state === 1 && !found.expired ? (
                <WechatPayBox
                  order={{
                    orderNo: found.orderNo,
                    title: found.title,
                    payFen: found.payFen,
                    expiresAt: found.expiresAt,
                    codeUrl: null,
                  }}
                  refreshOnPaid
                />
              ) : found.state === 2 ? (
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
