import { describe, expect, it } from 'vitest';
import { mealButton } from '../../../src/lib/meal-buttons';
import { availableQuota, choosePackages } from '../../../src/server/domain/extract';
import {
  extractCodeOf,
  extractError,
  formatError,
  formatSuccess,
  leaseEnd,
  parseExtractQuery,
} from '../../../src/server/domain/extract-params';
import { shanghaiDateTime, shanghaiDay } from '../../../src/lib/time';
import { signNodeRequest, verifyNodeSignature } from '../../../src/server/domain/node-auth';
import { regionKey } from '../../../src/server/domain/regions';
import { normalizeIp } from '../../../src/server/domain/white-list-ip';

const KEY = 'abcdefghijklmnop0123456789abcdef';
const parse = (q: string) => parseExtractQuery(new URLSearchParams(`key=${KEY}&${q}`));
const codeOf = (q: string) => {
  try {
    parse(q);
    return 0;
  } catch (e) {
    return extractCodeOf(e) !== null ? `${extractCodeOf(e)} ${(e as Error).message}` : 'other';
  }
};

describe('extraction query', () => {
  it('applies defaults', () => {
    expect(parse('')).toMatchObject({ num: 1, protocol: 'http', format: 'txt', separator: '\r\n', dedup: 0, type: 10 });
  });
  it('maps separators 1-5', () => {
    expect(['1', '2', '3', '4'].map((s) => parse(`sep=${s}`).separator)).toEqual(['\r\n', '\n', ' ', '|']);
    expect(parse('sep=5&sep_text=%3B%3B').separator).toBe(';;');
    expect(codeOf('sep=5')).toMatch(/^1006/);
    expect(codeOf('sep=6')).toMatch(/^1006/);
  });
  it('orders fields as region,carrier,expire,ttl whatever the request order', () => {
    expect(parse('fields=ttl,expire,region').fields).toEqual(['region', 'expire', 'ttl']);
    expect(codeOf('fields=city')).toMatch(/^1006/);
  });
  it('validates num, protocol, type, carrier, package', () => {
    expect(codeOf('num=0')).toBe('1006 参数错误：num须为1-200的整数');
    expect(codeOf('num=200')).toBe(0);
    expect(codeOf('num=2.5')).toMatch(/^1006/);
    expect(codeOf('protocol=ftp')).toMatch(/^1006/);
    expect(codeOf('type=30')).toMatch(/^1006/);
    expect(codeOf('carrier=电信,移动')).toBe(0);
    expect(codeOf('carrier=铁通')).toMatch(/^1006/);
    expect(codeOf('package=abc')).toMatch(/^1006/);
    expect(codeOf('dedup=3')).toMatch(/^1006/);
  });
  it('treats a missing or malformed key as 1001', () => {
    expect(() => parseExtractQuery(new URLSearchParams('num=1'))).toThrow('密钥无效');
  });
  it('normalises region names', () => {
    expect(parse('region=广东省,深圳,北京市').regions).toEqual(['广东', '深圳', '北京']);
    expect(regionKey('广西壮族自治区')).toBe('广西');
  });
});

describe('output', () => {
  const now = Date.UTC(2026, 10, 22, 3, 55, 13);
  const ips = [{ ip: '203.0.113.7', port: 40012, region: '广东省深圳市', carrier: '电信', expiresAt: now + 287_000 }];
  it('formats txt with fields and json with optional keys', () => {
    const p = {
      format: 'txt' as const,
      separator: '\n',
      fields: ['region' as const, 'ttl' as const],
      protocol: 'http' as const,
    };
    expect(formatSuccess(p, [...ips, ...ips], now)).toBe(
      '203.0.113.7:40012,广东省深圳市,287\n203.0.113.7:40012,广东省深圳市,287',
    );
    const json = JSON.parse(formatSuccess({ ...p, format: 'json', fields: ['expire', 'ttl'] }, ips, now));
    expect(json).toEqual({
      code: 0,
      msg: '成功',
      data: {
        count: 1,
        list: [{ ip: '203.0.113.7', port: 40012, protocol: 'http', expire_at: '2026-11-22 12:00:00', ttl: 287 }],
      },
    });
  });
  it('formats errors per format', () => {
    expect(formatError('txt', extractError(1005))).toBe('ERROR 1005 请求过于频繁');
    expect(formatError('json', extractError(1007))).toBe('{"code":1007,"msg":"暂无满足条件的IP"}');
  });
  it('uses Asia/Shanghai days and caps leases by the package lifetime', () => {
    expect(shanghaiDay(Date.UTC(2026, 0, 1, 15, 59))).toBe('2026-01-01');
    expect(shanghaiDay(Date.UTC(2026, 0, 1, 16, 0))).toBe('2026-01-02');
    expect(shanghaiDateTime(Date.UTC(2026, 0, 1, 16, 0, 5))).toBe('2026-01-02 00:00:05');
    expect(leaseEnd(10_000_000, 0, 5)).toBe(300_000);
    expect(leaseEnd(100_000, 0, 5)).toBe(100_000);
  });
});

