'use client';
// The payment box: 微信支付, 支付宝 or 余额支付 (one order, any rail), the rail's QR code (qrcode loaded on demand) on a
// desktop, Alipay's own payment page on a phone (or by choice on a desktop), the balance and the exact amount charged
// from it (docs/decisions/224), a countdown, and polling of PayOrder.GetOrderStateByOrderId until the order is paid,
// expired or closed. Used by the dialog and /payPage.
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { shortfallText } from '../../lib/balance';
import { formatFen } from '../../lib/format';
import { messages } from '../../lib/messages';
import { api } from '../../state/api';
import type { PayingOrder } from '../../state/commerce';
import { pushToast } from '../../state/toast';
import { inWechatBrowser, payInsideWechat, wechatReturn } from './wechat-jsapi';
import { TransferChoice } from './bank-transfer';
import { ORDER_STATE } from '../../lib/order-states';
import { countdownText } from '../../lib/time';

const POLL_MS = 2500;

type Phase = 'loading' | 'waiting' | 'paid' | 'expired' | 'closed' | 'error';
type Rail = 'wechat' | 'alipay';
type Tab = Rail | 'balance';

const RAILS: { rail: Rail; label: string; color: string; scan: string }[] = [
  { rail: 'wechat', label: '微信支付', color: '#07c160', scan: '请使用微信扫一扫完成支付' },
  { rail: 'alipay', label: '支付宝', color: '#1677ff', scan: '请使用支付宝扫一扫完成支付' },
];
const BALANCE_TAB = { rail: 'balance' as const, label: '余额支付', color: '#f59e0b' };

/**
 * The 余额支付 tab: the balance, the exact amount it will be charged, and one button; a short balance says by how much
 * and links to the top-up. A top-up order itself is never paid from balance (the tab is not offered).
 */
function BalancePay({ order, onPaid }: { order: PayingOrder; onPaid: () => void }) {
  const [balanceFen, setBalanceFen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void api
      .call('Balance.Get', { pageSize: 1 }, { silent: true })
      .then((r) => live && setBalanceFen(r ? r.balanceFen : 0));
    return () => {
      live = false;
    };
  }, []);
  const enough = balanceFen !== null && balanceFen >= order.payFen;
  async function pay() {
    setBusy(true);
    const r = await api.call('PayOrder.PayFromBalance', { orderNo: order.orderNo });
    if (r !== false && r.paid) onPaid();
    else {
      setBusy(false);
      const again = await api.call('Balance.Get', { pageSize: 1 }, { silent: true });
      if (again) setBalanceFen(again.balanceFen);
    }
  }
  return (
    <div
      className="w-full space-y-3 rounded-xl border border-amber-200 bg-amber-50/50 p-4 text-sm"
      data-testid="balance-pay"
    >
      <div className="flex justify-between">
        <span className="text-slate-600">账户余额</span>
        <span className="font-medium text-ink" data-testid="balance-available">
          {balanceFen === null ? '查询中…' : formatFen(balanceFen)}
        </span>
      </div>
      <div className="flex justify-between">
        <span className="text-slate-600">本次扣除</span>
        <span className="font-semibold text-rose-600" data-testid="balance-charge">
          {formatFen(order.payFen)}
        </span>
      </div>
      {balanceFen !== null && enough && (
        <div className="flex justify-between text-xs text-slate-500">
          <span>支付后余额</span>
          <span>{formatFen(balanceFen - order.payFen)}</span>
        </div>
      )}
      {balanceFen !== null && !enough && (
        <p className="text-rose-600" data-testid="balance-short">
          {shortfallText(balanceFen, order.payFen)}，
          <a className="font-medium text-brand-600 underline" href="/personalCenter/balance">
            去充值
          </a>
          ，或选择微信支付、支付宝付款。
        </p>
      )}
      <button
        type="button"
        className="btn-primary w-full py-2.5"
        disabled={!enough || busy}
        onClick={() => void pay()}
        data-testid="balance-pay-submit"
      >
        {busy ? '正在支付…' : `确认用余额支付 ${formatFen(order.payFen)}`}
      </button>
    </div>
  );
}

/** A phone (touch-first small screen): Alipay opens its mobile payment there instead of a QR code on the same phone. */
function useIsPhone(): boolean {
  const [phone, setPhone] = useState(false);
  useEffect(() => {
    setPhone(window.matchMedia('(max-width: 640px), (pointer: coarse) and (max-width: 900px)').matches);
  }, []);
  return phone;
}

