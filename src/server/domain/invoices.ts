// Invoices (docs/decisions/229-230): the rules of a saved title (个人/企业, 税号, the 专票 fields), who may ask for a
// 专票 (a company whose 企业认证 passed, under its certified name), a request for picked orders or an entered amount
// within the invoiceable total, and finance's review: issue (a PDF in R2 and/or an electronic invoice number) or
// refuse with a reason, each audited in the batch that changes the request.
import { AppError } from '../../lib/errors';
import { isValidCreditCode } from '../../lib/identity-number';
import { INVOICE_STATE, type InvoiceType } from '../../lib/invoice-rules';
import type { AuditActor } from '../db/console-audit';
import {
  certifiedCompanyName,
  findInvoiceRequest,
  findTitle,
  type InvoiceTitleFields,
  insertInvoiceRequest,
  insertTitle,
  issueStatement,
  refuseStatement,
  sumOfOrders,
  updateTitle,
} from '../db/invoices';
import { auditedChange } from './console-audit';
import { COMPANY_APPROVED } from './company-auth';
import { STORED_FILE_PREFIX } from './stored-files';

/** Titles a customer may keep at once. */
export const MAX_TITLES = 20;

/** The PDF magic: every PDF file starts with "%PDF-". */
export const isPdf = (head: Uint8Array): boolean => [0x25, 0x50, 0x44, 0x46, 0x2d].every((v, i) => head[i] === v);

/** Where an issued invoice's PDF is kept in R2 (binding FILES), private to its owner and finance. */
export const invoicePdfKey = (userId: number, requestId: number): string =>
  `${STORED_FILE_PREFIX.invoicePdf}${userId}/${requestId}-${crypto.randomUUID()}.pdf`;

/** True when the title carries everything a 专票 needs. */
const hasSpecialFields = (t: InvoiceTitleFields) =>
  t.kind === 'company' && [t.taxNo, t.address, t.phone, t.bank, t.account].every((v) => v.trim() !== '');

/** A title as it is stored: a company needs a valid 税号; a personal title keeps only its name. */
export function normalTitle(t: InvoiceTitleFields): InvoiceTitleFields {
  if (t.kind === 'personal')
    return { kind: 'personal', name: t.name, taxNo: '', address: '', phone: '', bank: '', account: '' };
  const taxNo = t.taxNo.trim().toUpperCase();
  if (taxNo === '') throw new AppError('invoiceTaxNoRequired');
  if (!isValidCreditCode(taxNo)) throw new AppError('creditCodeInvalid');
  return { ...t, taxNo };
}

/** Save a new title or change one of the customer's; answers its id. */
export async function saveTitle(
  db: D1Database,
  userId: number,
  id: number | undefined,
  fields: InvoiceTitleFields,
  now: number,
): Promise<{ id: number }> {
  const t = normalTitle(fields);
  if (id === undefined) {
    const created = await insertTitle(db, userId, t, now, MAX_TITLES);
    if (created === null) throw new AppError('invoiceTitleLimit');
    return { id: created };
  }
  if (!(await updateTitle(db, userId, id, t, now))) throw new AppError('invoiceTitleNotFound');
  return { id };
}

/** Who asks: the customer's id and company state, with the certified company's name when it passed. */
export interface InvoiceApplicant {
  userId: number;
  companyAuthState: number;
  certifiedCompanyName: string | null;
}

/** The applicant behind a customer: their company state and, when it passed, the certified name. */
export async function applicantOf(
  db: D1Database,
  user: { id: number; companyAuthState: number },
): Promise<InvoiceApplicant> {
  const name =
    user.companyAuthState === COMPANY_APPROVED ? await certifiedCompanyName(db, user.id, COMPANY_APPROVED) : null;
  return { userId: user.id, companyAuthState: user.companyAuthState, certifiedCompanyName: name };
}

/**
 * Refuse a 专票 unless the title is a company with every 专票 field, the customer's 企业认证 passed, and the title
 * names the certified company.
 */
