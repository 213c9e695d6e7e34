// Order and payment-attempt numbers: a Beijing-time stamp for humans plus 80 random bits, so they are unique and
// unguessable, and fit WeChat's out_trade_no (6-32 of [0-9A-Za-z]).
import { TRANSFER_REFERENCE_ALPHABET, TRANSFER_REFERENCE_LENGTH } from '../../lib/bank-transfer';
import { shanghaiStamp } from '../../lib/time';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // 32 symbols: 5 bits each, no bias

const stamp = shanghaiStamp;

function randomPart(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
}

/** D + yyyyMMddHHmmss + 16 random symbols (31 characters). */
export const newOrderNo = (now: number): string => `D${stamp(now)}${randomPart(16)}`;

/** P + yyyyMMddHHmmss + 16 random symbols: one per payment attempt (WeChat out_trade_no). */
export const newOutTradeNo = (now: number): string => `P${stamp(now)}${randomPart(16)}`;

/** R + yyyyMMddHHmmss + 16 random symbols: one per refund (WeChat out_refund_no). */
export const newOutRefundNo = (now: number): string => `R${stamp(now)}${randomPart(16)}`;

/** A company transfer's remittance reference (汇款识别码): 8 symbols without 0/O/1/I, 40 random bits (docs/decisions/227). */
export function newTransferReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TRANSFER_REFERENCE_LENGTH));
  return Array.from(bytes, (b) => TRANSFER_REFERENCE_ALPHABET[b & 31]).join('');
}
