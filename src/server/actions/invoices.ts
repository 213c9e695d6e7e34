// Invoice.* customer actions (docs/decisions/229-230): saved titles (发票抬头), what may still be invoiced and from
// which orders, the requests with their states, and a new request. The issued PDF is downloaded through
// GET /api/invoice/{id}/pdf (the owner only).
import { z } from 'zod';
import { invoicePdfPath } from '../../lib/invoice-rules';
import { deleteTitle, invoiceableSummary, listTitles, listUserRequests, pickableOrders } from '../db/invoices';
import { AppError } from '../../lib/errors';
import { applicantOf, requestInvoice, saveTitle } from '../domain/invoices';
import { idSchema } from '../../lib/schemas';
import { defineAction } from './define';
import { invoiceApplySchema, invoiceTitleSchema } from '../../lib/schemas';

export const invoiceActions = {
  'Invoice.Overview': defineAction({
    summary:
      '发票：已保存的抬头、可开票金额（实付−已退款−已申请，单位分；充值不单独开票）、可选订单、历次申请及状态（已开具的附下载地址）；是否可开专票',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const [titles, summary, orders, requests, applicant] = await Promise.all([
        listTitles(ctx.db, ctx.user.id),
        invoiceableSummary(ctx.db, ctx.user.id),
        pickableOrders(ctx.db, ctx.user.id),
        listUserRequests(ctx.db, ctx.user.id),
        applicantOf(ctx.db, ctx.user),
      ]);
      return {
        titles,
        summary,
        orders,
        requests: requests.map(({ userId: _u, ...r }) => ({ ...r, pdfUrl: r.hasPdf ? invoicePdfPath(r.id) : null })),
        /** The certified company's name when 企业认证 passed (专票 only for it), else null. */
        certifiedCompanyName: applicant.certifiedCompanyName,
      };
    },
  }),

  'Invoice.TitleSave': defineAction({
    summary:
      '保存发票抬头（无 id 新建，有 id 修改）：个人只需名称；企业需18位统一社会信用代码作税号，专票另需注册地址、电话、开户行、账号；最多20个',
    access: 'user',
    cacheable: false,
    input: invoiceTitleSchema,
    async handler(ctx, input) {
      const { id, ...fields } = input;
      return saveTitle(ctx.db, ctx.user.id, id, fields, ctx.now);
    },
  }),

  'Invoice.TitleDelete': defineAction({
    summary: '删除一个发票抬头（已提交的申请保留当时的抬头）',
    access: 'user',
    cacheable: false,
    input: z.object({ id: idSchema }),
    async handler(ctx, input) {
      if (!(await deleteTitle(ctx.db, ctx.user.id, input.id, ctx.now))) throw new AppError('invoiceTitleNotFound');
      return { deleted: true };
    },
  }),

  'Invoice.Apply': defineAction({
    summary:
      '申请发票：选一个抬头与类型（normal 增值税普通发票 / special 增值税专用发票，专票仅限企业认证通过的同名企业），接收邮箱，以及所选已支付未退款订单 orderNos 或金额 amountFen（分）二选一；不超过可开票金额（并发申请同样不超过）',
    access: 'user',
    cacheable: false,
    input: invoiceApplySchema,
    async handler(ctx, input) {
      const applicant = await applicantOf(ctx.db, ctx.user);
      return requestInvoice(ctx.db, applicant, {
        titleId: input.titleId,
        type: input.type,
        email: input.email,
        orderNos: input.orderNos ?? null,
        amountFen: input.amountFen ?? null,
        now: ctx.now,
      });
    },
  }),
};