function useQrDataUrl(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!text) return;
    let live = true;
    const absolute = new URL(text, window.location.href).href;
    // Lazily loaded so the QR library is only in the bundle of pages that show one.
    void import('qrcode').then((m) =>
      m.default
        .toDataURL(absolute, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
        .then((d) => live && setUrl(d)),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return url;
}

/** Where the paid order's package is listed (fixed and premium IPs share the fixed-IP tab). */
function packageHref(title: string): string {
  const type = title.includes('长效') ? 40 : title.includes('固定') || title.includes('优质') ? 30 : 10;
  return `/personalCenter/packageManager/${type}`;
}

/** The paid state: shown by the box once polling sees the payment, and by /payPage for a paid order. */
export function PaySuccess({ title }: { title: string }) {
  return (
    <div className="py-6 text-center" data-testid="pay-success">
      <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-3xl text-emerald-600">
        ✓
      </div>
      <p className="mt-4 text-lg font-semibold text-ink">支付成功</p>
      <p className="mt-1 text-sm text-slate-500">套餐已到账，可前往套餐管理提取使用</p>
      <div className="mt-5 flex justify-center gap-3">
        <a className="btn-outline" href="/personalCenter/orderManager">
          查看订单
        </a>
        <a className="btn-primary" href={packageHref(title)}>
          查看套餐
        </a>
      </div>
    </div>
  );
}

/**
 * refreshOnPaid: re-render the server page once paid (the cashier page shows the order's state beside the box).
 */
export function PayBox({
  order,
  onPaid,
  refreshOnPaid = false,
  balanceAllowed = true,
}: {
  order: PayingOrder;
  onPaid?: () => void;
  refreshOnPaid?: boolean;
  /** False for a top-up order (余额充值): it cannot be paid from the balance it fills. */
  balanceAllowed?: boolean;
}) {
  const router = useRouter();
  // The latest "paid" reaction, kept out of the polling effect's dependencies: the countdown re-renders every second,
  // and a dependency that changes per render would restart the 2.5 s poll before it ever fired.
  const paidRef = useRef<() => void>(() => {});
  useEffect(() => {
    paidRef.current = () => {
      onPaid?.();
      if (refreshOnPaid) void router.reload();
    };
  });
  const phone = useIsPhone();
  const [inWechat, setInWechat] = useState(false);
  const [tab, setTab] = useState<Tab>('wechat');
  const rail: Rail = tab === 'balance' ? 'wechat' : tab;
  // Each rail's QR code once fetched (the order's WeChat code comes with it when it was just placed).
  const [codes, setCodes] = useState<Partial<Record<Rail, string>>>(order.codeUrl ? { wechat: order.codeUrl } : {});
  const [redirecting, setRedirecting] = useState(false);
  const codeUrl = codes[rail] ?? null;
  const [phase, setPhase] = useState<Phase>(order.codeUrl ? 'waiting' : 'loading');
  const [now, setNow] = useState(() => Date.now());
  const qr = useQrDataUrl(phone ? null : codeUrl);

  useEffect(() => {
    // A phone pays in the rail's own app (the button below), never by a QR code shown on the same phone.
    if (codeUrl || phone || tab === 'balance' || (inWechat && rail === 'wechat')) return;
    let live = true;
    void api.call('PayOrder.GetPayCode', { orderNo: order.orderNo, rail }).then((r) => {
      if (!live) return;
      if (r) {
        setCodes((c) => ({ ...c, [rail]: r.codeUrl }));
        setPhase('waiting');
      } else setPhase('error');
    });
    return () => {
      live = false;
    };
  }, [codeUrl, rail, tab, phone, inWechat, order.orderNo]);

  /**
   * The rail's own payment: on a phone WeChat's H5 payment or Alipay's 手机网站支付 (each hands over to its app and
   * comes back to the cashier); on a desktop Alipay's web cashier (电脑网站支付).
   */
  const openRail = async () => {
    setRedirecting(true);
    // Inside WeChat's own browser WeChat pays in place (JSAPI): H5 payment is refused there, a QR code cannot be scanned.
    if (rail === 'wechat' && inWechat) {
      if (!(await payInsideWechat(order.orderNo))) setRedirecting(false);
      return;
    }
    const r = await api.call('PayOrder.GetPayCode', { orderNo: order.orderNo, rail, mode: phone ? 'wap' : 'page' });
    if (r) window.location.assign(r.codeUrl);
    else setRedirecting(false);
  };

  // Back from WeChat's web authorisation (docs/decisions/237): resume the payment once, or say why it could not.
  const resumed = useRef(false);
  useEffect(() => {
    const wechat = inWechatBrowser();
    setInWechat(wechat);
    if (resumed.current) return;
    resumed.current = true;
    const back = wechatReturn();
    if (back === 'failed') pushToast('error', messages.wechatAuthFailed);
    else if (back === 'resume' && wechat) {
      setRedirecting(true);
      void payInsideWechat(order.orderNo).then((ok) => ok || setRedirecting(false));
    }
  }, [order.orderNo]);

  useEffect(() => {
    // Polled while the code loads too: a phone paying on Alipay's page has no code to wait for.
    if (phase !== 'waiting' && phase !== 'loading') return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = setInterval(async () => {
      const r = await api.call('PayOrder.GetOrderStateByOrderId', { orderNo: order.orderNo }, { silent: true });
      if (!r) return;
      if (r.state === ORDER_STATE.paid) {
        setPhase('paid');
        paidRef.current();
      } else if (r.state === ORDER_STATE.closed) setPhase('closed');
      else if (r.expired) setPhase('expired');
    }, POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [phase, order.orderNo]);

  const isSimulator = (codeUrl?.includes('/dev/wechatpay/pay') || codeUrl?.includes('/dev/alipay/pay')) ?? false;
  const current = RAILS.find((r) => r.rail === rail) ?? RAILS[0];
  const tabs = balanceAllowed ? [...RAILS, BALANCE_TAB] : RAILS;
  if (phase === 'paid') return <PaySuccess title={order.title} />;
  if (phase === 'expired' || phase === 'closed' || phase === 'error') {
    return (
      <div className="py-8 text-center text-slate-600" data-testid="pay-ended">
        <p className="text-base font-medium">
          {phase === 'error'
            ? '暂时无法发起支付，请稍后重试'
            : phase === 'closed'
              ? '订单已关闭'
              : '订单已过期，请重新下单'}
        </p>
        <a className="btn-outline mt-4" href="/personalCenter/orderManager">
          返回订单列表
        </a>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-3 py-2" data-testid="pay-box">
      <div
        className={`grid w-full gap-2 ${tabs.length > 2 ? 'grid-cols-3' : 'grid-cols-2'}`}
        role="tablist"
        aria-label="支付方式"
      >
        {tabs.map((r) => (
          <button
            key={r.rail}
            type="button"
            role="tab"
            aria-selected={tab === r.rail}
            data-testid={`rail-${r.rail}`}
            onClick={() => setTab(r.rail)}
            className={`flex items-center justify-center gap-1.5 rounded-lg border px-2 py-2 text-sm whitespace-nowrap ${
              tab === r.rail ? 'border-brand-500 bg-brand-50 font-medium text-ink' : 'border-slate-200 text-slate-600'
            }`}
          >
            <span className="inline-block h-3.5 w-3.5 rounded" style={{ background: r.color }} aria-hidden="true" />
            {r.label}
          </button>
        ))}
      </div>
      <div className="text-sm text-slate-500">应付金额</div>
      <div className="text-3xl font-bold text-rose-600" data-testid="pay-amount">
        {formatFen(order.payFen)}
      </div>
      {tab === 'balance' ? (
        <BalancePay
          order={order}
          onPaid={() => {
            setPhase('paid');
            paidRef.current();
          }}
        />
      ) : phone || (inWechat && rail === 'wechat') ? (
        <button
          type="button"
          className="btn-primary w-full py-3 text-base"
          style={{ background: current?.color }}
          disabled={redirecting}
          onClick={() => void openRail()}
          data-testid={`open-${rail}`}
        >
          {redirecting
            ? `正在打开${current?.label}…`
            : inWechat && rail === 'wechat'
              ? '微信支付'
              : `打开${current?.label}付款`}
        </button>
      ) : (
        <>
          <div className="flex h-[212px] w-[212px] items-center justify-center rounded-xl border border-slate-200 bg-white p-1.5">
            {qr ? (
              <img src={qr} alt={`${current?.label}二维码`} width={200} height={200} />
            ) : (
              <span className="text-sm text-slate-400">二维码生成中…</span>
            )}
          </div>
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <span className="inline-block h-4 w-4 rounded" style={{ background: current?.color }} aria-hidden="true" />
            {current?.scan}
          </div>
          {rail === 'alipay' && (
            <button
              type="button"
              className="text-xs text-brand-600 hover:underline"
              disabled={redirecting}
              onClick={() => void openRail()}
              data-testid="open-alipay"
            >
              {redirecting ? '正在打开支付宝…' : '没有手机？登录支付宝网页付款'}
            </button>
          )}
        </>
      )}
      <div className="text-xs text-slate-400">
        剩余支付时间 {/* The countdown reads the clock: the server's second and the browser's differ by design. */}
        <span className="font-mono" suppressHydrationWarning>
          {countdownText(order.expiresAt - now)}
        </span>{' '}
        · 订单号 {order.orderNo}
      </div>
      <TransferChoice orderNo={order.orderNo} />
      {isSimulator && codeUrl && tab !== 'balance' && (
        <a className="btn-outline text-xs" href={codeUrl} target="_blank" rel="noreferrer" data-testid="open-simulator">
          开发环境：打开{current?.label}模拟器
        </a>
      )}
    </div>
  );
}
