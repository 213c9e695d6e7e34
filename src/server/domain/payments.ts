// Payments: payment attempts at the provider, applying a verified paid transaction (checked against our own order,
// paid once, fulfilled in the same batch), closing unpaid orders (at the provider first) and reconciliation.
import 'server-only';
import { TRANSFER_RAIL } from '../../lib/bank-transfer';
import { BALANCE_RAIL } from '../../lib/balance';
import { AppError, isAppError } from '../../lib/errors';
import { paymentNotes } from '../../lib/messages';
import { type AskableRail, askOutcomeText, isAskableRail } from '../../lib/provider-query';
import type { PayRail as RefundRail } from '../../lib/refund-rules';
import { allocateFixedIps } from '../db/fixed';
import { closeUnpaidOrder, findOrder, findUserOrder, listOrderItems, type OrderRecord } from '../db/orders';
import {
  claimPaymentQuery,
  findPayment,
  flagMismatchedPayment,
  insertPayment,
  listOrderPayments,
  markPaymentClosed,
  markPaymentFailed,
  markPaymentPending,
} from '../db/payments';
import type { AppConfig, Bindings } from '../env';
import { ALIPAY_RAIL_NAMES, type AlipayRail, type PaySetup, payProviderFor } from '../providers/pay';
import { ALIPAY_PAID, type AlipayNotification, type AlipayQueryResult } from '../providers/pay/alipay';
import { type TradeState, upstreamCode } from '../providers/pay/types';
import type { CheckoutRequest } from './checkout-lines';
import { payAndFulfil } from './fulfilment';
import { newOutTradeNo } from './order-numbers';
import { placeOrder } from './order-placement';
import { ORDER_STATE } from '../../lib/order-states';

export const MAX_PAY_ATTEMPTS = 5;
/** A poll may ask the provider about an attempt at most this often. */
export const QUERY_INTERVAL_MS = 5_000;

const log = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>) =>
  console[level === 'info' ? 'log' : level](JSON.stringify({ level, where: 'payments', ...fields }));

function truncateUtf8(text: string, maxBytes: number): string {
  let out = text;
  while (new TextEncoder().encode(out).length > maxBytes) out = out.slice(0, -1);
  return out;
}

/** The user's own order (deleted ones excluded); throws orderNotFound. */
export async function userOrder(db: D1Database, userId: number, orderNo: string): Promise<OrderRecord> {
  const order = await findUserOrder(db, userId, orderNo);
  if (!order) throw new AppError('orderNotFound');
  return order;
}

/** The two rails a customer pays through. */
export type PayRail = 'wechat' | 'alipay';
/**
 * How an Alipay payment opens: 'qr' a 当面付 code scanned with the Alipay app (desktops), 'page' 电脑网站支付 in the
 * browser, 'wap' 手机网站支付 on a phone (it hands over to the Alipay app). WeChat Pay is always a Native QR code here.
 */
export type PayMode = 'qr' | 'page' | 'wap';

/** Whether an attempt was made on an Alipay rail (its payments.provider). */
export const isAlipayAttempt = (provider: string) => ALIPAY_RAIL_NAMES.includes(provider);

/** The rail an attempt was paid on, as refunds name it (payments.provider: WeChat's, Alipay's, the balance or a transfer). */
export const payRailOf = (provider: string): RefundRail =>
  isAlipayAttempt(provider)
    ? 'alipay'
    : provider === TRANSFER_RAIL
      ? 'transfer'
      : provider === BALANCE_RAIL
        ? 'balance'
        : 'wechat';

/** The Alipay rail, or payUnavailable when this deployment has none configured. */
function alipayOf(pay: PaySetup): AlipayRail {
  if (!pay.alipay) throw new AppError('payUnavailable');
  return pay.alipay;
}

/**
 * How the customer asked to pay: the rail, the way of paying, and their address (WeChat H5's risk control). With
 * `openid` a WeChat 'wap' payment is JSAPI (inside WeChat's browser, for that payer) instead of H5.
 */
export interface PayChoice {
  rail?: PayRail;
  mode?: PayMode;
  payerIp?: string;
  openid?: string;
}

