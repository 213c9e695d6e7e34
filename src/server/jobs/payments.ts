// Every 5 minutes: close unpaid orders past expiry (at the provider first, returning their coupons), and ask the
// provider about attempts still pending, so a lost notification never leaves a paid order unfulfilled.
import { listExpiredUnpaid } from '../db/orders';
import { listOpenPayments } from '../db/payments';
import { closeOrder, reconcilePayment } from '../domain/payments';
import { readConfig } from '../env';
import { payProviderFor } from '../providers/pay';
import type { Job } from './job';

const BATCH = 50;

/** One order's step: a failure is logged and tallied as `failed`, and the job goes on with the next one. */
async function isolated(job: string, key: string, step: () => Promise<string>): Promise<string> {
  try {
    return await step();
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', where: 'job-step', job, step: key, error: String(err) }));
    return 'failed';
  }
}
/** Attempts younger than this are left to the notification. */
const RECONCILE_MIN_AGE_MS = 60_000;

export const closeExpiredOrdersJob: Job = {
  name: 'close-expired-orders',
  async run(env, now) {
    const pay = await payProviderFor(env, readConfig(env), () => now);
    const tally: Record<string, number> = {};
    for (const orderNo of await listExpiredUnpaid(env.DB, now, BATCH)) {
      const outcome = await isolated('close-expired-orders', orderNo, () => closeOrder(env.DB, pay, orderNo, now));
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
      const outcome = await isolated('reconcile-payments', outTradeNo, () =>
        reconcilePayment(env.DB, pay, outTradeNo, now),
      );
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }
    return tally;
  },
};
