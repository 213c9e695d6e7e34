// Notice SMS with retries (docs/decisions/242). An auto-renew notice bound for the phone is queued in the notice SMS
// outbox with its 站内通知 (one row per notice and period) and tried at once; a send that fails with an error worth
// retrying (network, throttling, the vendor's system errors) is tried again by the five-minute job after 1, 5 and 30
// minutes, then given up; a permanent refusal (bad number, unapproved template ...) is not tried again; a notice whose
// renewal period no longer stands (renewed, auto-renew off, the package ended) is dropped, never sent late. Every try
// is claimed first, so two runs never send one notice twice. Verification codes never come here (a late code is useless).
import 'server-only';
import { MINUTE_MS } from '../../lib/time';
import {
  claimNoticeSms,
  dropStaleNoticeSms,
  dueNoticeSmsKeys,
  failNoticeSms,
  markNoticeSmsSent,
  retryNoticeSmsAt,
} from '../db/notice-sms';
import { isRetryableSmsError, type SmsProvider } from '../providers/sms/types';

/** The wait before each retry: after the first failed try 1 minute, then 5, then 30; after the fourth, give up. */
export const NOTICE_SMS_BACKOFF_MS = [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS] as const;
/** A claimed try not finished within this (the run died mid-send) may be claimed again: longer than any send. */
const CLAIM_LEASE_MS = 10 * MINUTE_MS;
/** Rows tried per run (the job runs every five minutes). */
const BATCH = 50;

export type NoticeSmsOutcome = 'sent' | 'later' | 'failed';

/**
 * Try the queued notice SMS `key` now, if it is due, still applies and no other run holds it; null when this call did
 * not try it. A failure is recorded (retry later, or failed with its reason), never thrown.
 */
export async function sendNoticeSms(
  db: D1Database,
  sms: SmsProvider,
  key: string,
  now: number,
): Promise<NoticeSmsOutcome | null> {
  const claim = await claimNoticeSms(db, key, now, CLAIM_LEASE_MS);
  if (!claim) return null;
  try {
    await sms.send({ phone: claim.phone, template: claim.template, params: claim.params });
  } catch (err) {
    const error = String(err).slice(0, 300);
    const retryable = isRetryableSmsError(err);
    const wait = retryable ? NOTICE_SMS_BACKOFF_MS[claim.attempts - 1] : undefined;
    console.error(
      JSON.stringify({ level: 'error', where: 'notice-sms', key, attempt: claim.attempts, retryable, error }),
    );
    if (wait !== undefined) {
      await retryNoticeSmsAt(db, { key, attempts: claim.attempts, nextAt: now + wait, error }, now);
      return 'later';
    }
    await failNoticeSms(db, { key, attempts: claim.attempts, reason: retryable ? 'gave_up' : 'permanent', error }, now);
    return 'failed';
  }
  await markNoticeSmsSent(db, key, claim.attempts, now);
  return 'sent';
}

export interface NoticeSmsRetryReport {
  /** Notices that no longer applied, dropped unsent. */
  dropped: number;
  sent: number;
  /** Failed again, to be tried later. */
  later: number;
  /** Failed and not tried again (permanent, or the last try). */
  failed: number;
}

/** One run of the retry step at `now`: drop what no longer applies, then try what is due (without a provider: drop only). */
export async function retryNoticeSms(
  db: D1Database,
  sms: SmsProvider | null,
  now: number,
): Promise<NoticeSmsRetryReport> {
  const report: NoticeSmsRetryReport = { dropped: await dropStaleNoticeSms(db, now), sent: 0, later: 0, failed: 0 };
  if (!sms) return report;
  for (const key of await dueNoticeSmsKeys(db, now, BATCH)) {
    const outcome = await sendNoticeSms(db, sms, key, now);
    if (outcome) report[outcome] += 1;
  }
  return report;
}
