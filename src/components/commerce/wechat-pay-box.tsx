'use client';
// The WeChat payment box: the order's QR code (qrcode loaded on demand), a countdown, and polling of
// PayOrder.GetOrderStateByOrderId until the order is paid, expired or closed. Used by the dialog and /payPage.
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { formatFen } from '../../lib/format';
import { api } from '../../state/api';
import type { PayingOrder } from '../../state/commerce';

const POLL_MS = 2500;

type Phase = 'loading' | 'waiting' | 'paid' | 'expired' | 'closed' | 'error';

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

function remaining(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
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
export function WechatPayBox({
  order,
  onPaid,
  refreshOnPaid = false,
}: {
  order: PayingOrder;
  onPaid?: () => void;
  refreshOnPaid?: boolean;
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
  const [codeUrl, setCodeUrl] = useState(order.codeUrl);
  const [phase, setPhase] = useState<Phase>(order.codeUrl ? 'waiting' : 'loading');
  const [now, setNow] = useState(() => Date.now());
  const qr = useQrDataUrl(codeUrl);

  useEffect(() => {
    if (codeUrl) return;
    let live = true;
    void api.call('PayOrder.GetPayCode', { orderNo: order.orderNo }).then((r) => {
      if (!live) return;
      if (r) {
        setCodeUrl(r.codeUrl);
        setPhase('waiting');
      } else setPhase('error');
    });
    return () => {
      live = false;
    };
  }, [codeUrl, order.orderNo]);

  useEffect(() => {
    if (phase !== 'waiting') return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = setInterval(async () => {
      const r = await api.call('PayOrder.GetOrderStateByOrderId', { orderNo: order.orderNo }, { silent: true });
      if (!r) return;
      if (r.state === 2) {
        setPhase('paid');
        paidRef.current();
      } else if (r.state === 3) setPhase('closed');
      else if (r.expired) setPhase('expired');
    }, POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [phase, order.orderNo]);

  const isSimulator = codeUrl?.includes('/dev/wechatpay/pay') ?? false;
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
      <div className="text-sm text-slate-500">应付金额</div>
      <div className="text-3xl font-bold text-rose-600" data-testid="pay-amount">
        {formatFen(order.payFen)}
      </div>
      <div className="flex h-[212px] w-[212px] items-center justify-center rounded-xl border border-slate-200 bg-white p-1.5">
        {qr ? (
          <img src={qr} alt="微信支付二维码" width={200} height={200} />
        ) : (
          <span className="text-sm text-slate-400">二维码生成中…</span>
        )}
      </div>
      <div className="flex items-center gap-2 text-sm text-slate-600">
        <span className="inline-block h-4 w-4 rounded bg-[#07c160]" aria-hidden="true" />
        请使用微信扫一扫完成支付
      </div>
      <div className="text-xs text-slate-400">
        剩余支付时间 <span className="font-mono">{remaining(order.expiresAt - now)}</span> · 订单号 {order.orderNo}
      </div>
      {isSimulator && codeUrl && (
        <a className="btn-outline text-xs" href={codeUrl} target="_blank" rel="noreferrer" data-testid="open-simulator">
          开发环境：打开支付模拟器
        </a>
      )}
    </div>
  );
}
