// Invoice facts shared by the pages and the server (docs/decisions/229-230): the stored states, types and title kinds
// with their words, the limits of an uploaded invoice PDF, and the 红冲 note finance reads.
import { formatFen } from './format';

/** The stored states of an invoice request (invoice_requests.state). */
export const INVOICE_STATE = { pending: 'pending', issued: 'issued', refused: 'refused' } as const;
export type InvoiceState = (typeof INVOICE_STATE)[keyof typeof INVOICE_STATE];
export const INVOICE_STATE_LABEL: Record<InvoiceState, string> = {
  pending: '待开具',
  issued: '已开具',
  refused: '已驳回',
};

/** 增值税普通发票 / 增值税专用发票 (invoice_requests.type). */
export const INVOICE_TYPES = ['normal', 'special'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_TYPE_LABEL: Record<InvoiceType, string> = {
  normal: '增值税普通发票',
  special: '增值税专用发票',
};

/** 个人 / 企业 (invoice_titles.kind). */
export const TITLE_KINDS = ['personal', 'company'] as const;
export type TitleKind = (typeof TITLE_KINDS)[number];
export const TITLE_KIND_LABEL: Record<TitleKind, string> = { personal: '个人', company: '企业' };

/** The largest invoice PDF finance may upload. */
export const MAX_INVOICE_PDF_BYTES = 5 * 1024 * 1024;

/** Where the customer downloads an issued invoice's PDF (owner or finance only). */
export const invoicePdfPath = (id: number): string => `/api/invoice/${id}/pdf`;
/** Where finance uploads the PDF that issues a pending request. */
export const invoiceUploadPath = (id: number): string => `/api/upload/invoice/${id}`;

/** The 红冲 note of an issued invoice (its orders refunded since, or the customer now invoiced above what they paid
 * net), or null when none is due. */
export function redFlushNote(r: { refundedOrdersFen: number; customerOverFen: number }): string | null {
  if (r.refundedOrdersFen > 0) return `开票订单已退款 ${formatFen(r.refundedOrdersFen)}，需红冲`;
  if (r.customerOverFen > 0) return `客户已开票金额超出实付 ${formatFen(r.customerOverFen)}，需红冲`;
  return null;
}