/**
 * Where to pay an unpaid order (docs/decisions/223): `codeUrl` is a QR code's text for WeChat Native and Alipay 'qr',
 * and the URL to send the browser to for Alipay 'page' and 'wap' and WeChat 'wap' (H5). A live attempt of the same rail
 * and way of paying is reused: its QR code as stored, a redirect asked for again (Alipay's signed URL carries its
 * timestamp, WeChat's h5_url lasts 5 minutes). Otherwise a new attempt at the provider. Throws orderNotPayable /
 * orderTooManyAttempts / payUnavailable (also for a way of paying the rail does not offer: WeChat has no web cashier).
 */
export async function paymentCodeFor(
  db: D1Database,
  pay: PaySetup,
  order: OrderRecord,
  now: number,
  choice: PayChoice = {},
): Promise<{ codeUrl: string; outTradeNo: string }> {
  if (order.state !== ORDER_STATE.pending || order.expiresAt <= now) throw new AppError('orderNotPayable');
  const rail = choice.rail ?? 'wechat';
  const mode = choice.mode ?? 'qr';
  const openid = rail === 'wechat' && mode === 'wap' ? (choice.openid ?? null) : null;
  if (rail === 'wechat' && mode === 'page') throw new AppError('invalidParams');
  const alipay = rail === 'alipay' ? alipayOf(pay) : null;
  const provider = alipay ? alipay.name : pay.provider.name;
  const cashier = `${pay.portalOrigin}/payPage?orderNo=${order.orderNo}`;
  /** Open (or, for a redirect, open again) the attempt at the provider. */
  const open = async (outTradeNo: string): Promise<string> => {
    if (alipay) {
      // Back to the cashier, which shows the order's state (paid once the notification or a query says so).
      const o = {
        outTradeNo,
        subject: order.title,
        amountFen: order.payFen,
        timeExpireMs: order.expiresAt,
        returnUrl: cashier,
        quitUrl: cashier,
      };
      if (mode === 'qr') return (await alipay.client.precreate(o)).qrCode;
      return mode === 'page' ? alipay.client.pagePayUrl(o) : alipay.client.wapPayUrl(o);
    }
    const o = {
      outTradeNo,
      description: truncateUtf8(order.title, 127),
      amountFen: order.payFen,
      timeExpireMs: order.expiresAt,
      notifyUrl: pay.notifyUrl,
      attach: order.orderNo,
    };
    if (mode === 'qr') return (await pay.provider.createNativeOrder(o)).codeUrl;
    // JSAPI: the attempt keeps the prepay_id; the page gets freshly signed bridge parameters for it (jsapiBridgeFor).
    if (openid) return (await pay.provider.createJsapiOrder({ ...o, openid })).prepayId;
    const { h5Url } = await pay.provider.createH5Order({ ...o, payerClientIp: choice.payerIp ?? '' });
    // WeChat's H5 page returns the payer to redirect_url when they finish (or give up).
    return `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(cashier)}`;
  };
  const live = (await listOrderPayments(db, order.orderNo)).find(
    (p) =>
      p.state === 'pending' &&
      p.codeUrl &&
      p.amountFen === order.payFen &&
      p.provider === provider &&
      p.mode === mode &&
      p.payerOpenid === openid,
  );
  if (live?.codeUrl) {
    // A QR code and a JSAPI prepay_id stay valid for the attempt's life; a redirect is asked for again each time.
    if (mode === 'qr' || openid) return { codeUrl: live.codeUrl, outTradeNo: live.outTradeNo };
    try {
      return { codeUrl: await open(live.outTradeNo), outTradeNo: live.outTradeNo };
    } catch (err) {
      log('error', { event: 'reopen_failed', outTradeNo: live.outTradeNo, error: String(err) });
      throw new AppError('payUnavailable');
    }
  }
  const outTradeNo = newOutTradeNo(now);
  const inserted = await insertPayment(
    db,
    {
      outTradeNo,
      orderNo: order.orderNo,
      userId: order.userId,
      provider,
      amountFen: order.payFen,
      expiresAt: order.expiresAt,
      now,
      mode,
      payerOpenid: openid,
    },
    MAX_PAY_ATTEMPTS,
  );
  if (!inserted) {
    const fresh = await findOrder(db, order.orderNo);
    throw new AppError(fresh?.state === ORDER_STATE.pending ? 'orderTooManyAttempts' : 'orderNotPayable');
  }
  try {
    const codeUrl = await open(outTradeNo);
    await markPaymentPending(db, outTradeNo, codeUrl);
    return { codeUrl, outTradeNo };
  } catch (err) {
    log('error', { event: 'create_failed', outTradeNo, error: String(err) });
    await markPaymentFailed(db, outTradeNo, paymentNotes.createFailed(rail, String(err)));
    throw new AppError('payUnavailable');
  }
}