describe('package choice', () => {
  const now = 1_000_000;
  const base = {
    remainingCount: 0,
    dailyLimit: 0,
    usedToday: 0,
    usageDay: '',
    durationMinutes: 5,
    state: 1,
    startsAt: 0,
    expiresAt: now + 1000,
  };
  it('prefers the soonest-expiring package with enough left', () => {
    const a = { ...base, id: 1, billingMethod: 1 as const, remainingCount: 2 };
    const b = { ...base, id: 2, billingMethod: 1 as const, remainingCount: 50, expiresAt: now + 9000 };
    expect(choosePackages([a, b], 1, 'd', now).map((p) => p.id)).toEqual([1, 2]);
    expect(choosePackages([a, b], 3, 'd', now).map((p) => p.id)).toEqual([2]);
  });
  it('answers 1003 without a live package and 1004 without quota', () => {
    expect(() => choosePackages([], 1, 'd', now)).toThrow('套餐不存在或已过期');
    const used = { ...base, id: 1, billingMethod: 1 as const, remainingCount: 0, state: 3 };
    expect(() => choosePackages([used], 1, 'd', now)).toThrow('套餐余量不足');
  });
  it('counts a time package per Shanghai day', () => {
    const t = { ...base, id: 1, billingMethod: 2 as const, dailyLimit: 10, usedToday: 7, usageDay: '2026-01-01' };
    expect(availableQuota(t, '2026-01-01', now)).toBe(3);
    expect(availableQuota(t, '2026-01-02', now)).toBe(10);
    expect(availableQuota({ ...t, dailyLimit: 0 }, '2026-01-01', now)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('white-list addresses', () => {
  it('accepts IPv4 and canonical IPv6, rejects the rest', () => {
    expect(normalizeIp(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(normalizeIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeIp('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normalizeIp('::1')).toBe('::1');
    expect(normalizeIp('::ffff:192.0.2.9')).toBe('192.0.2.9');
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', '1::2::3', 'abc', '2001:db8::g', '1.2.3.4/24', '']) {
      expect(normalizeIp(bad)).toBeNull();
    }
  });
});

describe('account panel buttons', () => {
  it('follows the seed rules', () => {
    expect(mealButton('count', 10, { num: 0, state: 1 }).text).toBe('去购买');
    expect(mealButton('count', 10, { num: 5, state: 1 }).text).toBe('去提取');
    expect(mealButton('time', 10, { num: 3, state: 1 }).text).toBe('去提取');
    expect(mealButton('time', 10, { num: 0, state: 0 }).text).toBe('去购买');
    expect(mealButton('time', 40, { num: 0, state: 2 })).toEqual({
      text: '去补量',
      href: '/personalCenter/buy?type=40&tab=2',
    });
    expect(mealButton('fixed', 30, { num: 2, state: 1 })).toEqual({
      text: '去查看',
      href: '/personalCenter/ipManager/30',
    });
    expect(mealButton('fixed', 30, { num: 0, state: 0 }).text).toBe('去购买');
  });
});

describe('node signatures', () => {
  it('verifies the right secret within the clock window only', async () => {
    const r = { method: 'POST', path: '/node/v1/usage', timestamp: String(1_800_000_000_000), body: '{"a":1}' };
    const signature = await signNodeRequest('s3cret', r);
    expect(await verifyNodeSignature('s3cret', { ...r, signature, now: 1_800_000_000_000 })).toBe(true);
    expect(await verifyNodeSignature('other', { ...r, signature, now: 1_800_000_000_000 })).toBe(false);
    expect(await verifyNodeSignature('s3cret', { ...r, body: '{"a":2}', signature, now: 1_800_000_000_000 })).toBe(
      false,
    );
    expect(await verifyNodeSignature('s3cret', { ...r, signature, now: 1_800_000_000_000 + 600_000 })).toBe(false);
  });
});
