// POST /pay/notify/wechat: WeChat Pay's payment notifications. The body is verified (signature, serial, timestamp,
// SIGNTEST probes refused) and decrypted by the provider client; a paid transaction is then checked against our own
// order and applied exactly once. Answers: 204 when handled (duplicates, and verified mismatches recorded for a refund,
// included), 4xx/5xx {"code":"FAIL"} otherwise (413 for a body over 64 KiB, 401 unverified, 400 unknown attempt).
import { Hono } from 'hono';
import { applyTransaction } from '../../server/domain/payments';
import { readConfig } from '../../server/env';
import { NOTIFY_PATH, payProviderFor } from '../../server/providers/pay';
import { PayVerificationError } from '../../server/providers/pay/types';
import { notifyFailure, notifySuccess } from '../../server/providers/pay/wechat';
import { readTextLimited } from '../request-guards';
import type { EdgeEnv } from '../types';

const MAX_NOTIFY_BYTES = 64 * 1024;

/** The payment notification routes. */
export function payRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.post(NOTIFY_PATH, async (c) => {
    const now = Date.now();
    // Counted in bytes as the body streams in (Content-Length is only a hint); the rest is never buffered.
    const body = await readTextLimited(c.req.raw, MAX_NOTIFY_BYTES);
    if (body === null) return notifyFailure('body too large', 413);
    const config = readConfig(c.env);
    let notification: Awaited<ReturnType<Awaited<ReturnType<typeof payProviderFor>>['provider']['parseNotification']>>;
    try {
      const { provider } = await payProviderFor(c.env, config);
      notification = await provider.parseNotification(c.req.raw.headers, body, now);
    } catch (err) {
      if (err instanceof PayVerificationError) {
        console.warn(JSON.stringify({ level: 'warn', where: 'pay.notify', rejected: err.reason }));
        return notifyFailure('签名验证失败', 401);
      }
      console.error(JSON.stringify({ level: 'error', where: 'pay.notify', error: String(err) }));
      return notifyFailure('系统繁忙', 500);
    }
    if (notification.eventType !== 'TRANSACTION.SUCCESS') return notifySuccess();
    const outcome = await applyTransaction(c.env.DB, notification.transaction, now);
    // A verified SUCCESS that does not match our order was recorded (refund_needed) by applyTransaction: acknowledge
    // it so WeChat stops retrying. Only an attempt we never created is refused (nothing to attach the money to).
    if (outcome === 'unknown') return notifyFailure('订单不匹配', 400);
    return notifySuccess();
  });
  return app;
}
