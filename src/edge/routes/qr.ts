// GET /qr/business-wechat.svg: the footer's 「扫码添加商务微信」 QR code as a cacheable image. Drawn inline it sat in
// every page twice (HTML and the RSC payload, ~1.5 KB each before compression); as an image it is fetched once, lazily,
// when the footer comes near (docs/decisions/175).
import { Hono } from 'hono';
import QRCode from 'qrcode';
import { SITE } from '../../lib/site';
import type { EdgeEnv } from '../types';

export const businessWechatUrl = (): string => `https://u.wechat.com/${SITE.businessWechat}`;

/** Routes under /qr/. */
export function qrRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.get(SITE.businessWechatQr, async (c) => {
    const svg = await QRCode.toString(businessWechatUrl(), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return c.body(svg, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    });
  });
  return app;
}
