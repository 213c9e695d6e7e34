// Development only: the WeChat Pay simulator's HTTP face. /dev/wechatpay/v3/* is the simulated API (the provider
// client reaches the same handler in process); /dev/wechatpay/pay is the page a QR code opens, whose "pay" button
// sends the signed notification through our real notify route. /dev/alipay/gateway.do is the Alipay stand-in's gateway
// and /dev/alipay/pay its cashier, whose button posts a signed notification to /pay/notify/alipay the same way. Every
// route answers 404 in production.
import { Hono } from 'hono';
import { formatDateTime, formatFen } from '../../lib/format';
import { readCookie } from '../../lib/mine-info';
import { readConfig } from '../../server/env';
import {
  ALIPAY_SIMULATOR_GATEWAY,
  findAlipaySimulatedTrade,
  handleAlipayGateway,
  simulateAlipayPayment,
} from '../../server/providers/pay/alipay-simulator';
import {
  findSimulatedTransaction,
  handleOAuthStandIn,
  handleSimulatorApi,
  issueOAuthCode,
  openJsapiBridge,
  SIMULATOR_MERCHANT,
  SIMULATOR_MOUNT,
  simulatePayment,
  WECHAT_OAUTH_STAND_IN,
} from '../../server/providers/pay/simulator';
import { randomNonce } from '../../server/providers/pay/wechat-crypto';
import type { EdgeEnv } from '../types';
import { payRoutes } from './pay';

/** The notify route the simulated payment posts to (built once per isolate). */
const notifyRoute = payRoutes();

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

