// Auto-renew from balance (docs/decisions/225): for each package the customer opted in, the job tells them
// AUTO_RENEW_NOTICE_HOURS before it expires what will be charged (and whether the balance covers it), then within
// AUTO_RENEW_WINDOW_HOURS before expiry places an ordinary renewal order (one period, the catalogue's price) and pays it
// with payFromBalance — the one way an order is paid from balance. A short balance places no order: the customer gets
// one clear notice per period and the next run tries again until the package expires. The notice before renewal and
// the short-balance notice also go to the customer's phone by SMS (template renew_notice) when the deployment has that
// template: the text is queued in the notice SMS outbox in the same batch as the 站内通知's once-per-period claim and
// sent at once; a failed send is retried by the five-minute job (domain/notice-sms.ts, docs/decisions/242).
import 'server-only';
import { AUTO_RENEW_NOTICE_HOURS, AUTO_RENEW_WINDOW_HOURS, autoRenewNotice } from '../../lib/balance';
import { isAppError } from '../../lib/errors';
import { formatFen } from '../../lib/format';
import { HOUR_MS, shanghaiDateTime } from '../../lib/time';
import {
  type AutoRenewDue,
  claimRenewal,
  insertUserNotice,
  listAutoRenewDue,
  noticeOnce,
  packageExpiry,
  recordRenewalOrder,
  releaseRenewal,
} from '../db/auto-renew';
import { balanceOf } from '../db/balance';
import { closeUnpaidOrder, findOrder } from '../db/orders';
import { type NoticeSmsQueued, queueNoticeSmsAfterClaim } from '../db/notice-sms';
import { payFromBalance } from './balance';
import { priceCheckout } from './checkout-coupons';
import type { CheckoutRequest } from './checkout-lines';
import { prepareCheckout } from './checkout-quote';
import type { SmsProvider } from '../providers/sms/types';
import { escapeText } from './html-sanitizer';
import { sendNoticeSms } from './notice-sms';
import { placeOrder } from './order-placement';

const WINDOW_MS = AUTO_RENEW_WINDOW_HOURS * HOUR_MS;
const NOTICE_MS = AUTO_RENEW_NOTICE_HOURS * HOUR_MS;
/** Packages handled per run (the job runs hourly; the window is a day). */
const BATCH = 100;
/** Orders the job places carry the web source (they are the customer's own standing instruction). */
const SOURCE_WEB = 1;

export interface AutoRenewReport {
  noticed: number;
  renewed: number;
  short: number;
  failed: number;
}

const html = (text: string) => `<p>${escapeText(text)}</p>`;

/** One run of the auto-renew job at `now`. */
export async function runAutoRenew(
  db: D1Database,
  now: number,
  sms: SmsProvider | null = null,
): Promise<AutoRenewReport> {
  const report: AutoRenewReport = { noticed: 0, renewed: 0, short: 0, failed: 0 };
  for (const due of await listAutoRenewDue(db, now, NOTICE_MS, BATCH)) {
    try {
      const outcome = await handle(db, due, now, sms);
      if (outcome) report[outcome] += 1;
    } catch (err) {
      report.failed += 1;
      console.error(
        JSON.stringify({ level: 'error', where: 'auto-renew', packageId: due.packageId, error: String(err) }),
      );
    }
  }
  return report;
}

async function handle(
  db: D1Database,
  due: AutoRenewDue,
  now: number,
  sms: SmsProvider | null,
): Promise<keyof AutoRenewReport | null> {
  const request: CheckoutRequest = { kind: 'renew', packageId: due.packageId, periods: 1 };
  const prepared = await prepareCheckout(db, due.userId, request, now);
  const priceFen = (await priceCheckout(db, due.userId, prepared, undefined, now)).payFen;
  const balanceFen = await balanceOf(db, due.userId);
  const facts = { name: due.name, expiresText: shanghaiDateTime(due.expiresAt), priceFen, balanceFen };
  const notify = async (which: 'notified' | 'short', n: { title: string; text: string }, said = facts) => {
    const text = sms?.sends('renew_notice') ? renewNoticeText(due, which, said) : null;
    const first = await noticeOnce(
      db,
      {
        packageId: due.packageId,
        userId: due.userId,
        expiry: due.expiresAt,
        which,
        title: n.title,
        html: html(n.text),
      },
      now,
      text ? queueNoticeSmsAfterClaim(db, text, now) : undefined,
    );
    if (first && sms && text) await sendNoticeSms(db, sms, text.key, now);
    return first;
  };

  if (due.expiresAt - now > WINDOW_MS) {
    return (await notify('notified', autoRenewNotice.upcoming(facts))) ? 'noticed' : null;
  }
  if (balanceFen < priceFen) {
    return (await notify('short', autoRenewNotice.short(facts))) ? 'short' : null;
  }
  if (!(await claimRenewal(db, due.packageId, due.expiresAt))) return null;
  let orderNo: string | null = null;
  try {
    orderNo = (await placeOrder(db, { userId: due.userId, sourceType: SOURCE_WEB, request, couponId: undefined, now }))
      .orderNo;
    const order = await findOrder(db, orderNo);
    if (!order) throw new Error('renewal order not found');
    const paid = await payFromBalance(db, order, now, 'renew');
    await recordRenewalOrder(db, due.packageId, orderNo, now);
    const renewed = autoRenewNotice.renewed({
      name: due.name,
      priceFen: order.payFen,
      balanceFen: paid.balanceFen,
      newExpiresText: shanghaiDateTime((await packageExpiry(db, due.packageId)) ?? due.expiresAt),
    });
    await insertUserNotice(db, { userId: due.userId, title: renewed.title, html: html(renewed.text) }, now);
    return 'renewed';
  } catch (err) {
    // Not renewed: the order (if placed) is closed, the period may be tried again, and a short balance is said once.
    if (orderNo) await closeUnpaidOrder(db, orderNo, now);
    await releaseRenewal(db, due.packageId, due.expiresAt);
    if (isAppError(err) && err.code === 'balanceShort') {
      const atFailure = { ...facts, balanceFen: await balanceOf(db, due.userId) };
      return (await notify('short', autoRenewNotice.short(atFailure), atFailure)) ? 'short' : null;
    }
    throw err;
  }
}

/** The notice by SMS (renew_notice: package, expiry, amount and balance in 元), keyed once per notice and period. */
function renewNoticeText(
  due: AutoRenewDue,
  which: 'notified' | 'short',
  facts: { name: string; expiresText: string; priceFen: number; balanceFen: number },
): NoticeSmsQueued {
  return {
    key: `renew_notice:${due.packageId}:${due.expiresAt}:${which}`,
    userId: due.userId,
    packageId: due.packageId,
    periodExpiry: due.expiresAt,
    phone: due.phone,
    template: 'renew_notice',
    params: {
      name: facts.name,
      time: facts.expiresText.slice(0, 16),
      amount: formatFen(facts.priceFen, false),
      balance: formatFen(facts.balanceFen, false),
    },
  };
}
