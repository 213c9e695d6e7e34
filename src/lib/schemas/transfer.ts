// Input schemas of the company bank transfer actions (docs/decisions/227): what finance reads off the statement.
import { z } from 'zod';
import { normalizeTransferReference } from '../bank-transfer';
import { messages } from '../messages';

/** A reference as typed (spaces, dashes and lower case allowed), normalised. */
export const referenceSchema = z.string({ error: messages.transferReferenceInvalid }).transform((v, ctx) => {
  const ref = normalizeTransferReference(v);
  if (ref === null) {
    ctx.addIssue({ code: 'custom', message: messages.transferReferenceInvalid });
    return z.NEVER;
  }
  return ref;
});

export const bankSerialSchema = z
  .string({ error: messages.transferSerialInvalid })
  .trim()
  .regex(/^[0-9A-Za-z-]{1,64}$/, messages.transferSerialInvalid);

/** What finance reads off the bank's statement. */
export const receivedSchema = z.object({
  reference: referenceSchema,
  receivedFen: z
    .number({ error: messages.transferAmountInvalid })
    .int(messages.transferAmountInvalid)
    .min(1, messages.transferAmountInvalid)
    .max(100_000_000_00, messages.transferAmountInvalid),
  payerName: z
    .string({ error: messages.transferPayerInvalid })
    .trim()
    .min(1, messages.transferPayerInvalid)
    .max(60, messages.transferPayerInvalid),
  bankSerial: bankSerialSchema,
});