function page(title: string, inner: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><style>
body{margin:0;font-family:"PingFang SC","Noto Sans CJK SC",system-ui,sans-serif;background:#ededed;color:#111}
.box{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0001}
h1{font-size:18px;margin:0 0 4px}.tag{display:inline-block;background:#fff4e5;color:#b45309;font-size:12px;padding:2px 8px;border-radius:4px}
.amt{font-size:36px;font-weight:700;margin:18px 0}.row{display:flex;justify-content:space-between;font-size:13px;color:#555;margin:6px 0}
button{width:100%;background:#07c160;color:#fff;border:0;border-radius:8px;padding:14px;font-size:16px;margin-top:20px;cursor:pointer}
label{font-size:13px;color:#555;display:block;margin-top:14px}.ok{color:#07c160}.bad{color:#dc2626}a{color:#576b95}
</style></head><body><div class="box">${inner}</div></body></html>`;
}

/** A return address on this portal (a path, or under its configured origin); anything else is dropped. */
function sameSite(url: string | undefined, origin: string | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return origin && url.startsWith(`${origin}/`) ? url : null;
}

/** The Alipay stand-in's pages: the same frame in Alipay's blue. */
const alipayPage = (title: string, inner: string) =>
  page(title, inner)
    .replace('background:#07c160', 'background:#1677ff')
    .replace('.ok{color:#07c160}', '.ok{color:#1677ff}');

/** The simulator routes under /dev/wechatpay and /dev/alipay. */
export function paySimulatorRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.use('/dev/wechatpay/*', async (c, next) => {
    if (readConfig(c.env).isProduction) return c.notFound();
    await next();
  });

  app.use('/dev/wechat/*', async (c, next) => {
    if (readConfig(c.env).isProduction) return c.notFound();
    await next();
  });

  // The official account's web authorisation (open.weixin.qq.com): snsapi_base is silent, so the stand-in answers at
  // once with a one-time code for this browser's simulated WeChat user (kept in a cookie, like one WeChat account).
  app.get(`${WECHAT_OAUTH_STAND_IN}/connect/oauth2/authorize`, async (c) => {
    const config = readConfig(c.env);
    const back = sameSite(c.req.query('redirect_uri'), config.portalOrigin);
    if (c.req.query('appid') !== SIMULATOR_MERCHANT.appid || c.req.query('scope') !== 'snsapi_base' || !back) {
      return c.html(
        page('微信授权（模拟）', '<h1 class="bad">参数错误：appid、scope 或 redirect_uri 不正确</h1>'),
        400,
      );
    }
    const known = /^osim[0-9A-Za-z]{20}$/.exec(readCookie(c.req.header('cookie'), 'wxsim_openid') ?? '')?.[0];
    const openid = known ?? `osim${randomNonce(10)}`;
    const code = await issueOAuthCode(c.env.DB, openid, { now: Date.now(), isProduction: config.isProduction });
    const target = `${back}${back.includes('?') ? '&' : '?'}code=${code}&state=${encodeURIComponent(c.req.query('state') ?? '')}`;
    c.header('Set-Cookie', `wxsim_openid=${openid}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`);
    return c.redirect(target);
  });

  // api.weixin.qq.com's code exchange, over HTTP (the portal's client reaches the same handler in process).
  app.get(`${WECHAT_OAUTH_STAND_IN}/sns/oauth2/access_token`, async (c) =>
    handleOAuthStandIn(c.req.raw, c.env.DB, { now: Date.now(), isProduction: readConfig(c.env).isProduction }),
  );

  // WeChat's client receiving WeixinJSBridge.invoke('getBrandWCPayRequest', …): the same checks, then its payment sheet
  // (the simulator's pay page, which returns to the cashier).
  app.get(`${SIMULATOR_MOUNT}/jsapi`, async (c) => {
    const config = readConfig(c.env);
    const opened = await openJsapiBridge(c.env.DB, c.req.query(), {
      now: Date.now(),
      isProduction: config.isProduction,
    });
    if ('refused' in opened) {
      return c.html(page('微信支付（模拟）', `<h1 class="bad">调起支付失败：${esc(opened.refused)}</h1>`), 400);
    }
    const back = sameSite(c.req.query('redirect_url'), config.portalOrigin);
    const q = new URLSearchParams({ out_trade_no: opened.outTradeNo, ...(back ? { redirect_url: back } : {}) });
    return c.redirect(`${SIMULATOR_MOUNT}/pay?${q}`);
  });

  app.all('/dev/wechatpay/v3/*', async (c) => {
    const config = readConfig(c.env);
    return handleSimulatorApi(c.req.raw, c.env.DB, {
      now: Date.now(),
      isProduction: config.isProduction,
      pageOrigin: config.portalOrigin ?? '',
    });
  });

  app.get('/dev/wechatpay/pay', async (c) => {
    const no = c.req.query('out_trade_no') ?? '';
    const t = /^[0-9A-Za-z_\-*]{6,32}$/.test(no) ? await findSimulatedTransaction(c.env.DB, no) : null;
    if (!t) return c.html(page('微信支付（模拟）', '<h1>订单不存在</h1>'), 404);
    const payable = t.tradeState === 'NOTPAY' && t.timeExpireMs > Date.now();
    const stateText = { NOTPAY: payable ? '待支付' : '已过期', SUCCESS: '已支付', CLOSED: '已关闭', REFUND: '已退款' }[
      t.tradeState
    ];
    // An H5 payment returns the payer to the merchant's redirect_url (only back to this portal here).
    const back = sameSite(c.req.query('redirect_url'), readConfig(c.env).portalOrigin);
    const form = payable
      ? `<form method="post" action="/dev/wechatpay/pay"><input type="hidden" name="out_trade_no" value="${esc(t.outTradeNo)}">${
          back ? `<input type="hidden" name="redirect_url" value="${esc(back)}">` : ''
        }
<label><input type="checkbox" name="skip_notify" value="1"> 不发送回调（模拟回调丢失，由对账任务补单）</label>
<button type="submit" data-testid="sim-pay">确认支付 ${esc(formatFen(t.amountFen))}</button></form>`
      : '';
    return c.html(
      page(
        '微信支付（模拟）',
        `<span class="tag">开发环境 · 支付模拟器</span><h1>${esc(t.description)}</h1>
<div class="amt">${esc(formatFen(t.amountFen))}</div>
<div class="row"><span>商户订单号</span><span>${esc(t.outTradeNo)}</span></div>
<div class="row"><span>状态</span><span data-testid="sim-state">${stateText}</span></div>
<div class="row"><span>支付截止</span><span>${esc(formatDateTime(t.timeExpireMs))}</span></div>${form}`,
      ),
    );
  });

  app.post('/dev/wechatpay/pay', async (c) => {
    const config = readConfig(c.env);
    const form = await c.req.parseBody();
    const no = typeof form.out_trade_no === 'string' ? form.out_trade_no : '';
    const paid = /^[0-9A-Za-z_\-*]{6,32}$/.test(no)
      ? await simulatePayment(c.env.DB, no, { now: Date.now(), isProduction: config.isProduction })
      : null;
    if (!paid) return c.html(page('支付失败', '<h1 class="bad">该订单无法支付（已支付、已关闭或已过期）</h1>'), 409);
    let result = '未发送回调（稍后由对账任务查询补单）';
    if (form.skip_notify !== '1') {
      // Sent in process to the real notify route: the real verification.
      const res = await notifyRoute.fetch(
        new Request(new URL(new URL(paid.notifyUrl).pathname, c.req.url), {
          method: 'POST',
          headers: paid.headers,
          body: paid.body,
        }),
        c.env,
      );
      result = `回调已发送，商户应答 HTTP ${res.status}`;
    }
    const back = sameSite(typeof form.redirect_url === 'string' ? form.redirect_url : undefined, config.portalOrigin);
    return c.html(
      page(
        '支付成功',
        `<h1 class="ok" data-testid="sim-result">支付成功</h1><p>${esc(result)}</p><p>${
          back
            ? `<a href="${esc(back)}" data-testid="sim-return">返回商户</a>`
            : '<a href="/personalCenter/orderManager">查看订单</a>'
        }</p>`,
      ),
    );
  });

  // The Alipay stand-in: its gateway (the client posts signed calls here in process; page and phone payments send the
  // payer's browser here), and the cashier page its QR codes and redirects open.
  app.use('/dev/alipay/*', async (c, next) => {
    if (readConfig(c.env).isProduction) return c.notFound();
    await next();
  });
  app.on(['GET', 'POST'], ALIPAY_SIMULATOR_GATEWAY, async (c) => {
    const config = readConfig(c.env);
    return handleAlipayGateway(c.req.raw, c.env.DB, {
      now: Date.now(),
      isProduction: config.isProduction,
      pageOrigin: config.portalOrigin ?? '',
    });
  });
  app.get('/dev/alipay/pay', async (c) => {
    const no = c.req.query('out_trade_no') ?? '';
    const t = /^[0-9A-Za-z_]{1,64}$/.test(no) ? await findAlipaySimulatedTrade(c.env.DB, no) : null;
    if (!t) return c.html(alipayPage('支付宝（模拟）', '<h1>交易不存在</h1>'), 404);
    const payable = t.status === 'WAIT_BUYER_PAY' && t.timeExpireMs > Date.now();
    const stateText = {
      WAIT_BUYER_PAY: payable ? '等待付款' : '已过期',
      TRADE_SUCCESS: '已付款',
      TRADE_FINISHED: '已完结',
      TRADE_CLOSED: '已关闭',
    }[t.status];
    const form = payable
      ? `<form method="post" action="/dev/alipay/pay"><input type="hidden" name="out_trade_no" value="${esc(t.outTradeNo)}">
<label><input type="checkbox" name="skip_notify" value="1"> 不发送异步通知（模拟通知丢失，由对账任务补单）</label>
<button type="submit" data-testid="alipay-sim-pay">确认付款 ${esc(formatFen(t.amountFen))}</button></form>`
      : '';
    return c.html(
      alipayPage(
        '支付宝（模拟）',
        `<span class="tag">开发环境 · 支付宝模拟收银台</span><h1>${esc(t.subject)}</h1>
<div class="amt">${esc(formatFen(t.amountFen))}</div>
<div class="row"><span>商户订单号</span><span>${esc(t.outTradeNo)}</span></div>
<div class="row"><span>状态</span><span data-testid="alipay-sim-state">${stateText}</span></div>
<div class="row"><span>付款截止</span><span>${esc(formatDateTime(t.timeExpireMs))}</span></div>${form}`,
      ),
    );
  });
  app.post('/dev/alipay/pay', async (c) => {
    const config = readConfig(c.env);
    const form = await c.req.parseBody();
    const no = typeof form.out_trade_no === 'string' ? form.out_trade_no : '';
    const paid = /^[0-9A-Za-z_]{1,64}$/.test(no)
      ? await simulateAlipayPayment(c.env.DB, no, { now: Date.now(), isProduction: config.isProduction })
      : null;
    if (!paid)
      return c.html(alipayPage('付款失败', '<h1 class="bad">该交易无法付款（已付款、已关闭或已过期）</h1>'), 409);
    let result = '未发送异步通知（稍后由对账任务查询补单）';
    if (form.skip_notify !== '1') {
      // Sent in process to the real notify route: the real verification.
      const res = await notifyRoute.fetch(
        new Request(new URL(new URL(paid.notifyUrl).pathname, c.req.url), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: paid.body,
        }),
        c.env,
      );
      result = `异步通知已发送，商户应答：${(await res.text()).slice(0, 40)}`;
    }
    const back = paid.trade.returnUrl
      ? `<p><a href="${esc(paid.trade.returnUrl)}" data-testid="alipay-sim-return">返回商户</a></p>`
      : '<p><a href="/personalCenter/orderManager">查看订单</a></p>';
    return c.html(
      alipayPage(
        '付款成功',
        `<h1 class="ok" data-testid="alipay-sim-result">付款成功</h1><p>${esc(result)}</p>${back}`,
      ),
    );
  });
  return app;
}