/** An Alipay trade (a verified notification or a query answer) as the transaction applyTransaction checks. */
export function alipayTransaction(
  rail: AlipayRail,
  t: Pick<AlipayNotification, 'outTradeNo' | 'tradeNo'> & {
    tradeStatus: AlipayQueryResult['tradeStatus'];
    totalFen?: number | undefined;
  },
): ReportedTransaction {
  return {
    outTradeNo: t.outTradeNo,
    // Alipay reports TRADE_SUCCESS, or TRADE_FINISHED once the trade can no longer be refunded: both are paid.
    tradeState: (ALIPAY_PAID as readonly string[]).includes(t.tradeStatus) ? 'SUCCESS' : 'NOTPAY',
    transactionId: t.tradeNo || undefined,
    amountTotalFen: t.totalFen,
    // Alipay trades are in yuan (CNY) by definition: the gateway takes no currency.
    currency: 'CNY',
    provider: rail.name,
  };
}

export interface ReportedTransaction {
  outTradeNo: string;
  tradeState: TradeState;
  transactionId?: string | undefined;
  amountTotalFen?: number | undefined;
  currency?: string | undefined;
  attach?: string | undefined;
  /** The rail that reported it (payments.provider): a report from one rail never pays another rail's attempt. */
  provider?: string | undefined;
}

/** 'mismatch': verified SUCCESS for a known attempt that does not match our order; flagged refund_needed. */
export type ApplyOutcome = 'paid' | 'duplicate' | 'refund' | 'not_paid' | 'unknown' | 'mismatch';

/**
 * Apply a transaction the provider reported (verified notification or query answer). Amount, currency and order
 * must match our own records; then the order is marked paid once and fulfilled in the same batch.
 */
export async function applyTransaction(db: D1Database, t: ReportedTransaction, now: number): Promise<ApplyOutcome> {
  if (t.tradeState !== 'SUCCESS') return 'not_paid';
  const payment = await findPayment(db, t.outTradeNo);
  if (!payment) {
    log('error', { event: 'unknown_payment', outTradeNo: t.outTradeNo });
    return 'unknown';
  }
  if (t.provider !== undefined && t.provider !== payment.provider) {
    log('error', { event: 'rail_mismatch', outTradeNo: t.outTradeNo, reported: t.provider, attempt: payment.provider });
    return 'unknown';
  }
  const order = await findOrder(db, payment.orderNo);
  if (
    !order ||
    !t.transactionId ||
    t.currency !== 'CNY' ||
    t.amountTotalFen !== payment.amountFen ||
    payment.amountFen !== order.payFen ||
    (t.attach !== undefined && t.attach !== order.orderNo)
  ) {
    log('error', {
      event: 'mismatch',
      outTradeNo: t.outTradeNo,
      amount: t.amountTotalFen,
      expected: payment.amountFen,
      currency: t.currency,
      attach: t.attach,
    });
    // The provider says this money was received: record it for a refund instead of only logging (docs/decisions/032).
    await flagMismatchedPayment(
      db,
      t.outTradeNo,
      paymentNotes.mismatchedSuccess(
        {
          amountFen: t.amountTotalFen,
          currency: t.currency,
          attach: t.attach,
          transactionId: t.transactionId,
        },
        isAlipayAttempt(payment.provider) ? 'alipay' : 'wechat',
      ),
    );
    return 'mismatch';
  }
  const items = await listOrderItems(db, order.orderNo);
  const paidNow = await payAndFulfil(
    db,
    order,
    items,
    { outTradeNo: t.outTradeNo, transactionId: t.transactionId, amountFen: t.amountTotalFen },
    now,
  );
  if (paidNow) {
    log('info', { event: 'paid', orderNo: order.orderNo, outTradeNo: t.outTradeNo, amount: t.amountTotalFen });
    await allocateBoughtIps(db, order, now);
    return 'paid';
  }
  const after = await findOrder(db, order.orderNo);
  if (after?.state === ORDER_STATE.paid && after.paidOutTradeNo === t.outTradeNo) return 'duplicate';
  log('error', { event: 'refund_needed', orderNo: order.orderNo, outTradeNo: t.outTradeNo });
  return 'refund';
}

