import { describe, expect, it } from 'vitest';
import { leaseLeft } from '../../../src/lib/lease';

describe('leaseLeft', () => {
  const now = 1_795_000_000_000;
  it('counts down in the largest two units and says when the lease has ended', () => {
    expect(leaseLeft(now + 252_000, now)).toEqual({ text: '剩余4分12秒', live: true });
    expect(leaseLeft(now + 9_000, now)).toEqual({ text: '剩余9秒', live: true });
    expect(leaseLeft(now + (2 * 3600 + 5 * 60) * 1000, now)).toEqual({ text: '剩余2小时5分', live: true });
    expect(leaseLeft(now + (3 * 86_400 + 5 * 3600) * 1000, now)).toEqual({ text: '剩余3天5小时', live: true });
    expect(leaseLeft(now, now)).toEqual({ text: '已到期', live: false });
    expect(leaseLeft(now - 1, now)).toEqual({ text: '已到期', live: false });
  });
});
