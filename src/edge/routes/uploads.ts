// POST /api/upload/company-licence: the licence image upload (the /api body limit is 64 KiB, so images come here as
// a raw body). Same origin check and session as /api; JPEG/PNG/WEBP by magic bytes, at most 5 MB, stored privately
// in R2. GET /api/upload/company-licence/:id streams an image back to its owner or an operator only.
import { Hono } from 'hono';
import { roleAllows } from '../../lib/operator-roles';
import { AppError } from '../../lib/errors';
import type { MessageCode } from '../../lib/messages';
import { readCookie, TOKEN_COOKIE } from '../../lib/mine-info';
import {
  completeLicenceUpload,
  deleteLicenceUpload,
  findLicenceUpload,
  reserveLicenceUpload,
} from '../../server/db/company';
import { MAX_LICENCE_BYTES, MAX_LICENCE_UPLOADS_PER_HOUR, sniffImageType } from '../../server/domain/company-auth';
import { OPERATOR_COOKIE, resolveOperatorSession } from '../../server/domain/operators';
import { resolveSession } from '../../server/domain/session';
import { STORED_FILE_PREFIX } from '../../server/domain/stored-files';
import { readConfig } from '../../server/env';
import { errorResponse } from '../error-response';
import { isSameSite, readBytesLimited } from '../request-guards';
import type { EdgeEnv } from '../types';
import { HOUR_MS } from '../../lib/time';

function fail(status: number, code: MessageCode): never {
  throw new AppError(code, { status });
}

/** The licence upload routes. */
export function uploadRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.post('/api/upload/company-licence', async (c) => {
    if (!isSameSite(c, readConfig(c.env).portalOrigin)) fail(403, 'crossSite');
    const now = Date.now();
    const session = await resolveSession(c.env.DB, readCookie(c.req.header('cookie'), TOKEN_COOKIE), now);
    if (!session) fail(401, 'loginExpired');
    // Reserve the upload first (the hourly limit is checked inside the INSERT), then store; a failed upload gives its
    // reservation back.
    const id = await reserveLicenceUpload(c.env.DB, {
      userId: session.user.id,
      now,
      since: now - HOUR_MS,
      max: MAX_LICENCE_UPLOADS_PER_HOUR,
    });
    if (id === null) fail(429, 'trackingTooFrequent');
    let stored: string | null = null;
    try {
      const body = await readBytesLimited(c.req.raw, MAX_LICENCE_BYTES);
      const mime = body && body.byteLength > 0 ? sniffImageType(body.subarray(0, 16)) : null;
      if (!body || !mime) {
        await deleteLicenceUpload(c.env.DB, id);
        return body ? fail(415, 'licenceNotImage') : fail(413, 'licenceTooLarge');
      }
      const ext = mime.slice('image/'.length).replace('jpeg', 'jpg');
      const key = `${STORED_FILE_PREFIX.companyLicence}${session.user.id}/${crypto.randomUUID()}.${ext}`;
      await c.env.FILES.put(key, body, { httpMetadata: { contentType: mime } });
      stored = key;
      await completeLicenceUpload(c.env.DB, id, { r2Key: key, mime, size: body.byteLength });
      return c.json({ P: { id, mime, size: body.byteLength } }, 200, { 'Cache-Control': 'no-store' });
    } catch (err) {
      await deleteLicenceUpload(c.env.DB, id).catch(() => undefined);
      if (stored) await c.env.FILES.delete(stored).catch(() => undefined);
      throw err;
    }
  });

  app.get('/api/upload/company-licence/:id{[0-9]+}', async (c) => {
    // The applicant, or an operator who reviews company applications (support; admin passes every role).
    const cookie = c.req.header('cookie');
    const operator = await resolveOperatorSession(c.env.DB, readCookie(cookie, OPERATOR_COOKIE), Date.now());
    const reviewer = operator !== null && roleAllows(operator.role, ['support']);
    const session = reviewer ? null : await resolveSession(c.env.DB, readCookie(cookie, TOKEN_COOKIE), Date.now());
    if (!reviewer && !session) fail(401, 'loginExpired');
    const upload = await findLicenceUpload(c.env.DB, Number(c.req.param('id')));
    if (!upload || (!reviewer && upload.userId !== session?.user.id)) fail(404, 'notFound');
    const obj = await c.env.FILES.get(upload.r2Key);
    if (!obj) fail(404, 'notFound');
    return new Response(obj.body, {
      headers: {
        'Content-Type': upload.mime,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': 'inline',
      },
    });
  });

  app.onError((err, c) => errorResponse(err, c));
  return app;
}
