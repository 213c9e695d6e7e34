// Paying inside WeChat's own browser (JSAPI, docs/decisions/237), for the cashier (pay-box.tsx): ask the portal for
// the next step, then either go through the official account's web authorisation (it comes back to the cashier with
// ?wxpay=1 and the payment resumes) or hand the signed parameters to WeixinJSBridge, which opens WeChat's payment
// sheet. The cashier keeps polling the order, so a payment made in the sheet shows as paid by itself.
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';

interface WeixinBridge {
  invoke(name: 'getBrandWCPayRequest', params: object, done: (res: { err_msg?: string }) => void): void;
}

declare global {
  interface Window {
    WeixinJSBridge?: WeixinBridge;
  }
}

/** The page is open in WeChat's own browser (its user agent says MicroMessenger). */
export const inWechatBrowser = (): boolean =>
  typeof navigator !== 'undefined' && /MicroMessenger/i.test(navigator.userAgent);

/** WeChat's bridge, once WeChat has injected it (it may arrive after the page's scripts). */
function bridgeReady(): Promise<WeixinBridge | null> {
  if (window.WeixinJSBridge) return Promise.resolve(window.WeixinJSBridge);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 1500);
    document.addEventListener(
      'WeixinJSBridgeReady',
      () => {
        clearTimeout(timer);
        resolve(window.WeixinJSBridge ?? null);
      },
      { once: true },
    );
  });
}

/** Start (or resume) paying the order inside WeChat; false when nothing could be opened (the reason was shown). */
export async function payInsideWechat(orderNo: string): Promise<boolean> {
  const r = await api.call('PayOrder.GetPayCode', { orderNo, mode: 'jsapi' });
  if (!r) return false;
  if ('authorizeUrl' in r) {
    window.location.assign(r.authorizeUrl);
    return true;
  }
  if (!('bridge' in r)) return false;
  const bridge = await bridgeReady();
  if (bridge) {
    bridge.invoke('getBrandWCPayRequest', r.bridge, (res) => {
      if (res.err_msg === 'get_brand_wcpay_request:cancel') pushToast('info', '已取消支付，可再次点击支付');
      else if (res.err_msg !== 'get_brand_wcpay_request:ok') pushToast('error', '微信支付未完成，请稍后重试');
    });
    return true;
  }
  // Development: the stand-in plays WeChat's client (the same signature checks) and returns to the cashier.
  if (r.standInUrl) {
    window.location.assign(r.standInUrl);
    return true;
  }
  pushToast('error', '请在微信中打开本页面支付，或返回选择扫码支付');
  return false;
}

/** What the cashier's address says after the web authorisation: resume the payment, or say it failed. */
export function wechatReturn(): 'resume' | 'failed' | null {
  const q = new URLSearchParams(window.location.search);
  if (q.get('wxauth') === 'failed') return 'failed';
  return q.get('wxpay') === '1' ? 'resume' : null;
}
