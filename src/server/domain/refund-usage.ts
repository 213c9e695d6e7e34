// How much of what an order bought has been used, and the pro-rata refund that follows (docs/decisions/205): shown
// beside the console's refund amount as a suggestion the operator may change within what is still refundable.
import { DAY_MS } from '../../lib/time';
import type { PackageForUsage } from '../db/console-orders';

export interface PackageUsage {
  id: number;
  name: string;
  state: number;
  /** Count packages: IPs bought, used and left; null for daily and dedicated packages (their value is in days). */
  ips: { total: number; used: number; left: number } | null;
  /** Whole days of validity, begun days counted as used. */
  days: { total: number; used: number; left: number };
  /** The share of the package still unused, in basis points (0-10000): what pro-rata refunds. */
  unusedBp: number;
}

const BP = 10_000;
const COUNT_BILLING = 1;
/** States whose package can still be used (1 使用中); expired, used up, deleted or disabled ones have nothing left. */
const LIVE_STATE = 1;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** One package's usage at `now`. */
export function packageUsage(p: PackageForUsage, now: number): PackageUsage {
  const span = Math.max(1, p.expiresAt - p.startsAt);
  const total = Math.max(1, Math.ceil(span / DAY_MS));
  const used = clamp(Math.ceil((now - p.startsAt) / DAY_MS), 0, total);
  const days = { total, used, left: total - used };
  const isCount = p.billingMethod === COUNT_BILLING && p.totalCount > 0;
  const ips = isCount ? { total: p.totalCount, used: p.totalCount - p.remainingCount, left: p.remainingCount } : null;
  let unusedBp = 0;
  if (p.state === LIVE_STATE && now < p.expiresAt) {
    unusedBp = ips
      ? Math.floor((ips.left * BP) / ips.total)
      : Math.floor((clamp(p.expiresAt - Math.max(now, p.startsAt), 0, span) * BP) / span);
  }
  return { id: p.id, name: p.name, state: p.state, ips, days, unusedBp };
}

/**
 * The pro-rata refund: what was paid times the packages' mean unused share, less what was already refunded, within
 * what is still refundable. Null when the order created no package (renewals, extra counts, period changes: their
 * value cannot be measured apart from the package they extended).
 */
export function proRataRefundFen(o: { payFen: number; refundedFen: number }, usage: PackageUsage[]): number | null {
  if (usage.length === 0) return null;
  const meanBp = Math.floor(usage.reduce((sum, u) => sum + u.unusedBp, 0) / usage.length);
  const fair = Math.floor((o.payFen * meanBp) / BP);
  return clamp(fair - o.refundedFen, 0, o.payFen - o.refundedFen);
}
