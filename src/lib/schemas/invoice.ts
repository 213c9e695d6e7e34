// Input schemas of the invoice actions (docs/decisions/229-230), each carrying its Chinese message; the customer's
// forms read the same limits.
import { z } from 'zod';
import { INVOICE_STATE, INVOICE_TYPES, TITLE_KINDS } from '../invoice-rules';
import { messages } from '../messages';
import { orderNoSchema } from './commerce';
import { idSchema } from './numbers';

const optionalText = (max: number) =>
  z.string({ error: messages.invalidParams }).trim().max(max, messages.invalidParams).default('');

/** A title as the customer types it; the 税号's checksum is checked by the domain (a company needs one). */
export const invoiceTitleSchema = z.object({
  id: idSchema.optional(),
  kind: z.enum(TITLE_KINDS, { error: messages.invalidParams }),
  name: z
    .string({ error: messages.invoiceTitleNameInvalid })
    .trim()
    .min(2, messages.invoiceTitleNameInvalid)
    .max(100, messages.invoiceTitleNameInvalid),
  taxNo: z
    .string({ error: messages.creditCodeInvalid })
    .trim()
    .regex(/^([0-9A-Za-z]{18})?$/, messages.creditCodeInvalid)
    .default(''),
  address: optionalText(200),
  phone: optionalText(30),
  bank: optionalText(100),
  account: optionalText(40),
});

export const invoiceEmailSchema = z
  .string({ error: messages.invoiceEmailInvalid })
  .trim()
  .regex(/^[^\s@]{1,64}@[^\s@]{1,190}\.[A-Za-z]{2,}$/, messages.invoiceEmailInvalid);

/** Picked orders, or an amount in fen: one of the two. */
export const invoiceApplySchema = z
  .object({
    titleId: idSchema,
    type: z.enum(INVOICE_TYPES, { error: messages.invalidParams }),
    email: invoiceEmailSchema,
    orderNos: z.array(orderNoSchema).max(200, messages.invalidParams).optional(),
    amountFen: z
      .number({ error: messages.invoiceAmountInvalid })
      .int(messages.invoiceAmountInvalid)
      .positive(messages.invoiceAmountInvalid)
      .max(100_000_000_00, messages.invoiceAmountTooLarge)
      .optional(),
  })
  .refine((v) => (v.orderNos?.length ?? 0) > 0 !== (v.amountFen !== undefined), {
    message: messages.invoiceAmountInvalid,
  });

export const invoiceStateFilterSchema = z
  .enum([INVOICE_STATE.pending, INVOICE_STATE.issued, INVOICE_STATE.refused, 'all'], { error: messages.invalidParams })
  .default(INVOICE_STATE.pending);

/** An electronic invoice's number (全电发票 20 digits; older electronic invoices 8). */
export const invoiceNumberSchema = z
  .string({ error: messages.invoiceNumberInvalid })
  .trim()
  .regex(/^\d{8,20}$/, messages.invoiceNumberInvalid);

export const invoiceRefuseReasonSchema = z
  .string({ error: messages.invoiceRefuseReasonInvalid })
  .trim()
  .min(2, messages.invoiceRefuseReasonInvalid)
  .max(200, messages.invoiceRefuseReasonInvalid);