/**
 * A paid fixed or premium IP is allocated at once when the pool has one in its region, not only by the 5-minute job.
 * Best effort: the payment is already recorded, and the job allocates whatever this leaves (分配中 until then).
 */
export async function allocateBoughtIps(db: D1Database, order: OrderRecord, now: number): Promise<void> {
  if (order.productType !== 30 && order.productType !== 50) return;
  try {
    await allocateFixedIps(db, now, { userId: order.userId });
  } catch (err) {
    log('error', { event: 'allocate_after_payment', orderNo: order.orderNo, error: String(err) });
  }
}

/** Ask the provider about one attempt and apply what it says. */
export async function reconcilePayment(
  db: D1Database,
  pay: PaySetup,
  outTradeNo: string,
  now: number,
): Promise<ApplyOutcome | 'error'> {
  try {
    const attempt = await findPayment(db, outTradeNo);
    if (attempt && isAlipayAttempt(attempt.provider)) {
      const rail = alipayOf(pay);
      const q = await rail.client.query(outTradeNo);
      if (q.tradeStatus === 'NOT_EXIST') return 'not_paid';
      return await applyTransaction(db, alipayTransaction(rail, { ...q, tradeNo: q.tradeNo ?? '' }), now);
    }
    const q = await pay.provider.queryOrder(outTradeNo);
    return await applyTransaction(db, q, now);
  } catch (err) {
    if (upstreamCode(err) === 'ORDER_NOT_EXIST') return 'not_paid';
    log('warn', { event: 'query_failed', outTradeNo, error: String(err) });
    return 'error';
  }
}

/** An order's attempts still open at a provider that can be asked about them (WeChat Pay's or Alipay's), by rail. */
export const askableAttempts = (payments: readonly { outTradeNo: string; provider: string; state: string }[]) =>
  payments.flatMap((p) => {
    const rail = payRailOf(p.provider);
    return (p.state === 'pending' || p.state === 'creating') && isAskableRail(rail)
      ? [{ outTradeNo: p.outTradeNo, rail }]
      : [];
  });

/** The rails of an order's attempts a provider can be asked about (the console's 向…查询 button names them). */
export const askableRails = (payments: Parameters<typeof askableAttempts>[0]): AskableRail[] => [
  ...new Set(askableAttempts(payments).map((a) => a.rail)),
];

/**
 * Ask each open attempt's own provider about it now and apply the answer (docs/decisions/244): WeChat Pay for a WeChat
 * attempt, Alipay for an Alipay one. An order with none (awaiting a company transfer, paid by transfer or from the
 * balance, or nothing opened) is refused with nothingToAskProvider: no provider knows about that money.
 */
export async function askProviderAboutOrder(
  db: D1Database,
  pay: () => Promise<PaySetup>,
  orderNo: string,
  now: number,
): Promise<{ outTradeNo: string; rail: AskableRail; outcome: ApplyOutcome | 'error'; text: string }[]> {
  if (!(await findOrder(db, orderNo))) throw new AppError('orderNotFound');
  const open = askableAttempts(await listOrderPayments(db, orderNo));
  if (open.length === 0) throw new AppError('nothingToAskProvider');
  const setup = await pay();
  const results = [];
  for (const a of open) {
    const outcome = await reconcilePayment(db, setup, a.outTradeNo, now);
    results.push({ ...a, outcome, text: askOutcomeText(outcome, a.rail) });
  }
  return results;
}