export function checkSpecialAllowed(applicant: InvoiceApplicant, t: InvoiceTitleFields): void {
  if (t.kind !== 'company') throw new AppError('invoiceSpecialPersonalTitle');
  if (applicant.companyAuthState !== COMPANY_APPROVED || applicant.certifiedCompanyName === null)
    throw new AppError('invoiceSpecialNeedsCompany');
  if (t.name.trim() !== applicant.certifiedCompanyName.trim()) throw new AppError('invoiceSpecialNameMismatch');
  if (!hasSpecialFields(t)) throw new AppError('invoiceSpecialFieldsRequired');
}

/** Ask for an invoice: picked orders (their amounts add up) or an entered amount, never above the invoiceable total. */
export async function requestInvoice(
  db: D1Database,
  applicant: InvoiceApplicant,
  r: {
    titleId: number;
    type: InvoiceType;
    email: string;
    orderNos: string[] | null;
    amountFen: number | null;
    now: number;
  },
): Promise<{ id: number; amountFen: number }> {
  const title = await findTitle(db, applicant.userId, r.titleId);
  if (!title) throw new AppError('invoiceTitleNotFound');
  if (r.type === 'special') checkSpecialAllowed(applicant, title);
  const orderNos = r.orderNos && r.orderNos.length > 0 ? [...new Set(r.orderNos)] : null;
  let amountFen = r.amountFen ?? 0;
  if (orderNos) {
    // The amount of picked orders is theirs; the INSERT checks it against the orders as they are at that moment.
    amountFen = await sumOfOrders(db, applicant.userId, orderNos);
    if (amountFen <= 0) throw new AppError('invoiceOrdersUnavailable');
  }
  if (amountFen <= 0) throw new AppError('invoiceAmountInvalid');
  const { id: _id, updatedAt: _u, ...fields } = title;
  const id = await insertInvoiceRequest(db, {
    userId: applicant.userId,
    type: r.type,
    amountFen,
    title: fields,
    email: r.email,
    now: r.now,
    orderNos,
  });
  if (id === null) throw new AppError(orderNos ? 'invoiceOrdersUnavailable' : 'invoiceAmountTooLarge');
  return { id, amountFen };
}

/** Issue a pending request, audited: an uploaded PDF (already in R2) and/or an electronic invoice number. */
export async function issueInvoice(
  db: D1Database,
  actor: AuditActor,
  a: { id: number; invoiceNo: string; pdf: { key: string; bytes: number } | null },
): Promise<void> {
  const request = await findInvoiceRequest(db, a.id);
  if (!request) throw new AppError('invoiceNotFound');
  if (request.state !== INVOICE_STATE.pending) throw new AppError('invoiceNotPending');
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.InvoiceIssue',
      target: `invoice:${a.id}`,
      before: { state: request.state },
      after: {
        state: INVOICE_STATE.issued,
        amountFen: request.amountFen,
        ...(a.invoiceNo ? { invoiceNo: a.invoiceNo } : {}),
        ...(a.pdf ? { pdfBytes: a.pdf.bytes } : {}),
      },
    },
    [
      issueStatement(db, a.id, {
        invoiceNo: a.invoiceNo,
        pdfKey: a.pdf?.key ?? null,
        pdfBytes: a.pdf?.bytes ?? null,
        operatorId: actor.operatorId,
        now: actor.now,
      }),
    ],
    'invoiceNotPending',
  );
}

/** Refuse a pending request with a reason the customer reads, audited. */
export async function refuseInvoice(
  db: D1Database,
  actor: AuditActor,
  a: { id: number; reason: string },
): Promise<void> {
  const request = await findInvoiceRequest(db, a.id);
  if (!request) throw new AppError('invoiceNotFound');
  if (request.state !== INVOICE_STATE.pending) throw new AppError('invoiceNotPending');
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.InvoiceRefuse',
      target: `invoice:${a.id}`,
      before: { state: request.state },
      after: { state: INVOICE_STATE.refused, amountFen: request.amountFen },
      reason: a.reason,
    },
    [refuseStatement(db, a.id, { reason: a.reason, operatorId: actor.operatorId, now: actor.now })],
    'invoiceNotPending',
  );
}
