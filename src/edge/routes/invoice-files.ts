// Invoice PDFs (docs/decisions/230). POST /api/upload/invoice/:id: finance (admin passes) uploads the issued invoice of
// a pending request as the raw body, same origin only; a PDF by its magic bytes, at most MAX_INVOICE_PDF_BYTES; stored
// privately in R2 (binding FILES), then the request is issued in one audited batch (a request no longer pending
// keeps nothing: the file is deleted again). GET /api/invoice/:id/pdf streams the PDF to the request's owner or to
// finance; anyone else's id answers exactly as an unknown one, so nothing leaks.
import { Hono } from 'hono';
import { AppError } from '../../lib/errors';
import { INVOICE_STATE, MAX_INVOICE_PDF_BYTES } from '../../lib/invoice-rules';
import type { MessageCode } from '../../lib/messages';
import { readCookie, TOKEN_COOKIE } from '../../lib/mine-info';
import { roleAllows } from '../../lib/operator-roles';
import { findInvoiceRequest } from '../../server/db/invoices';
import { invoicePdfKey, isPdf, issueInvoice } from '../../server/domain/invoices';
import { OPERATOR_COOKIE, resolveOperatorSession } from '../../server/domain/operators';
import { auditActor } from '../../server/domain/console-audit';
import { resolveSession } from '../../server/domain/session';
import { readConfig } from '../../server/env';
import { errorResponse } from '../error-response';
import { isSameSite, readBytesLimited } from '../request-guards';
import type { EdgeEnv } from '../types';

function fail(status: number, code: MessageCode): never {
  throw new AppError(code, { status });
}

/** The invoice PDF routes. */
export function invoiceFileRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.post('/api/upload/invoice/:id{[0-9]+}', async (c) => {
    if (!isSameSite(c, readConfig(c.env).portalOrigin)) fail(403, 'crossSite');
    const now = Date.now();
    const operator = await resolveOperatorSession(c.env.DB, readCookie(c.req.header('cookie'), OPERATOR_COOKIE), now);
    if (!operator) fail(401, 'operatorLoginRequired');
    if (!roleAllows(operator.role, ['finance'])) fail(403, 'operatorForbidden');
    const request = await findInvoiceRequest(c.env.DB, Number(c.req.param('id')));
    if (!request) fail(404, 'invoiceNotFound');
    if (request.state !== INVOICE_STATE.pending) fail(409, 'invoiceNotPending');
    const body = await readBytesLimited(c.req.raw, MAX_INVOICE_PDF_BYTES);
    if (!body) fail(413, 'invoicePdfTooLarge');
    if (!isPdf(body.subarray(0, 5))) fail(415, 'invoicePdfNotPdf');
    const key = invoicePdfKey(request.userId, request.id);
    await c.env.FILES.put(key, body, { httpMetadata: { contentType: 'application/pdf' } });
    try {
      await issueInvoice(c.env.DB, auditActor(operator, c.req.header('cf-connecting-ip') ?? '', now), {
        id: request.id,
        invoiceNo: '',
        pdf: { key, bytes: body.byteLength },
      });
    } catch (err) {
      await c.env.FILES.delete(key).catch(() => undefined);
      throw err;
    }
    return c.json({ P: { id: request.id, size: body.byteLength } }, 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/api/invoice/:id{[0-9]+}/pdf', async (c) => {
    const cookie = c.req.header('cookie');
    const now = Date.now();
    const operator = await resolveOperatorSession(c.env.DB, readCookie(cookie, OPERATOR_COOKIE), now);
    const finance = operator !== null && roleAllows(operator.role, ['finance']);
    const session = finance ? null : await resolveSession(c.env.DB, readCookie(cookie, TOKEN_COOKIE), now);
    if (!finance && !session) fail(401, 'loginExpired');
    const request = await findInvoiceRequest(c.env.DB, Number(c.req.param('id')));
    // Another customer's request reads exactly as one that does not exist.
    if (!request || (!finance && request.userId !== session?.user.id)) fail(404, 'invoiceNotFound');
    if (!request.pdfKey) fail(404, 'invoicePdfMissing');
    const obj = await c.env.FILES.get(request.pdfKey);
    if (!obj) fail(404, 'invoicePdfMissing');
    return new Response(obj.body, {
      headers: {
        'Content-Type': 'application/pdf',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': `attachment; filename="invoice-${request.id}.pdf"`,
      },
    });
  });

  app.onError((err, c) => errorResponse(err, c));
  return app;
}
