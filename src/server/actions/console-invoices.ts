// Admin.Invoice* console actions (finance; admin passes; docs/decisions/229-230): the requests by state with their 红冲
// flags, one request, issuing it with an electronic invoice number, refusing it with a reason. Uploading the PDF
// that issues a request is POST /api/upload/invoice/{id} (a raw body; the /api body limit is too small for files).
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { invoicePdfPath, invoiceUploadPath } from '../../lib/invoice-rules';
import { findInvoiceRequest, listConsoleRequests, redFlushFacts } from '../db/invoices';
import { findUserById } from '../db/users';
import { issueInvoice, refuseInvoice } from '../domain/invoices';
import { auditActor } from '../domain/console-audit';
import { FINANCE } from '../../lib/operator-roles';
import { idSchema } from '../../lib/schemas';
import { defineAction } from './define';
import { invoiceNumberSchema, invoiceRefuseReasonSchema, invoiceStateFilterSchema } from '../../lib/schemas';

export const consoleInvoiceActions = {
  'Admin.InvoiceList': defineAction({
    summary:
      '【运营后台·财务】发票申请列表：按状态（pending 待开具 / issued 已开具 / refused 已驳回 / all）；flagged 只看开票后发生退款、需红冲的申请',
    access: FINANCE,
    cacheable: false,
    input: z.object({ state: invoiceStateFilterSchema, flagged: z.boolean().default(false) }),
    async handler(ctx, input) {
      const list = await listConsoleRequests(ctx.db, {
        state: input.state === 'all' ? null : input.state,
        flagged: input.flagged,
        limit: 200,
      });
      return { list };
    },
  }),

  'Admin.InvoiceDetail': defineAction({
    summary: '【运营后台·财务】一条发票申请：抬头、金额、订单、状态、开票后退款（红冲提示），以及上传PDF的地址',
    access: FINANCE,
    cacheable: false,
    input: z.object({ id: idSchema }),
    async handler(ctx, input) {
      const request = await findInvoiceRequest(ctx.db, input.id);
      if (!request) throw new AppError('invoiceNotFound');
      const [user, flags] = await Promise.all([
        findUserById(ctx.db, request.userId),
        redFlushFacts(ctx.db, request.id, request.userId),
      ]);
      const { pdfKey: _k, ...rest } = request;
      return {
        request: rest,
        phone: user?.phone ?? '',
        ...flags,
        pdfUrl: request.hasPdf ? invoicePdfPath(request.id) : null,
        uploadUrl: invoiceUploadPath(request.id),
      };
    },
  }),

  'Admin.InvoiceIssue': defineAction({
    summary:
      '【运营后台·财务】以电子发票号码开具一条待开具的申请（PDF 经 POST /api/upload/invoice/{id} 上传）；留审计记录',
    access: FINANCE,
    cacheable: false,
    input: z.object({ id: idSchema, invoiceNo: invoiceNumberSchema }),
    async handler(ctx, input) {
      await issueInvoice(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), {
        id: input.id,
        invoiceNo: input.invoiceNo,
        pdf: null,
      });
      return { issued: true };
    },
  }),

  'Admin.InvoiceRefuse': defineAction({
    summary: '【运营后台·财务】驳回一条待开具的申请并写明原因（客户可见，金额退回可开票额度）；留审计记录',
    access: FINANCE,
    cacheable: false,
    input: z.object({ id: idSchema, reason: invoiceRefuseReasonSchema }),
    async handler(ctx, input) {
      await refuseInvoice(ctx.db, auditActor(ctx.operator, ctx.ip, ctx.now), { id: input.id, reason: input.reason });
      return { refused: true };
    },
  }),
};
