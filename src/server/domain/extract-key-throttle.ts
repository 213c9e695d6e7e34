// Throttling wrong extraction keys per calling IP (docs/decisions/081). The shared count lives in
// D1 (extract_key_failures, one conditional upsert per wrong key); each isolate remembers which IPs are over the
// limit, so a throttled IP is refused before any key lookup, without touching D1.
import { countKeyFailure } from '../db/extract';
import type { AppError } from '../../lib/errors';
import { extractError } from './extract-params';

/** Wrong keys one IP may send per window before every call from it is refused with 1011 until the window ends. */
export const EXTRACT_KEY_FAIL_LIMIT = 20;
export const EXTRACT_KEY_FAIL_WINDOW_MS = 60_000;
/** Blocked IPs remembered per isolate; the oldest entry goes first when full. */
const MAX_REMEMBERED = 10_000;

/** Calling IP -> the instant its block ends. */
const blockedUntil = new Map<string, number>();

/** Refuse (1011) a caller this isolate knows to be over the limit; costs no I/O. */
export function assertKeyNotThrottled(clientIp: string, now: number): void {
  const until = blockedUntil.get(clientIp);
  if (until === undefined) return;
  if (now < until) throw extractError(1011);
  blockedUntil.delete(clientIp);
}

/**
 * Count a wrong key or token from `clientIp`. Returns the error to answer: the caller's own (`failure`: 1001 bad key,
 * 1008-1010 bad token) while under the limit, 1011 once over it (the isolate then refuses the IP without a lookup
 * until the window ends).
 */
export async function keyFailed(
  db: D1Database,
  clientIp: string,
  now: number,
  failure: AppError = extractError(1001),
): Promise<AppError> {
  const { count, startedAt } = await countKeyFailure(db, clientIp, now, EXTRACT_KEY_FAIL_WINDOW_MS);
  if (count < EXTRACT_KEY_FAIL_LIMIT) return failure;
  if (blockedUntil.size >= MAX_REMEMBERED) {
    const oldest = blockedUntil.keys().next().value;
    if (oldest !== undefined) blockedUntil.delete(oldest);
  }
  blockedUntil.set(clientIp, startedAt + EXTRACT_KEY_FAIL_WINDOW_MS);
  return count === EXTRACT_KEY_FAIL_LIMIT ? failure : extractError(1011);
}
