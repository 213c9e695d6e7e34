// zod pieces shared by the commerce action groups (each carries its Chinese message).
import { z } from 'zod';
import { messages } from '../../lib/messages';

/** A whole number in [min, max], with one Chinese message for every way it can be wrong. */
export const intIn = (min: number, max: number, message: string = messages.invalidParams) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

export const idSchema = intIn(1, Number.MAX_SAFE_INTEGER);
export const unitsSchema = intIn(1, 1000, messages.quantityInvalid);
export const couponIdSchema = idSchema.optional();
export const orderNoSchema = z.string({ error: messages.orderNotFound }).regex(/^D\d{14}[0-9A-Z]{16}$/, {
  error: messages.orderNotFound,
});
/** A payment attempt's merchant order number (WeChat out_trade_no). */
export const outTradeNoSchema = z.string({ error: messages.paymentNotFound }).regex(/^P\d{14}[0-9A-Z]{16}$/, {
  error: messages.paymentNotFound,
});
/** Why money is refunded: shown to the payer by WeChat, so 1-80 characters. */
export const refundReasonSchema = z
  .string({ error: messages.refundReasonInvalid })
  .trim()
  .min(1, messages.refundReasonInvalid)
  .max(80, messages.refundReasonInvalid);
