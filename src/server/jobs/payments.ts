// Every 5 minutes: close unpaid orders past expiry (at the provider first, returning their coupons), and ask the
// provider about attempts still pending, so a lost notification never leaves a paid order unfulfilled.
import { listExpiredUnpaid } from '../db/orders';
import { listDuplicatePayments, listOpenPayments } from '../db/payments';
import { closeOrder, reconcilePayment } from '../domain/payments';
import { refundPayment } from '../domain/refunds';
import { readConfig } from '../env';
import { payProviderFor } from '../providers/pay';
import type { Job } from './job';
import { MINUTE_MS } from '../../lib/time';

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
const RECONCILE_MIN_AGE_MS = MINUTE_MS;

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

/** The refunds row's operator for a refund the portal makes by itself (no operator pressed 退款). */
export const SYSTEM_OPERATOR_ID = 0;

/**
 * A second payment of one order (the other rail, another way of paying, or after the order closed) is refunded to its
 * rail without an operator (docs/decisions/223): the same three steps as an operator's refund of a flagged attempt.
 */
export const refundDuplicatePaymentsJob: Job = {
  name: 'refund-duplicate-payments',
  async run(env, now) {
    let setup: ReturnType<typeof payProviderFor> | null = null;
    const pay = () => {
      setup ??= payProviderFor(env, readConfig(env), () => now);
      return setup;
    };
    const tally: Record<string, number> = {};
    for (const outTradeNo of await listDuplicatePayments(env.DB, BATCH)) {
      const outcome = await isolated('refund-duplicate-payments', outTradeNo, async () => {
        const r = await refundPayment(env.DB, pay, {
          outTradeNo,
          reason: '重复支付自动退款',
          operatorId: SYSTEM_OPERATOR_ID,
          now,
        });
        return r.status;
      });
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
