// The cashier's countdown reads as people count: minutes for a QR code, days for a bank transfer's reservation.
import { describe, expect, it } from 'vitest';
import { countdownText, DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/lib/time';

describe('countdownText', () => {
  it('reads mm:ss under an hour, h:mm:ss under a day, days hours minutes beyond, and never below zero', () => {
    expect(countdownText(15 * MINUTE_MS)).toBe('15:00');
    expect(countdownText(59 * 1000 + 999)).toBe('00:59');
    expect(countdownText(HOUR_MS + 61_000)).toBe('1:01:01');
    expect(countdownText(7 * DAY_MS - MINUTE_MS)).toBe('6天23小时59分');
    expect(countdownText(-5000)).toBe('00:00');
  });
});
