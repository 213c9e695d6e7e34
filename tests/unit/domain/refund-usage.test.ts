// The usage view and pro-rata suggestion beside a refund (docs/decisions/205): count packages by IPs left, daily and
// dedicated packages by time left, nothing left once a package is not in use, and no suggestion without a package.
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/lib/time';
import { packageUsage, proRataRefundFen } from '../../../src/server/domain/refund-usage';

const START = Date.UTC(2026, 0, 1);
const base = {
  id: 7,
  name: '套餐',
  state: 1,
  productType: 10,
  billingMethod: 1,
  totalCount: 1000,
  remainingCount: 250,
  dailyLimit: 0,
  ipCount: 0,
  startsAt: START,
  expiresAt: START + 30 * DAY_MS,
};

describe('refund usage', () => {
  it('measures a count package by its IPs and a daily package by its days', () => {
    const count = packageUsage(base, START + 10 * DAY_MS);
    expect(count.ips).toEqual({ total: 1000, used: 750, left: 250 });
    expect(count.unusedBp).toBe(2500);
    const daily = packageUsage({ ...base, billingMethod: 2, totalCount: 0, dailyLimit: 500 }, START + 12 * DAY_MS);
    expect(daily.ips).toBeNull();
    expect(daily.days).toEqual({ total: 30, used: 12, left: 18 });
    expect(daily.unusedBp).toBe(6000);
  });

  it('has nothing left to refund once the package is expired, used up or disabled', () => {
    expect(packageUsage(base, START + 31 * DAY_MS).unusedBp).toBe(0);
    expect(packageUsage({ ...base, state: 5 }, START).unusedBp).toBe(0);
  });

  it('suggests the mean unused share of what was paid, less what was refunded, within what is left', () => {
    const usage = [packageUsage(base, START), packageUsage({ ...base, remainingCount: 750 }, START)];
    expect(proRataRefundFen({ payFen: 10_000, refundedFen: 0 }, usage)).toBe(5000);
    expect(proRataRefundFen({ payFen: 10_000, refundedFen: 2000 }, usage)).toBe(3000);
    expect(proRataRefundFen({ payFen: 10_000, refundedFen: 6000 }, usage)).toBe(0);
    expect(proRataRefundFen({ payFen: 10_000, refundedFen: 0 }, [])).toBeNull();
  });
});
