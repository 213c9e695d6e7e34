// zod pieces shared by the commerce action groups (each carries its Chinese message).
import { z } from 'zod';
import { messages } from '../messages';
import { idSchema, intIn } from './numbers';

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
