// The safe-URL rule for marketing images (top banner, bottomBtn2): same-site or https pictures; inOrOut 1 links are
// same-site paths, 2 links are https URLs; anything else drops the image (docs/decisions/051).
import { describe, expect, it } from 'vitest';
import { type MarketingImageDto, safeMarketingImage } from '../../../src/server/domain/marketing-image';

const base: MarketingImageDto = {
  img: '/images/banner-rebate.svg',
  isClick: true,
  clickUrl: '/rebate',
  inOrOut: 1,
  alt: '返佣',
};
const withImage = (patch: Partial<MarketingImageDto>) => safeMarketingImage({ ...base, ...patch });

describe('safeMarketingImage', () => {
  it('keeps a same-site picture with an internal link, and an https picture with an https external link', () => {
    expect(safeMarketingImage(base)).toEqual(base);
    const external = {
      img: 'https://cdn.example.com/b.png',
      isClick: true,
      clickUrl: 'https://partner.example.com/a?x=1',
      inOrOut: 2,
      alt: '',
    };
    expect(safeMarketingImage(external)).toEqual(external);
    expect(withImage({ isClick: false, clickUrl: 'javascript:alert(1)' })).toEqual({
      ...base,
      isClick: false,
      clickUrl: '',
    });
    expect(safeMarketingImage(null)).toBeNull();
  });

  it('drops internal links that are not same-site paths', () => {
    for (const clickUrl of [
      'javascript:alert(1)',
      ' jav&#x61;script:alert(1)',
      'java\tscript:alert(1)',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'data:text/html,<script>alert(1)</script>',
      'rebate',
      '#top',
      'mailto:a@b.cn',
      '',
    ]) {
      expect(withImage({ clickUrl, inOrOut: 1 }), clickUrl).toBeNull();
    }
  });

  it('drops external links that are not https URLs, and unknown link kinds', () => {
    for (const clickUrl of [
      'http://partner.example.com/',
      '/rebate',
      'javascript:alert(1)',
      'vbscript:msgbox(1)',
      'mailto:a@b.cn',
      'https://',
      'HTTPS:javascript:alert(1)',
    ]) {
      expect(withImage({ clickUrl, inOrOut: 2 }), clickUrl).toBeNull();
    }
    expect(withImage({ clickUrl: 'HTTPS://Partner.example.com/', inOrOut: 2 })?.clickUrl).toBe(
      'HTTPS://Partner.example.com/',
    );
    expect(withImage({ inOrOut: 3 })).toBeNull();
    expect(withImage({ inOrOut: 0 })).toBeNull();
  });

  it('drops pictures that are not same-site paths or https URLs', () => {
    for (const img of [
      'javascript:alert(1)',
      'http://cdn.example.com/b.png',
      '//cdn.example.com/b.png',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'images/b.png',
      '',
    ]) {
      expect(withImage({ img }), img).toBeNull();
      expect(withImage({ img, isClick: false }), img).toBeNull();
    }
  });
});
