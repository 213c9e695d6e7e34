import { describe, expect, it } from 'vitest';
import { adClickIds, isSellerTraffic, parsePromotion } from '../../src/lib/promotion';

const p = (q: string) => parsePromotion(new URLSearchParams(q));

describe('parsePromotion', () => {
  it('is none without did', () => {
    expect(p('from=seller')).toEqual({ kind: 'none' });
  });

  it('accepts did with optional from and keyword', () => {
    expect(p('did=u8842')).toEqual({ kind: 'ok', params: { did: 'u8842' } });
    expect(p('did=abc_1&from=seller&keyword=%E4%BB%A3%E7%90%86IP')).toEqual({
      kind: 'ok',
      params: { did: 'abc_1', from: 'seller', keyword: '代理IP' },
    });
  });

  it('flags malformed links', () => {
    for (const q of [
      'did=',
      'did=a%20b',
      `did=${'x'.repeat(33)}`,
      'did=ok&from=%3Cs%3E',
      'did=ok&keyword=%3Cscript%3E',
    ]) {
      expect(p(q)).toEqual({ kind: 'invalid' });
    }
  });

  it('marks seller traffic', () => {
    expect(isSellerTraffic({ did: 'a', from: 'seller' })).toBe(true);
    expect(isSellerTraffic({ did: 'a' })).toBe(false);
  });
});

describe('adClickIds', () => {
  it('reads bd_vid / bdVid and qhclickid, ignoring junk', () => {
    expect(adClickIds(new URLSearchParams('bd_vid=123abc&qhclickid=q-9'))).toEqual({
      bdVid: '123abc',
      qhclickid: 'q-9',
    });
    expect(adClickIds(new URLSearchParams('bdVid=x1'))).toEqual({ bdVid: 'x1' });
    expect(adClickIds(new URLSearchParams('bd_vid=%3Cx%3E'))).toEqual({});
  });
});
