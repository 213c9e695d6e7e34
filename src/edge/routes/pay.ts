// POST /pay/notify/alipay: Alipay's trade notifications (below).
// POST /pay/notify/wechat: WeChat Pay's payment notifications, and the refund notifications (REFUND.SUCCESS /
// ABNORMAL / CLOSED) of the refunds we send with the same notify_url. The body is verified (signature, serial,
// timestamp, SIGNTEST probes refused) and decrypted by the provider client; a paid transaction is then checked against
// our own order and applied exactly once; a refund's outcome updates its refunds row (order or single-payment refund,
// matched by out_refund_no and checked against its attempt and amounts; docs/decisions/180). Answers: 204 when handled (duplicates, and verified mismatches recorded for a refund,
// included), 4xx/5xx {"code":"FAIL"} through the one error path otherwise (413 for a body over 64 KiB, 401
// unverified, 400 unknown attempt, 500 anything else).
import { Hono } from 'hono';
import { AppError } from '../../lib/errors';
import { readCookie, TOKEN_COOKIE } from '../../lib/mine-info';
import { alipayTransaction, applyTransaction } from '../../server/domain/payments';
import { applyRefundNotice } from '../../server/domain/refunds';
import { resolveSession } from '../../server/domain/session';
import { completeWechatAuth, WECHAT_OAUTH_RETURN } from '../../server/domain/wechat-jsapi';
import { readConfig } from '../../server/env';
import { ALIPAY_NOTIFY_PATH, NOTIFY_PATH, payProviderFor } from '../../server/providers/pay';
import { ALIPAY_NOTIFY_ACK, ALIPAY_PAID } from '../../server/providers/pay/alipay';
import { notifySuccess } from '../../server/providers/pay/wechat';
import { errorResponse } from '../error-response';
import { readTextLimited } from '../request-guards';
import type { EdgeEnv } from '../types';

const MAX_NOTIFY_BYTES = 64 * 1024;

/** Whether the (not yet verified) body announces a refund event; the provider re-checks it after verification. */
function isRefundEvent(body: string): boolean {
  try {
    const event: unknown = JSON.parse(body);
    return (
      typeof event === 'object' &&
      event !== null &&
      String((event as { event_type?: unknown }).event_type ?? '').startsWith('REFUND.')
    );
  } catch {
    return false;
  }
}

/** The payment notification routes, and the return from WeChat's web authorisation (JSAPI payment). */
export function payRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  // GET /pay/wechat/oauth?orderNo&code&state: WeChat returns the customer here after the official account's web
  // authorisation (docs/decisions/237). The customer's own session, the signed state and WeChat's one-time code decide;
  // then back to the cashier, which resumes the payment (or says the authorisation failed). Nothing is stored on failure.
  app.get(WECHAT_OAUTH_RETURN, async (c) => {
    const now = Date.now();
    const orderNo = c.req.query('orderNo') ?? '';
    const cashier = (extra: string) =>
      /^[0-9A-Za-z]{1,40}$/.test(orderNo) ? `/payPage?orderNo=${orderNo}&${extra}` : '/personalCenter/orderManager';
    const session = await resolveSession(c.env.DB, readCookie(c.req.header('cookie'), TOKEN_COOKIE), now);
    if (!session) return c.redirect(`/login?redirect=${encodeURIComponent(cashier('wxpay=1'))}`);
    try {
      const config = readConfig(c.env);
      await completeWechatAuth(
        c.env.DB,
        await payProviderFor(c.env, config),
        config.sessionSecret,
        session.user.id,
        { orderNo, code: c.req.query('code') ?? '', state: c.req.query('state') ?? '' },
        now,
      );
      return c.redirect(cashier('wxpay=1'));
    } catch (err) {
      console.warn(JSON.stringify({ level: 'warn', where: 'wechat_oauth', error: String(err) }));
      return c.redirect(cashier('wxauth=failed'));
    }
  });

  app.post(NOTIFY_PATH, async (c) => {
    try {
      const now = Date.now();
      // Counted in bytes as the body streams in (Content-Length is only a hint); the rest is never buffered.
      const body = await readTextLimited(c.req.raw, MAX_NOTIFY_BYTES);
      if (body === null) throw new AppError('bodyTooLarge', { status: 413 });
      const { provider } = await payProviderFor(c.env, readConfig(c.env));
      if (isRefundEvent(body)) {
        // Verified and decrypted before anything is read from it; every verified outcome is acknowledged (an unknown
        // or mismatched refund is logged: WeChat retrying would not change it).
        const { refund } = await provider.parseRefundNotification(c.req.raw.headers, body, now);
        await applyRefundNotice(c.env.DB, refund, now);
        return notifySuccess();
      }
      const notification = await provider.parseNotification(c.req.raw.headers, body, now);
      if (notification.eventType !== 'TRANSACTION.SUCCESS') return notifySuccess();
      const outcome = await applyTransaction(c.env.DB, notification.transaction, now);
      // A verified SUCCESS that does not match our order was recorded (refund_needed) by applyTransaction: acknowledge
      // it so WeChat stops retrying. Only an attempt we never created is refused (nothing to attach the money to).
      if (outcome === 'unknown') throw new AppError('payNotifyUnknownOrder', { status: 400 });
      return notifySuccess();
    } catch (err) {
      return errorResponse(err, c, { surface: 'pay-notify' });
    }
  });

  // Alipay's asynchronous notifications (form POST, RSA2): verified by the client (signature over the sorted
  // parameters, app_id and seller_id), then applied like WeChat's (our attempt, amount and order checked, paid once).
  // Alipay retries until it reads the plain text `success`, which is answered only for a verified, handled
  // notification; anything else goes through the one error path (Alipay reads any other answer as a failure).
  app.post(ALIPAY_NOTIFY_PATH, async (c) => {
    try {
      const now = Date.now();
      const body = await readTextLimited(c.req.raw, MAX_NOTIFY_BYTES);
      if (body === null) throw new AppError('bodyTooLarge', { status: 413 });
      const { alipay } = await payProviderFor(c.env, readConfig(c.env));
      if (!alipay) throw new AppError('notFound', { status: 404 });
      const n = await alipay.client.parseNotification(body);
      if ((ALIPAY_PAID as readonly string[]).includes(n.tradeStatus)) {
        const outcome = await applyTransaction(c.env.DB, alipayTransaction(alipay, n), now);
        if (outcome === 'unknown') throw new AppError('payNotifyUnknownOrder', { status: 400 });
      }
      return c.text(ALIPAY_NOTIFY_ACK);
    } catch (err) {
      return errorResponse(err, c, { surface: 'pay-notify' });
    }
  });
  return app;
}
