import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatFen, maskPhone } from '../../src/lib/format';
import { identityLabel, isRealNameVerified } from '../../src/lib/identity';
import { decodeMineInfoCookie, encodeMineInfoCookie, readCookie } from '../../src/lib/mine-info';
import { safeRedirect } from '../../src/lib/safe-redirect';

describe('identity label (seed section 4)', () => {
  it.each([
    [false, 0, '未认证'],
    [true, 0, '个人已认证'],
    [false, 1, '企业已认证'],
    [true, 1, '企业已认证'],
    [false, 2, '个人已认证'],
    [false, 3, '个人已认证'],
    [false, 4, '未认证'],
  ] as const)('identity %s, company state %s -> %s', (isIdentityAuth, companyAuthState, label) => {
    expect(identityLabel({ isIdentityAuth, companyAuthState })).toBe(label);
    expect(isRealNameVerified({ isIdentityAuth, companyAuthState })).toBe(label !== '未认证');
  });
});

describe('formatting', () => {
  it('masks phones as first 3, four stars, last 4', () => {
    expect(maskPhone('13812341234')).toBe('138****1234');
  });
  it('formats integer fen', () => {
    expect(formatFen(0)).toBe('¥0.00');
    expect(formatFen(1230)).toBe('¥12.30');
    expect(formatFen(5)).toBe('¥0.05');
    expect(formatFen(-199, false)).toBe('-1.99');
  });
  it('groups counts in thousands as zh-CN does, without the locale formatter', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(10000)).toBe('10,000');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-25000)).toBe('-25,000');
    for (const v of [0, 7, 100, 1000, 99999, 100000, 2500000, 123456789, -1000]) {
      expect(formatCount(v)).toBe(v.toLocaleString('zh-CN'));
    }
    expect(formatCount(1.5)).toBe((1.5).toLocaleString('zh-CN'));
  });
  it('shows times in Asia/Shanghai', () => {
    const ms = Date.UTC(2026, 10, 21, 16, 30, 5); // 2026-11-22 00:30:05 in Shanghai
    expect(formatDateTime(ms)).toBe('2026-11-22 00:30:05');
    expect(formatDate(ms)).toBe('2026-11-22');
  });
});

describe('Mine_Info cookie', () => {
  it('round-trips and rejects malformed values', () => {
    const info = { id: 3, phone: '138****1234', isIdentityAuth: true, isCompanyAuth: false, companyState: 0 };
    expect(decodeMineInfoCookie(encodeMineInfoCookie(info))).toEqual(info);
    expect(decodeMineInfoCookie(encodeURIComponent('{"id":0}'))).toBeNull();
    expect(decodeMineInfoCookie('%E0%A4%A')).toBeNull();
    expect(decodeMineInfoCookie(undefined)).toBeNull();
  });
  it('reads one cookie from a header', () => {
    expect(readCookie('a=1; token=xyz; b=2', 'token')).toBe('xyz');
    expect(readCookie('tokenx=1', 'token')).toBeUndefined();
  });
});

describe('post-login redirect', () => {
  it('allows same-site paths only', () => {
    expect(safeRedirect('/personalCenter/orderManager?x=1')).toBe('/personalCenter/orderManager?x=1');
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '',
      null,
      '/login?x=1',
    ]) {
      expect(safeRedirect(bad)).toBe('/personalCenter');
    }
  });
});
