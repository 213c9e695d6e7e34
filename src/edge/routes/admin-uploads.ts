// Marketing images uploaded from the console (docs/decisions/125). POST /api/upload/marketing-image takes the raw image
// body (the /api body limit is 64 KiB, too small for pictures) from an operator of the content role (admin passes),
// same origin only; JPEG/PNG/WEBP by magic bytes, at most MAX_MARKETING_IMAGE_BYTES; stored in R2 (binding FILES) under
// public/marketing/ with a random name, and the upload is written to the audit log. GET /api/media/marketing/:name
// serves such an image to everyone (it is public site content), immutable under its random name.
import { type Context, Hono } from 'hono';
import { type MessageCode, messages } from '../../lib/messages';
import { readCookie } from '../../lib/mine-info';
import { roleAllows } from '../../lib/operator-roles';
import { auditInsertStatement } from '../../server/db/console-audit';
import { sniffImageType } from '../../server/domain/company-auth';
import { MARKETING_FILE_NAME, MARKETING_MEDIA_PREFIX, MARKETING_R2_PREFIX } from '../../server/domain/marketing-image';
import { OPERATOR_COOKIE, resolveOperatorSession } from '../../server/domain/operators';
import { auditActor } from '../../server/domain/console-audit';
import { readConfig } from '../../server/env';
import { isSameSite, readBytesLimited } from '../request-guards';
import type { EdgeEnv } from '../types';

/** Largest marketing image accepted (a banner; compress larger pictures first). */
export const MAX_MARKETING_IMAGE_BYTES = 2 * 1024 * 1024;

const fail = (c: Context, status: number, code: MessageCode) =>
  c.json({ E: messages[code] }, status as 400, { 'Cache-Control': 'no-store' });

export function adminUploadRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.post('/api/upload/marketing-image', async (c) => {
    if (!isSameSite(c, readConfig(c.env).portalOrigin)) return fail(c, 403, 'crossSite');
    const now = Date.now();
    const operator = await resolveOperatorSession(c.env.DB, readCookie(c.req.header('cookie'), OPERATOR_COOKIE), now);
    if (!operator) return fail(c, 401, 'operatorLoginRequired');
    if (!roleAllows(operator.role, ['content'])) return fail(c, 403, 'operatorForbidden');
    const body = await readBytesLimited(c.req.raw, MAX_MARKETING_IMAGE_BYTES);
    if (!body) return fail(c, 413, 'marketingImageTooLarge');
    const mime = body.byteLength > 0 ? sniffImageType(body.subarray(0, 16)) : null;
    if (!mime) return fail(c, 415, 'marketingImageType');
    const name = `${crypto.randomUUID()}.${mime.slice('image/'.length).replace('jpeg', 'jpg')}`;
    await c.env.FILES.put(`${MARKETING_R2_PREFIX}${name}`, body, {
      httpMetadata: { contentType: mime, cacheControl: 'public, max-age=31536000, immutable' },
    });
    const path = `${MARKETING_MEDIA_PREFIX}${name}`;
    const ip = c.req.header('cf-connecting-ip') ?? '';
    await auditInsertStatement(c.env.DB, auditActor(operator, ip, now), {
      action: 'Admin.MarketingImageUpload',
      target: `file:${path}`,
      after: { mime, bytes: body.byteLength },
    }).run();
    return c.json({ P: { path, mime, size: body.byteLength } }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get(`${MARKETING_MEDIA_PREFIX}:name`, async (c) => {
    const name = c.req.param('name');
    if (!MARKETING_FILE_NAME.test(name)) return fail(c, 404, 'notFound');
    const obj = await c.env.FILES.get(`${MARKETING_R2_PREFIX}${name}`);
    if (!obj) return fail(c, 404, 'notFound');
    return new Response(obj.body, {
      headers: {
        'Content-Type': obj.httpMetadata?.contentType ?? 'application/octet-stream',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  return app;
}
