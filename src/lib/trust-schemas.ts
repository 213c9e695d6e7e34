// Input schemas of the trust and growth forms (real-name, company, account settings, withdrawals), shared by the
// forms and the actions, each carrying its Chinese message.
import { z } from 'zod';
import { messages } from './messages';

export const realNameSchema = z
  .string()
  .trim()
  .regex(/^[\u4e00-\u9fa5][\u4e00-\u9fa5·]{0,28}[\u4e00-\u9fa5]$/, messages.nameInvalid);
/** Format only; the checksum and birth date are checked on the server (GB 11643). */
export const idNumberSchema = z
  .string()
  .trim()
  .regex(/^\d{17}[\dXx]$/, messages.idNumberInvalid);
export const companyNameSchema = z
  .string()
  .trim()
  .min(2, messages.companyNameInvalid)
  .max(100, messages.companyNameInvalid);
export const creditCodeSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z]{18}$/, messages.creditCodeInvalid);
export const legalPersonSchema = z
  .string()
  .trim()
  .min(2, messages.legalPersonInvalid)
  .max(30, messages.legalPersonInvalid);
export const remarkSchema = z.string().trim().max(200, messages.remarkInvalid);
export const accountNameSchema = z
  .string()
  .trim()
  .min(2, messages.accountNameInvalid)
  .max(30, messages.accountNameInvalid);
/** An Alipay account: a mobile number or an e-mail address. */
export const accountNoSchema = z
  .string()
  .trim()
  .regex(/^(1[3-9]\d{9}|[^\s@]{1,64}@[^\s@]{1,190}\.[A-Za-z]{2,})$/, messages.accountNoInvalid);
export const pageSchema = z.number().int().min(1).max(10_000).default(1);
export const pageSizeSchema = z.number().int().min(1).max(50).default(10);
