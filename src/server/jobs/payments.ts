// Every 5 minutes: close unpaid orders past expiry (at the provider first, returning their coupons), and ask the
// provider about attempts still pending, so a lost notification never leaves a paid order unfulfilled.
import { listExpiredUnpaid } from '../db/orders';
import { listOpenPayments } from '../db/payments';
import { closeOrder, reconcilePayment } from '../domain/payments';
import { readConfig } from '../env';
import { payProviderFor } from '../providers/pay';
import type { Job } from './job';

const BATCH = 50;
/** Attempts younger than this are left to the notification. */
const RECONCILE_MIN_AGE_MS = 60_000;

export const closeExpiredOrdersJob: Job = {
  name: 'close-expired-orders',
  async run(env, now) {
    const pay = await payProviderFor(env, readConfig(env), () => now);
    const tally: Record<string, number> = {};
    for (const orderNo of await listExpiredUnpaid(env.DB, now, BATCH)) {
      const outcome = await closeOrder(env.DB, pay, orderNo, now);
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }
    return tally;
  },
};

export const reconcilePaymentsJob: Job = {
  name: 'reconcile-payments',
  async run(env, now) {
    const pay = await payProviderFor(env, readConfig(env), () => now);
    const tally: Record<string, number> = {};
    for (const outTradeNo of await listOpenPayments(env.DB, now, RECONCILE_MIN_AGE_MS, BATCH)) {
      const outcome = await reconcilePayment(env.DB, pay, outTradeNo, now);
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }
    return tally;
  },
};