/** Whether this setup can talk to the rail an attempt was made on (WeChat's provider, or the Alipay rail). */
const ownRail = (pay: PaySetup, provider: string) => provider === pay.provider.name || provider === pay.alipay?.name;

/** On a poll: ask the provider about the order's open attempts (rate-limited), so a lost callback heals quickly. */
export async function refreshOrderPayment(
  db: D1Database,
  pay: PaySetup,
  order: OrderRecord,
  now: number,
): Promise<void> {
  if (order.state !== ORDER_STATE.pending) return;
  for (const p of await listOrderPayments(db, order.orderNo)) {
    if (p.state !== 'pending' || !ownRail(pay, p.provider)) continue;
    if (!(await claimPaymentQuery(db, p.outTradeNo, now, QUERY_INTERVAL_MS))) continue;
    if ((await reconcilePayment(db, pay, p.outTradeNo, now)) === 'paid') return;
  }
}

/**
 * Close an unpaid order: each open attempt is queried and closed at the provider first (a paid one is applied
 * instead); only then is the order closed and its coupon returned. 'retry' when the provider could not be reached.
 */
export async function closeOrder(
  db: D1Database,
  pay: PaySetup,
  orderNo: string,
  now: number,
): Promise<'closed' | 'paid' | 'retry' | 'not_open'> {
  const order = await findOrder(db, orderNo);
  if (order?.state !== ORDER_STATE.pending) return 'not_open';
  for (const p of await listOrderPayments(db, orderNo)) {
    if (p.state !== 'pending' && p.state !== 'creating') continue;
    if (!ownRail(pay, p.provider)) return 'retry';
    const outcome = await reconcilePayment(db, pay, p.outTradeNo, now);
    if (outcome === 'paid' || outcome === 'duplicate') return 'paid';
    if (outcome === 'error') return 'retry';
    try {
      if (isAlipayAttempt(p.provider)) await alipayOf(pay).client.close(p.outTradeNo);
      else await pay.provider.closeOrder(p.outTradeNo);
    } catch (err) {
      // WeChat says ORDERPAID; Alipay refuses to close a paid trade with ACQ.TRADE_STATUS_ERROR.
      if (upstreamCode(err) === 'ORDERPAID' || upstreamCode(err) === 'ACQ.TRADE_STATUS_ERROR') {
        const again = await reconcilePayment(db, pay, p.outTradeNo, now);
        return again === 'paid' || again === 'duplicate' ? 'paid' : 'retry';
      }
      if (upstreamCode(err) !== 'ORDER_NOT_EXIST') {
        log('warn', { event: 'close_failed', outTradeNo: p.outTradeNo, error: String(err) });
        return 'retry';
      }
    }
    await markPaymentClosed(db, p.outTradeNo);
  }
  return (await closeUnpaidOrder(db, orderNo, now)) ? 'closed' : 'not_open';
}

/** The order view returned after placing it: where and how to pay. */
export interface PlacedOrderView {
  orderNo: string;
  title: string;
  payFen: number;
  expiresAt: number;
  codeUrl: string | null;
  payPageUrl: string;
}

/**
 * Place an order and open its first payment attempt. The order stands even when the provider is down or refuses
 * (codeUrl null: the pay page asks again); any other failure propagates.
 */
export async function placeOrderForPayment(
  r: { db: D1Database; env: Bindings; config: AppConfig; user: { id: number }; sourceType: number; now: number },
  request: CheckoutRequest,
  couponId: number | undefined,
): Promise<PlacedOrderView> {
  const { db, now } = r;
  const placed = await placeOrder(db, { userId: r.user.id, sourceType: r.sourceType, request, couponId, now });
  let codeUrl: string | null = null;
  try {
    const order = await findOrder(db, placed.orderNo);
    if (order) codeUrl = (await paymentCodeFor(db, await payProviderFor(r.env, r.config), order, now)).codeUrl;
  } catch (err) {
    if (!isAppError(err)) throw err;
  }
  return { ...placed, codeUrl, payPageUrl: `/payPage?orderNo=${placed.orderNo}` };
}
